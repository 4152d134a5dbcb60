// What paid invoices do to their subscriptions (inside the settling transaction), one or a whole
// batch at once: the period each covers starts, a coupon cycle is used up, and the contract's events
// go to the outbox. A canceled subscription is never resurrected: its money settles, nothing else.
import { Prisma, type Invoice, type Subscription } from "../../generated/prisma/client.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";
import type { EventType } from "../events/event-types.ts";
import type { Tx } from "../shared/tx.ts";
import { emitSubscriptionEventsMany } from "../events/emit-subscription-events.ts";
import { applyScheduledPlanChange } from "../subscriptions/apply-scheduled-plan-change.ts";
import { moveRefused, moveStatusRows } from "../shared/transition.ts";
import { qualifyReferrals } from "../referrals/qualify-referrals.ts";
import { afterDiscountedCycle } from "../shared/next-charge.ts";
import { periodEnd, pixIssueAt, type Interval } from "../shared/periods.ts";

const EVENTS_BY_PREVIOUS_STATUS: Partial<Record<Subscription["status"], EventType[]>> = {
  PENDING_FIRST_PAYMENT: ["subscription.activated", "invoice.paid"],
  SUSPENDED: ["subscription.activated", "invoice.paid"],
  PAST_DUE: ["invoice.paid", "subscription.updated"],
  TRIALING: ["invoice.paid", "subscription.updated"],
  ACTIVE: ["invoice.paid"],
};

export interface PaidInvoice {
  subscription: Pick<Subscription, "id" | "tenantId" | "status" | "anchorDay" | "collectionMethod" | "lastPaymentId" | "pendingOfferId" | "pendingOfferEffectiveAt" | "pendingKeepCoupon">;
  interval: Interval;
  /** What opening the period reads of the paid invoice. */
  invoice: Pick<Invoice, "kind" | "periodStart" | "periodEnd" | "discountCents">;
  paymentId: string | null;
  /** The tenant's clock. */
  now: Date;
}

/**
 * `wallNow` stamps updated_at (the wall clock, as Prisma's @updatedAt would). `releaseLease`: the same UPDATE
 * also releases the billing run's lease (the card batch settling what it claimed). `bornHere`: the
 * subscriptions were created in this transaction (a checkout's sale), so no referral points at them yet.
 * Returns the ids of the subscriptions whose period opened.
 */
export async function applyInvoicesPaid(tx: Tx, items: PaidInvoice[], wallNow: Date, opts: { releaseLease?: boolean; bornHere?: boolean } = {}): Promise<Set<string>> {
  // A payment arriving after cancellation settles the money but never resurrects the subscription.
  const live = items.filter((i) => i.subscription.status !== "CANCELED");
  if (live.length === 0) return new Set();
  // The renewal that opens the period of a scheduled plan change applies it first (never in the card batch).
  const changedTo = new Map<string, Interval>();
  for (const i of live) {
    const to = i.invoice.kind === "CYCLE" ? await applyScheduledPlanChange(tx, i.subscription, i.invoice.periodStart) : null;
    if (to) changedTo.set(i.subscription.id, to);
  }
  const rows = live.map((i) => {
    const p = paidPeriod(i.subscription, i.invoice, changedTo.get(i.subscription.id) ?? i.interval, i.now);
    const values = {
      current_period_start: p.start,
      current_period_end: p.end,
      anchor_day: p.anchorDay,
      next_billing_at: p.nextBillingAt,
      last_payment_id: i.paymentId ?? i.subscription.lastPaymentId,
      updated_at: wallNow,
    };
    return { id: i.subscription.id, tenantId: i.subscription.tenantId, values };
  });
  const moved = await moveStatusRows(tx, SUBSCRIPTION, {
    to: "ACTIVE",
    columns: { current_period_start: "timestamp", current_period_end: "timestamp", anchor_day: "integer", next_billing_at: "timestamp", last_payment_id: "text", updated_at: "timestamp" },
    rows,
    also: opts.releaseLease ? Prisma.sql`"paid_cycles" = t."paid_cycles" + 1, "billing_lease_until" = NULL` : Prisma.sql`"paid_cycles" = t."paid_cycles" + 1`,
  });
  // Read under the subscription lock, so a row that did not move is a bug, not a race.
  if (moved.length !== rows.length) throw moveRefused("subscription", "ACTIVE");
  await useCouponCycles(tx, live.filter((i) => i.invoice.discountCents > 0).map((i) => i.subscription));
  await emitSubscriptionEventsMany(
    tx,
    live.map((i) => {
      const types = EVENTS_BY_PREVIOUS_STATUS[i.subscription.status] ?? [];
      return { tenantId: i.subscription.tenantId, subscriptionId: i.subscription.id, types: changedTo.has(i.subscription.id) ? ["subscription.plan_changed", ...types] : types, at: i.now };
    }),
  );
  // Referral (core/referrals): the paid cycles may qualify referrals (one read when there are none).
  if (!opts.bornHere) await qualifyReferrals(tx, { subscriptionIds: live.map((i) => i.subscription.id), now: live.reduce((at, i) => (i.now > at ? i.now : at), live[0]!.now) });
  return new Set(moved);
}

/** One paid invoice (a free cycle, a first Pix payment): the same path as a batch. */
export async function applyInvoicePaid(tx: Tx, input: PaidInvoice & { wallNow: Date }): Promise<void> {
  await applyInvoicesPaid(tx, [input], input.wallNow);
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

/** A discounted cycle was paid: each subscription's active redemption uses one cycle up. */
async function useCouponCycles(tx: Tx, subs: Pick<Subscription, "id" | "tenantId">[]): Promise<void> {
  if (subs.length === 0) return;
  const redemptions = await tx.couponRedemption.findMany({ where: { subscriptionId: { in: subs.map((s) => s.id) }, active: true }, orderBy: { id: "asc" } });
  for (const sub of subs) {
    const redemption = redemptions.find((r) => r.subscriptionId === sub.id && r.tenantId === sub.tenantId);
    if (!redemption || redemption.cyclesRemaining === null) continue;
    await tx.couponRedemption.update({ where: { id: redemption.id }, data: afterDiscountedCycle(redemption.cyclesRemaining) });
  }
}
