// A renewal-advance order was paid (card on /pay, or its Pix QR): inside the settling transaction the
// order becomes paid, its target subscription's period is extended by one cycle (kept in
// extension_seconds so a refund can revert it), the renewal link is used up, and order.paid plus
// subscription.updated go to the outbox (service-contract §5).
import type { Payment } from "../../generated/prisma/client.ts";
import { periodEnd, pixIssueAt } from "../billing/periods.ts";
import { emitEvents } from "../events/catalogue.ts";
import type { Tx } from "../events/record-event.ts";
import { emitSubscriptionEvents, lockSubscription } from "../subscriptions/emit-subscription-events.ts";

export async function applyRenewalOrderPaid(tx: Tx, input: { payment: Payment; now: Date }): Promise<void> {
  const { payment, now } = input;
  if (!payment.orderId) return;
  const order = await tx.order.findFirst({ where: { id: payment.orderId, tenantId: payment.tenantId } });
  if (!order || order.status !== "PENDING") return;
  await tx.payment.update({ where: { id: payment.id }, data: { paidOrderId: order.id } });
  let extensionSeconds: number | null = null;
  const subId = order.targetSubscriptionId;
  if (subId) {
    await lockSubscription(tx, order.tenantId, subId);
    const sub = await tx.subscription.findFirstOrThrow({ where: { id: subId, tenantId: order.tenantId }, include: { offer: { select: { interval: true } } } });
    // A subscription canceled meanwhile keeps the money on the order (refundable) but is never resurrected.
    if (sub.status !== "CANCELED" && sub.currentPeriodEnd) {
      const from = sub.currentPeriodEnd;
      const to = periodEnd(from, sub.offer.interval ?? "MONTH", sub.anchorDay ?? from.getUTCDate());
      extensionSeconds = Math.round((to.getTime() - from.getTime()) / 1000);
      const nextBillingAt = sub.collectionMethod === "CARD_AUTO" ? to : pixIssueAt(to);
      await tx.subscription.update({
        where: { id: sub.id },
        data: { currentPeriodEnd: to, ...(sub.nextBillingAt && sub.nextBillingAt.getTime() <= from.getTime() ? { nextBillingAt } : {}) },
      });
    }
  }
  await tx.order.update({ where: { id: order.id }, data: { status: "PAID", paidAt: now, extensionSeconds } });
  await tx.link.updateMany({ where: { tenantId: order.tenantId, orderId: order.id, status: "ACTIVE" }, data: { status: "PAID", usedAt: now } });
  await emitEvents(tx, { tenantId: order.tenantId, subject: { kind: "order", orderId: order.id }, types: ["order.paid"], at: now });
  if (subId && extensionSeconds !== null) await emitSubscriptionEvents(tx, { tenantId: order.tenantId, subscriptionId: subId, types: ["subscription.updated"], at: now });
}
