// An order was paid (checkout card, its Pix QR, a renewal link): inside the settling transaction the
// order becomes paid and delivers what it sold, then order.paid goes to the outbox.
// - An early-renewal order (target_subscription_id) extends that subscription by `quantity` cycles,
//   kept in extension_seconds so a refund can revert it (service-contract §5); subscription.updated.
//   A renewal-campaign order (campaign_id) also adds the campaign's bonus (bonus_cycles of
//   bonus_unit), inside the same extension_seconds, so a total refund reverts cycle and bonus.
// - Any other order with grant_days opens a grant of its own period: grant_days from payment, for
//   `quantity` units (never grant_days × quantity; the event data carries both raw).
import type { Order, Payment } from "../../generated/prisma/client.ts";
import { LINK, ORDER } from "../../prisma/status-machines.ts";
import { pixIssueAt, renewedPeriodEnd } from "../shared/periods.ts";
import { emitEvents } from "../events/catalogue.ts";
import type { Tx } from "../shared/tx.ts";
import { newId } from "../shared/ids.ts";
import { moveStatus, moveStatuses } from "../shared/transition.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";

const DAY_MS = 86_400_000;

export async function applyOrderPaid(tx: Tx, input: { payment: Pick<Payment, "id" | "tenantId" | "orderId">; now: Date }): Promise<void> {
  const { payment, now } = input;
  if (!payment.orderId) return;
  const order = await tx.order.findFirst({ where: { id: payment.orderId, tenantId: payment.tenantId } });
  if (!order || order.status !== "PENDING") return;
  // paid_order_id is UNIQUE: the database refuses a second successful payment of one order.
  await tx.payment.update({ where: { id: payment.id }, data: { paidOrderId: order.id } });
  const extensionSeconds = order.targetSubscriptionId ? await extendTarget(tx, order) : null;
  if (!order.targetSubscriptionId) await openGrant(tx, order, now);
  await moveStatus(tx, ORDER, { id: order.id, tenantId: order.tenantId, to: "PAID", data: { paidAt: now, extensionSeconds } });
  await moveStatuses(tx, LINK, { tenantId: order.tenantId, where: { orderId: order.id }, to: "PAID", data: { usedAt: now } });
  await emitEvents(tx, { tenantId: order.tenantId, subject: { kind: "order", orderId: order.id }, types: ["order.paid"], at: now });
  if (order.targetSubscriptionId && extensionSeconds !== null) {
    await emitSubscriptionEvents(tx, { tenantId: order.tenantId, subscriptionId: order.targetSubscriptionId, types: ["subscription.updated"], at: now });
  }
}

/** Seconds added to the target's period, or null when it could not be extended (canceled meanwhile). */
async function extendTarget(tx: Tx, order: Order): Promise<number | null> {
  const subId = order.targetSubscriptionId!;
  await lockSubscription(tx, order.tenantId, subId);
  const sub = await tx.subscription.findFirstOrThrow({ where: { id: subId, tenantId: order.tenantId }, include: { offer: { select: { interval: true } } } });
  // A subscription canceled meanwhile keeps the money on the order (refundable) but is never resurrected.
  if (sub.status === "CANCELED" || !sub.currentPeriodEnd) return null;
  const from = sub.currentPeriodEnd;
  const anchor = sub.anchorDay ?? from.getUTCDate();
  const campaign = order.campaignId
    ? await tx.renewalCampaign.findFirst({ where: { id: order.campaignId, tenantId: order.tenantId }, select: { bonusCycles: true, bonusUnit: true } })
    : null;
  const to = renewedPeriodEnd(from, sub.offer.interval ?? "MONTH", anchor, order.quantity, campaign ? { cycles: campaign.bonusCycles, unit: campaign.bonusUnit } : null);
  const nextBillingAt = sub.collectionMethod === "CARD_AUTO" ? to : pixIssueAt(to);
  await tx.subscription.update({
    where: { id: sub.id },
    data: { currentPeriodEnd: to, ...(sub.nextBillingAt && sub.nextBillingAt.getTime() <= from.getTime() ? { nextBillingAt } : {}) },
  });
  return Math.round((to.getTime() - from.getTime()) / 1000);
}

async function openGrant(tx: Tx, order: Order, now: Date): Promise<void> {
  const offer = await tx.offer.findFirstOrThrow({ where: { id: order.offerId, tenantId: order.tenantId }, select: { grantDays: true } });
  if (!offer.grantDays || offer.grantDays <= 0) return;
  await tx.grant.create({
    data: {
      id: newId("grant"),
      tenantId: order.tenantId,
      orderId: order.id,
      customerId: order.customerId,
      planId: order.planId,
      quantity: order.quantity,
      startsAt: now,
      endsAt: new Date(now.getTime() + offer.grantDays * DAY_MS),
    },
  });
}
