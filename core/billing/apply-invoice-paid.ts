// What a paid invoice does to its subscription (inside the settling transaction): the period it
// covers starts, a coupon cycle is used up, and the contract's events go to the outbox.
import type { Invoice, Subscription } from "../../generated/prisma/client.ts";
import type { EventType } from "../events/event-types.ts";
import type { Tx } from "../events/record-event.ts";
import { emitSubscriptionEvents } from "../subscriptions/emit-subscription-events.ts";
import { applyScheduledPlanChange } from "../subscriptions/apply-scheduled-plan-change.ts";
import { SUBSCRIPTION } from "../subscriptions/transitions.ts";
import { moveStatus } from "../shared/transition.ts";
import { qualifyReferrals } from "../referrals/qualify-referrals.ts";
import { afterDiscountedCycle } from "./next-charge.ts";
import { periodEnd, pixIssueAt, type Interval } from "./periods.ts";

const EVENTS_BY_PREVIOUS_STATUS: Partial<Record<Subscription["status"], EventType[]>> = {
  PENDING_FIRST_PAYMENT: ["subscription.activated", "invoice.paid"],
  SUSPENDED: ["subscription.activated", "invoice.paid"],
  PAST_DUE: ["invoice.paid", "subscription.updated"],
  TRIALING: ["invoice.paid", "subscription.updated"],
  ACTIVE: ["invoice.paid"],
};

export async function applyInvoicePaid(
  tx: Tx,
  input: { subscription: Subscription; interval: Interval; invoice: Invoice; paymentId: string | null; now: Date },
): Promise<void> {
  const { subscription: sub, invoice, now } = input;
  // A payment arriving after cancellation settles the money but never resurrects the subscription.
  if (sub.status === "CANCELED") return;
  // The renewal that opens the period of a scheduled plan change applies it first.
  const changedTo = invoice.kind === "CYCLE" ? await applyScheduledPlanChange(tx, sub, invoice.periodStart) : null;
  const { start, end, anchorDay, nextBillingAt } = paidPeriod(sub, invoice, changedTo ?? input.interval, now);
  await moveStatus(tx, SUBSCRIPTION, {
    id: sub.id,
    tenantId: sub.tenantId,
    to: "ACTIVE",
    data: {
      currentPeriodStart: start,
      currentPeriodEnd: end,
      anchorDay,
      nextBillingAt,
      paidCycles: { increment: 1 },
      ...(input.paymentId ? { lastPaymentId: input.paymentId } : {}),
    },
  });
  if (invoice.discountCents > 0) await useCouponCycle(tx, sub.tenantId, sub.id);
  const types = EVENTS_BY_PREVIOUS_STATUS[sub.status] ?? [];
  await emitSubscriptionEvents(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, types: changedTo ? ["subscription.plan_changed", ...types] : types, at: now });
  // Referral (core/referrals): the paid cycle may qualify the subscription's referral.
  await qualifyReferrals(tx, { subscriptionIds: [sub.id], now });
}

/** The cycle a paid invoice opens, and when the run next looks at the subscription. */
export function paidPeriod(
  sub: Pick<Subscription, "anchorDay" | "collectionMethod">,
  invoice: Pick<Invoice, "periodStart" | "periodEnd">,
  interval: Interval,
  now: Date,
) {
  let start = invoice.periodStart;
  let end = invoice.periodEnd;
  let anchorDay = sub.anchorDay ?? start.getUTCDate();
  // Paid after the period it covered already ended (a long suspension): a new cycle starts today.
  if (end.getTime() <= now.getTime()) {
    start = now;
    anchorDay = now.getUTCDate();
    end = periodEnd(now, interval, anchorDay);
  }
  return { start, end, anchorDay, nextBillingAt: sub.collectionMethod === "CARD_AUTO" ? end : pixIssueAt(end) };
}

async function useCouponCycle(tx: Tx, tenantId: string, subscriptionId: string): Promise<void> {
  const redemption = await tx.couponRedemption.findFirst({ where: { tenantId, subscriptionId, active: true }, orderBy: { id: "asc" } });
  if (!redemption || redemption.cyclesRemaining === null) return;
  await tx.couponRedemption.update({ where: { id: redemption.id }, data: afterDiscountedCycle(redemption.cyclesRemaining) });
}
