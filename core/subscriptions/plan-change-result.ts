// The 200 body of change-plan and cancel-plan-change: the subscription payload as it stands after the
// change and the plan_change object of service-contract §5.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { PlanChangeKind } from "../billing/proration.ts";
import type { PlanChangeEffect } from "./plan-change-decision.ts";
import { subscriptionDetailInclude, subscriptionPayload } from "./subscription-payload.ts";
import type { Cents } from "../shared/money.ts";

export interface PlanChangeObject {
  kind: PlanChangeKind;
  effect: PlanChangeEffect;
  charge_cents: number;
  applies_at: string | null;
  /** Only for effect payment_link: where the customer pays on the new gateway. */
  payment_link?: { url: string; offer_id: string; expires_at: string };
}

export async function planChangeResult(
  prisma: PrismaClient,
  tenantId: string,
  subscriptionId: string,
  change: { kind: PlanChangeKind; effect: PlanChangeEffect; chargeCents: Cents; appliesAt: Date | null; paymentLink?: PlanChangeObject["payment_link"] },
) {
  const sub = await prisma.subscription.findFirstOrThrow({ where: { id: subscriptionId, tenantId }, include: subscriptionDetailInclude });
  const plan_change: PlanChangeObject = {
    kind: change.kind,
    effect: change.effect,
    charge_cents: change.chargeCents,
    applies_at: change.appliesAt ? change.appliesAt.toISOString() : null,
    ...(change.paymentLink ? { payment_link: change.paymentLink } : {}),
  };
  return { subscription: subscriptionPayload(sub), plan_change };
}
