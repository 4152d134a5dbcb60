// Checkout with `ref`: the referral is born pending, inside the checkout's transaction, with a
// snapshot of the program's reward. A `ref` that cannot count is ignored silently and never blocks
// the sale: unknown code, no active program, self-referral (the same customer, or another record
// sharing the referrer's document, mobile, mailbox or card: isSelfReferral), or a customer already referred.
import type { Tx } from "../shared/tx.ts";
import { emitEvents } from "../events/catalogue.ts";
import { newId } from "../shared/ids.ts";
import { qualifyReferrals } from "./qualify-referrals.ts";
import { isSelfReferral } from "./self-referral.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface RecordReferralInput {
  tenantId: string;
  code: string | null;
  referredCustomerId: string;
  referredSubscriptionId: string;
  now: Date;
}

/** The referral id, or null when the code does not count. */
export async function recordReferral(tx: Tx, input: RecordReferralInput): Promise<string | null> {
  const code = input.code?.trim().toUpperCase();
  if (!code) return null;
  const owner = await tx.referralCode.findUnique({ where: { tenantId_code: { tenantId: input.tenantId, code } } });
  if (!owner || owner.customerId === input.referredCustomerId) return null;
  const program = await tx.referralProgram.findFirst({ where: { tenantId: input.tenantId, active: true }, orderBy: { id: "desc" } });
  if (!program) return null;
  if (await isSelfReferral(tx, { tenantId: input.tenantId, referrerCustomerId: owner.customerId, referredCustomerId: input.referredCustomerId })) return null;
  const id = newId("referral");
  // First referral wins: the unique (tenant, referred customer) makes a second one a no-op.
  const inserted = await sqlExecute(tx, Prisma.sql`
    INSERT INTO referrals (id, tenant_id, program_id, code_id, referrer_customer_id, referred_customer_id, referred_subscription_id, status, reward, created_at)
    VALUES (${id}, ${input.tenantId}, ${program.id}, ${owner.id}, ${owner.customerId}, ${input.referredCustomerId}, ${input.referredSubscriptionId},
            'PENDING', ${JSON.stringify({ kind: program.rewardKind, value: program.rewardValue, cycles: program.rewardCycles })}::jsonb, ${input.now})
    ON CONFLICT (tenant_id, referred_customer_id) DO NOTHING`);
  if (inserted !== 1) return null;
  await emitEvents(tx, { tenantId: input.tenantId, subject: { kind: "referral", referralId: id }, types: ["referral.created"], at: input.now });
  // A first cycle paid at checkout may already be enough to qualify.
  await qualifyReferrals(tx, { subscriptionIds: [input.referredSubscriptionId], now: input.now });
  return id;
}
