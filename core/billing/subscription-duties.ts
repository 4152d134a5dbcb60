// The small duties of the billing run that are not a charge: moving a subscription whose invoice is
// paid by Pix or link (no card to retry) through past_due to suspension, scheduled cancellation, and
// abandoned Pix checkouts. Each is one transaction with its events, deciding on the row read under
// the subscription lock and writing through the transition table (a cancel committed first wins).
import type { Subscription } from "../../generated/prisma/client.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";
import type { Runtime } from "../runtime.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { endSubscription } from "../subscriptions/end-subscription.ts";

import { canMove, tryMoveStatus } from "../shared/transition.ts";
import { RETRY_DAYS } from "../shared/periods.ts";

const DAY_MS = 86_400_000;
const LAST_RETRY_DAYS = RETRY_DAYS[RETRY_DAYS.length - 1]!;

/**
 * Unpaid invoice without a card to retry: past_due at the due date, suspended after D+9. "idle" when
 * the invoice was closed or the subscription moved meanwhile (paid, canceled): nothing is written.
 */
export async function markInvoiceOverdue(
  runtime: Runtime,
  sub: Subscription,
  invoice: { id: string; dueAt: Date },
  now: Date,
): Promise<"past_due" | "suspended" | "idle"> {
  const suspendAt = new Date(invoice.dueAt.getTime() + LAST_RETRY_DAYS * DAY_MS);
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, sub.tenantId, sub.id);
    const fresh = await tx.subscription.findFirst({ where: { id: sub.id, tenantId: sub.tenantId }, select: { status: true } });
    const open = await tx.invoice.count({ where: { id: invoice.id, tenantId: sub.tenantId, status: "OPEN" } });
    if (!fresh || open === 0) return "idle";
    // Always through past_due first (the transition table has no active -> suspended).
    const suspend = fresh.status === "PAST_DUE" && now.getTime() >= suspendAt.getTime();
    const to = suspend ? "SUSPENDED" : "PAST_DUE";
    if (!canMove(SUBSCRIPTION, fresh.status, to)) return "idle";
    // Conditional on the status just read: never canceled -> past_due, even without the lock.
    const moved = await tryMoveStatus(tx, SUBSCRIPTION, { id: sub.id, tenantId: sub.tenantId, to, from: [fresh.status], data: { nextBillingAt: suspend ? null : suspendAt } });
    if (!moved) return "idle";
    await emitSubscriptionEvents(tx, {
      tenantId: sub.tenantId,
      subscriptionId: sub.id,
      types: suspend ? ["invoice.payment_failed", "subscription.suspended"] : ["invoice.payment_failed", "subscription.past_due"],
      at: now,
    });
    return suspend ? "suspended" : "past_due";
  });
}

/** cancel_at_period_end reached: the billing run does not renew; the subscription ends, with its e-mail. */
export async function cancelAtPeriodEnd(runtime: Runtime, sub: Subscription, now: Date): Promise<"canceled" | "idle"> {
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, sub.tenantId, sub.id);
    // Re-read under the lock: an undo or an immediate cancel may have committed since the claim.
    const fresh = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: sub.tenantId } });
    if (!fresh.cancelAtPeriodEnd) return "idle";
    const announce = await endSubscription(tx, fresh, { cause: { kind: "period_end" }, now });
    if (!announce) return "idle";
    await announce();
    return "canceled";
  });
}

/** A Pix checkout whose QR expired unpaid: the subscription that never started is canceled. */
export async function expireCheckout(runtime: Runtime, sub: Subscription, now: Date): Promise<"canceled"> {
  await runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, sub.tenantId, sub.id);
    const fresh = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: sub.tenantId } });
    const announce = await endSubscription(tx, fresh, { cause: { kind: "checkout_expired" }, now });
    await announce?.();
  });
  return "canceled";
}
