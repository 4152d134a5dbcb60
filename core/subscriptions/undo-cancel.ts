// POST /v1/subscriptions/{id}/cancel/undo: the scheduled (at_period_end) cancellation is dropped
// and the subscription renews normally. A canceled subscription is never resurrected.
import type { Runtime } from "../runtime.ts";
import { pixIssueAt } from "../shared/periods.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";

export interface UndoCancelInput {
  tenantId: string;
  subscriptionId: string;
  now: Date;
}

export interface UndoCancelResult {
  ok: boolean;
  cancelAtPeriodEnd: boolean;
}

export async function undoCancel(runtime: Runtime, input: UndoCancelInput): Promise<UndoCancelResult> {
  const { tenantId, subscriptionId, now } = input;
  if (!isId("subscription", subscriptionId)) throw notFound("subscription");
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: subscriptionId, tenantId } });
    if (!sub) throw notFound("subscription");
    if (sub.status === "CANCELED") throw new AppError("nothing_scheduled", { error: "the subscription is canceled; nothing is scheduled to undo" });
    if (!sub.cancelAtPeriodEnd) throw new AppError("nothing_scheduled");
    // While a cancellation was scheduled the run waited for the period end; a Pix subscription
    // gets its renewal QR back on the usual date (3 days before the due date).
    const pixRenewal = sub.status === "ACTIVE" && sub.collectionMethod === "PIX_MANUAL" && sub.currentPeriodEnd;
    await tx.subscription.update({
      where: { id: sub.id },
      data: { cancelAtPeriodEnd: false, cancelReason: null, ...(pixRenewal ? { nextBillingAt: pixIssueAt(sub.currentPeriodEnd!) } : {}) },
    });
    await emitSubscriptionEvents(tx, { tenantId, subscriptionId, types: ["subscription.updated"], at: now });
    return { ok: true, cancelAtPeriodEnd: false };
  });
}
