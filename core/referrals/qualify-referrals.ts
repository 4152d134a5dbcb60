// A paid cycle of a referred subscription (checkout, renewal, batch renewal), inside the settling
// transaction: a pending referral whose subscription reached the program's qualifyAfterPaidCycles
// qualifies (referral.qualified) and its reward is applied to the referrer at once (referral.rewarded).
import { REFERRAL } from "../../prisma/status-machines.ts";
import { emitEvents } from "../events/catalogue.ts";
import { moveStatus } from "../shared/transition.ts";
import type { Tx } from "../shared/tx.ts";
import { rewardReferrer } from "./reward-referrer.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export async function qualifyReferrals(tx: Tx, input: { subscriptionIds: string[]; now: Date }): Promise<void> {
  if (input.subscriptionIds.length === 0) return;
  // Common case (no referral): one indexed read that finds nothing.
  const due = await sqlQuery<{ id: string; tenant_id: string }>(tx, Prisma.sql`
    SELECT r.id, r.tenant_id FROM referrals r
      JOIN subscriptions s ON s.id = r.referred_subscription_id AND s.tenant_id = r.tenant_id
      JOIN referral_programs p ON p.id = r.program_id
     WHERE r.referred_subscription_id = ANY(${input.subscriptionIds}::text[]) AND r.status = 'PENDING'
       AND s.status <> 'CANCELED' AND s.paid_cycles >= p.qualify_after_paid_cycles
     ORDER BY r.id FOR UPDATE OF r`,
    [],
    // A three-table join on an id array: planned with the ids, never a cached generic plan's guess.
    { customPlan: true },
  );
  for (const r of due) {
    await moveStatus(tx, REFERRAL, { id: r.id, tenantId: r.tenant_id, to: "QUALIFIED", data: { qualifiedAt: input.now } });
    await emitEvents(tx, { tenantId: r.tenant_id, subject: { kind: "referral", referralId: r.id }, types: ["referral.qualified"], at: input.now });
    await rewardReferrer(tx, { tenantId: r.tenant_id, referralId: r.id, now: input.now });
  }
}
