// The small duties of the billing run that are not a charge: moving a subscription whose invoice is
// paid by Pix or link (no card to retry) through past_due to suspension, scheduled cancellation, and
// abandoned Pix checkouts. Each is one transaction with its events.
import type { Subscription } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { recordCancellationEmail } from "../emails/record-cancellation-email.ts";
import { emitSubscriptionEvents, lockSubscription } from "../subscriptions/emit-subscription-events.ts";
import { assertTransition } from "../subscriptions/transitions.ts";
import { revertReferral } from "../referrals/revert-referral.ts";
import { RETRY_DAYS } from "./periods.ts";

const DAY_MS = 86_400_000;
const LAST_RETRY_DAYS = RETRY_DAYS[RETRY_DAYS.length - 1]!;

/** Unpaid invoice without a card to retry: past_due at the due date, suspended after D+9. */
export async function markInvoiceOverdue(runtime: Runtime, sub: Subscription, invoiceDueAt: Date, now: Date): Promise<"past_due" | "suspended"> {
  const suspendAt = new Date(invoiceDueAt.getTime() + LAST_RETRY_DAYS * DAY_MS);
  // Always through past_due first (the transition table has no active -> suspended).
  const suspend = sub.status === "PAST_DUE" && now.getTime() >= suspendAt.getTime();
  const to = suspend ? "SUSPENDED" : "PAST_DUE";
  assertTransition(sub.status, to);
  await runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, sub.tenantId, sub.id);
    await tx.subscription.update({ where: { id: sub.id }, data: { status: to, nextBillingAt: suspend ? null : suspendAt } });
    await emitSubscriptionEvents(tx, {
      tenantId: sub.tenantId,
      subscriptionId: sub.id,
      types: suspend ? ["invoice.payment_failed", "subscription.suspended"] : ["invoice.payment_failed", "subscription.past_due"],
      at: now,
    });
  });
  return suspend ? "suspended" : "past_due";
}

/** cancel_at_period_end reached: the billing run does not renew; the subscription ends, with its e-mail. */
export async function cancelAtPeriodEnd(runtime: Runtime, sub: Subscription, now: Date): Promise<"canceled" | "idle"> {
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, sub.tenantId, sub.id);
    // Re-read under the lock: an undo or an immediate cancel may have committed since the claim.
    const fresh = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: sub.tenantId } });
    if (!fresh.cancelAtPeriodEnd || fresh.status === "CANCELED") return "idle";
    assertTransition(fresh.status, "CANCELED");
    // cancel_reason keeps the reason given when it was scheduled (the e-mail carries it).
    await tx.subscription.update({ where: { id: sub.id }, data: { status: "CANCELED", canceledAt: now, nextBillingAt: null, cancelReason: fresh.cancelReason ?? "period_end" } });
    await tx.invoice.updateMany({ where: { tenantId: sub.tenantId, subscriptionId: sub.id, status: "OPEN" }, data: { status: "VOID" } });
    await emitSubscriptionEvents(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, types: ["subscription.canceled"], at: now });
    await revertReferral(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, cause: "churn", now }); // core/referrals
    await recordCancellationEmail(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, reason: fresh.cancelReason, at: now });
    return "canceled";
  });
}

/** A Pix checkout whose QR expired unpaid: the subscription that never started is canceled. */
export async function expireCheckout(runtime: Runtime, sub: Subscription, now: Date): Promise<"canceled"> {
  await runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, sub.tenantId, sub.id);
    const fresh = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: sub.tenantId } });
    if (fresh.status !== "PENDING_FIRST_PAYMENT") return;
    await tx.subscription.update({ where: { id: sub.id }, data: { status: "CANCELED", canceledAt: now, nextBillingAt: null, cancelReason: "checkout_expired" } });
    await tx.invoice.updateMany({ where: { tenantId: sub.tenantId, subscriptionId: sub.id, status: "OPEN" }, data: { status: "VOID" } });
    await tx.payment.updateMany({
      where: { tenantId: sub.tenantId, subscriptionId: sub.id, status: "PROCESSING", method: "PIX" },
      data: { status: "FAILED", failureCode: "expired" },
    });
    await emitSubscriptionEvents(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, types: ["subscription.canceled"], at: now });
    await revertReferral(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, cause: "churn", now }); // core/referrals
  });
  return "canceled";
}
