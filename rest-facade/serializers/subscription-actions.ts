// Answers of the subscription write routes of /v1 (cancel, undo, reschedule, remove-coupon,
// charge-now, change-plan, cancel-plan-change) from the typed selections of their mutations.
import { toSubscription, type SubscriptionSelection } from "./subscription.ts";

export interface CancelSelection {
  status: string;
  ok: boolean;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string | null;
}

export const toCancelResult = (r: CancelSelection) => ({
  status: r.status.toLowerCase(),
  ok: r.ok,
  cancel_at_period_end: r.cancelAtPeriodEnd,
  current_period_end: r.currentPeriodEnd,
});

export const toUndoCancelResult = (r: { ok: boolean; cancelAtPeriodEnd: boolean }) => ({ ok: r.ok, cancel_at_period_end: r.cancelAtPeriodEnd });

export const toRescheduleResult = (r: { subscription: SubscriptionSelection; nextBillingAt: string }) => ({
  subscription: toSubscription(r.subscription),
  next_billing_at: r.nextBillingAt,
});

export const toRemoveCouponResult = (r: { removed: number }) => ({ removed: r.removed });

export const toChargeNowResult = (r: { ok: boolean; message: string }) => ({ ok: r.ok, message: r.message });

export interface PlanChangeSelection {
  subscription: SubscriptionSelection;
  planChange: {
    kind: string;
    effect: string;
    chargeCents: number;
    appliesAt: string | null;
    paymentLink: { url: string; offerId: string; expiresAt: string } | null;
  };
}

export function toPlanChangeResult(r: PlanChangeSelection) {
  const c = r.planChange;
  return {
    subscription: toSubscription(r.subscription),
    plan_change: {
      kind: c.kind,
      effect: c.effect,
      charge_cents: c.chargeCents,
      applies_at: c.appliesAt,
      // Only a change that needs a payment on another gateway carries the link.
      ...(c.paymentLink ? { payment_link: { url: c.paymentLink.url, offer_id: c.paymentLink.offerId, expires_at: c.paymentLink.expiresAt } } : {}),
    },
  };
}
