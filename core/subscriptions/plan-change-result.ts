// The result of change-plan and cancel-plan-change: which subscription (its state is read by the
// caller after the change) and the plan_change object of service-contract §5, in the domain's terms.
import type { PlanChangeKind } from "../shared/proration.ts";
import type { PlanChangeEffect } from "./plan-change-decision.ts";
import type { Cents } from "../shared/money.ts";

export interface PlanChangeObject {
  kind: PlanChangeKind;
  effect: PlanChangeEffect;
  chargeCents: number;
  appliesAt: Date | null;
  /** Only for effect payment_link: where the customer pays on the new gateway. */
  paymentLink: { url: string; offerId: string; expiresAt: string } | null;
}

export interface PlanChangeResult {
  subscriptionId: string;
  planChange: PlanChangeObject;
}

export function planChangeResult(
  subscriptionId: string,
  change: { kind: PlanChangeKind; effect: PlanChangeEffect; chargeCents: Cents; appliesAt: Date | null; paymentLink?: { url: string; offer_id: string; expires_at: string } },
): PlanChangeResult {
  const link = change.paymentLink;
  return {
    subscriptionId,
    planChange: {
      kind: change.kind,
      effect: change.effect,
      chargeCents: change.chargeCents,
      appliesAt: change.appliesAt,
      paymentLink: link ? { url: link.url, offerId: link.offer_id, expiresAt: link.expires_at } : null,
    },
  };
}
