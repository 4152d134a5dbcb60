// POST /v1/subscriptions/{id}/cancel: immediate (default) or at the end of the period.
// Immediate: canceled (terminal) with subscription.canceled and the cancellation e-mail
// (end-subscription.ts); refused while a payable Pix QR is open. At period end: cancel_at_period_end
// with subscription.updated; the billing run ends the subscription at the period end.
import type { Subscription } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "../shared/tx.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { isIn, LIVING } from "../shared/status-sets.ts";
import { endSubscription } from "./end-subscription.ts";
import { moveRefused } from "../shared/transition.ts";

export const CANCEL_REASON_MAX = 300;

export interface CancelSubscriptionInput {
  tenantId: string;
  subscriptionId: string;
  reason: string | null;
  atPeriodEnd: boolean;
  now: Date;
}

/** What the cancellation did; the transports render it (GraphQL fields, the /v1 body). */
export interface CancelSubscriptionResult {
  status: Subscription["status"];
  ok: boolean;
  cancelAtPeriodEnd: boolean;
  /** Until when access continues, when scheduled. */
  currentPeriodEnd: Date | null;
}

const CANCELED: CancelSubscriptionResult = { status: "CANCELED", ok: true, cancelAtPeriodEnd: false, currentPeriodEnd: null };

export async function cancelSubscription(runtime: Runtime, input: CancelSubscriptionInput): Promise<CancelSubscriptionResult> {
  const { tenantId, subscriptionId, now } = input;
  if (!isId("subscription", subscriptionId)) throw notFound("subscription");
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  if (reason && Array.from(reason).length > CANCEL_REASON_MAX) throw new AppError("reason_too_long");
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: subscriptionId, tenantId } });
    if (!sub) throw notFound("subscription");
    // Idempotent: a canceled subscription answers the same shape, and nothing new happens.
    if (sub.status === "CANCELED") return CANCELED;
    // A trial without card has no next charge and so no period end: it ends at once.
    const trialWithoutCard = sub.status === "TRIALING" && (!sub.paymentMethodId || sub.collectionMethod === "PIX_MANUAL");
    if (!input.atPeriodEnd || trialWithoutCard) return cancelNow(tx, sub, reason, now);
    return scheduleCancel(tx, sub, reason, now);
  });
}

async function cancelNow(tx: Tx, sub: Subscription, reason: string | null, now: Date): Promise<CancelSubscriptionResult> {
  const payablePix = await tx.payment.findFirst({
    where: { tenantId: sub.tenantId, subscriptionId: sub.id, method: "PIX", status: "PROCESSING", pixCopyPaste: { not: null }, pixExpiresAt: { gt: now } },
    select: { id: true },
  });
  if (payablePix) throw new AppError("pix_payable");
  const announce = await endSubscription(tx, sub, { cause: { kind: "now", reason }, now });
  if (!announce) throw moveRefused("subscription", "CANCELED", sub.status);
  await announce();
  return CANCELED;
}

async function scheduleCancel(tx: Tx, sub: Subscription, reason: string | null, now: Date): Promise<CancelSubscriptionResult> {
  if (!isIn(LIVING, sub.status)) {
    throw new AppError("cancel_not_allowed", { error: `a ${sub.status.toLowerCase()} subscription cannot be scheduled for cancellation`, extra: { status: sub.status.toLowerCase() } });
  }
  if (!sub.cancelAtPeriodEnd) {
    await tx.subscription.update({ where: { id: sub.id }, data: { cancelAtPeriodEnd: true, cancelReason: reason } });
    await emitSubscriptionEvents(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, types: ["subscription.updated"], at: now });
  } else if (reason) {
    // Already scheduled: the newest reason is the one the e-mail will carry; no new event.
    await tx.subscription.update({ where: { id: sub.id }, data: { cancelReason: reason } });
  }
  return { status: sub.status, ok: true, cancelAtPeriodEnd: true, currentPeriodEnd: accessUntil(sub) };
}

/** When the scheduled cancellation takes effect: the trial end, the period end, or (past_due) the next duty. */
function accessUntil(sub: Subscription): Date | null {
  if (sub.status === "TRIALING") return sub.trialEndsAt;
  if (sub.status === "PAST_DUE") return sub.nextBillingAt ?? sub.currentPeriodEnd;
  return sub.currentPeriodEnd;
}
