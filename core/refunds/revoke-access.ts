// What a total refund (or a chargeback) takes back, inside the caller's transaction. The state
// changes happen here; the returned announcement writes their events, so the caller can write
// payment.refunded first and every event still carries the state after the change.
//   subscription: the subscription ends at once (subscription.canceled).
//   grant: the order is refunded (order.refunded); its grant is revoked, or, for an early-renewal
//          order, the time it added to the subscription is taken back (subscription.updated).
import type { Order, Payment, Subscription } from "../../generated/prisma/client.ts";
import { ORDER } from "../../prisma/status-machines.ts";
import { pixIssueAt } from "../shared/periods.ts";
import { emitEvents } from "../events/catalogue.ts";
import type { Tx } from "../shared/tx.ts";
import { endSubscription } from "../subscriptions/end-subscription.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { revertReferral } from "../referrals/revert-referral.ts";
import type { Revoke } from "./refund-rules.ts";
import { tryMoveStatus } from "../shared/transition.ts";

export type Announce = () => Promise<void>;

/** The announcement of what was revoked, or null when nothing was left to revoke. */
export async function revokeAccess(tx: Tx, input: { payment: Payment; revoke: Revoke; reason: string; now: Date }): Promise<Announce | null> {
  const { payment, now } = input;
  // Referral (core/referrals): a total refund or chargeback of the referred subscription reverts it.
  if (payment.subscriptionId) await revertReferral(tx, { tenantId: payment.tenantId, subscriptionId: payment.subscriptionId, cause: "refund", now });
  if (input.revoke === "subscription" && payment.subscriptionId) {
    await lockSubscription(tx, payment.tenantId, payment.subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: payment.subscriptionId, tenantId: payment.tenantId } });
    if (!sub) return null;
    return endSubscription(tx, sub, { cause: { kind: "now", reason: input.reason }, now });
  }
  if (input.revoke === "grant" && payment.orderId) {
    const order = await tx.order.findFirst({ where: { id: payment.orderId, tenantId: payment.tenantId } });
    // Only a paid order delivered something to take back.
    if (!order || !(await tryMoveStatus(tx, ORDER, { id: order.id, tenantId: order.tenantId, to: "REFUNDED" }))) return null;
    await tx.grant.updateMany({ where: { tenantId: order.tenantId, orderId: order.id, revokedAt: null }, data: { revokedAt: now } });
    const reverted = await revertExtension(tx, order);
    return async () => {
      await emitEvents(tx, { tenantId: order.tenantId, subject: { kind: "order", orderId: order.id }, types: ["order.refunded"], at: now });
      if (reverted) await emitSubscriptionEvents(tx, { tenantId: order.tenantId, subscriptionId: reverted.id, types: ["subscription.updated"], at: now });
    };
  }
  return null;
}

/** Takes back the seconds an early-renewal order added; the next duty moves with the period end. */
async function revertExtension(tx: Tx, order: Order): Promise<Subscription | null> {
  if (!order.targetSubscriptionId || !order.extensionSeconds) return null;
  await lockSubscription(tx, order.tenantId, order.targetSubscriptionId);
  const sub = await tx.subscription.findFirst({ where: { id: order.targetSubscriptionId, tenantId: order.tenantId } });
  if (!sub || sub.status === "CANCELED" || !sub.currentPeriodEnd) return null;
  const ms = order.extensionSeconds * 1000;
  const end = sub.currentPeriodEnd;
  const newEnd = new Date(end.getTime() - ms);
  // The period renewed since the extension: the whole current period moves back with it.
  const start = sub.currentPeriodStart && sub.currentPeriodStart >= newEnd ? new Date(sub.currentPeriodStart.getTime() - ms) : sub.currentPeriodStart;
  const due = sub.collectionMethod === "CARD_AUTO" ? end : pixIssueAt(end);
  const nextBillingAt = sub.nextBillingAt && sub.nextBillingAt.getTime() === due.getTime() ? (sub.collectionMethod === "CARD_AUTO" ? newEnd : pixIssueAt(newEnd)) : sub.nextBillingAt;
  await tx.subscription.update({ where: { id: sub.id }, data: { currentPeriodStart: start, currentPeriodEnd: newEnd, nextBillingAt } });
  return sub;
}
