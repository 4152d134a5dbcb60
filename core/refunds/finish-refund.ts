// Last step of a refund: the gateway's answer is recorded in one transaction. Refunded: the money
// moves onto the payment and its items, what the refund revokes is taken back, and payment.refunded
// (then subscription.canceled / order.refunded) go to the outbox. Declined: the refund is FAILED and
// the payment is as it was. No answer: the refund stays PENDING for the reconcile job.
import type { PaymentItem } from "../../generated/prisma/client.ts";
import { ORDER, PAYMENT, REFUND } from "../../prisma/status-machines.ts";
import type { RefundResult } from "../gateways/adapter.ts";
import { emitEvents } from "../events/catalogue.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "../shared/tx.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { revokeAccess } from "./revoke-access.ts";
import type { Revoke } from "./refund-rules.ts";
import { EXCESS_ITEM_KIND, receivedCents } from "../payloads/payment-payload.ts";
import { moveStatus, tryMoveStatus } from "../shared/transition.ts";

export type RefundState = "succeeded" | "failed" | "pending";

/** `record`: written first in the same transaction (an inbound gateway notice's row: a replay aborts it all). */
export async function finishRefund(
  runtime: Runtime,
  input: { tenantId: string; refundId: string; result: RefundResult | null; now: Date; record?: (tx: Tx) => Promise<void> },
): Promise<RefundState> {
  const { tenantId, result, now } = input;
  if (!result) return "pending";
  return runtime.db.prisma.$transaction(async (tx): Promise<RefundState> => {
    await input.record?.(tx);
    const head = await tx.refund.findFirstOrThrow({ where: { id: input.refundId, tenantId }, select: { paymentId: true } });
    // The subscription first (the order every subscription action locks in): payment.refunded carries
    // its payload, which must not be read while another action is changing it, and a revoking refund
    // cancels it. Then the payment.
    const subscriptionId = await subscriptionOf(tx, tenantId, head.paymentId);
    if (subscriptionId) await lockSubscription(tx, tenantId, subscriptionId);
    await tx.$queryRaw`SELECT id FROM payments WHERE id = ${head.paymentId} AND tenant_id = ${tenantId} FOR UPDATE`;
    const refund = await tx.refund.findFirstOrThrow({ where: { id: input.refundId, tenantId } });
    // Finished by someone else (the request and the reconcile job may race): nothing more to do.
    if (refund.status !== "PENDING") return refund.status === "SUCCEEDED" ? "succeeded" : "failed";
    const payment = await tx.payment.findFirstOrThrow({ where: { id: refund.paymentId, tenantId }, include: { items: { orderBy: { id: "asc" } } } });
    if (result.outcome !== "refunded") {
      await moveStatus(tx, REFUND, { id: refund.id, tenantId, to: "FAILED", data: { failureCode: result.detailCode || "declined", gatewayRefundId: result.refundId, leaseUntil: null } });
      await tx.payment.update({ where: { id: payment.id }, data: { refundInFlight: false } });
      return "failed";
    }
    const refunded = payment.refundedAmountCents + refund.amountCents;
    // A chargeback filed meanwhile already took the access back and owns the status.
    const completes = refunded === receivedCents(payment) && payment.status === "PAID";
    await moveStatus(tx, REFUND, { id: refund.id, tenantId, to: "SUCCEEDED", data: { gatewayRefundId: result.refundId, leaseUntil: null } });
    const money = { refundedAmountCents: refunded, refundInFlight: false, refundReason: refund.reason };
    // The status moves only when the refund completes; a partial refund writes the money alone.
    if (completes) await moveStatus(tx, PAYMENT, { id: payment.id, tenantId, to: "REFUNDED", data: money });
    else await tx.payment.update({ where: { id: payment.id }, data: money });
    const updated = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
    for (const item of allocate(payment.items, refund.amountCents)) {
      await tx.paymentItem.update({ where: { id: item.id }, data: { refundedAmountCents: item.refundedAmountCents } });
    }
    const announce = completes ? await revokeAccess(tx, { payment: updated, revoke: refund.revoke as Revoke, reason: refund.reason, now }) : null;
    // A fully refunded order reads refunded even as a courtesy (grant kept); only revoking announces order.refunded.
    if (completes && payment.orderId) await tryMoveStatus(tx, ORDER, { id: payment.orderId, tenantId, to: "REFUNDED" });
    await emitEvents(tx, { tenantId, subject: { kind: "refund", refundId: refund.id }, types: ["payment.refunded"], at: now });
    if (announce) await announce();
    return "succeeded";
  });
}

/** The subscription a payment's refund touches: its own, or the one an early-renewal order extended. */
async function subscriptionOf(tx: Tx, tenantId: string, paymentId: string): Promise<string | null> {
  const payment = await tx.payment.findFirstOrThrow({ where: { id: paymentId, tenantId }, select: { subscriptionId: true, orderId: true } });
  if (payment.subscriptionId) return payment.subscriptionId;
  if (!payment.orderId) return null;
  const order = await tx.order.findFirst({ where: { id: payment.orderId, tenantId }, select: { targetSubscriptionId: true } });
  return order?.targetSubscriptionId ?? null;
}

/** Spreads a refunded amount over the payment's items in their order (an excess taken over the charge first); each item up to its amount. */
export function allocate(items: PaymentItem[], amountCents: number): PaymentItem[] {
  let left = amountCents;
  const changed: PaymentItem[] = [];
  const ordered = [...items.filter((i) => i.kind === EXCESS_ITEM_KIND), ...items.filter((i) => i.kind !== EXCESS_ITEM_KIND)];
  for (const item of ordered) {
    if (left === 0) break;
    const take = Math.min(left, item.amountCents - item.refundedAmountCents);
    if (take <= 0) continue;
    changed.push({ ...item, refundedAmountCents: item.refundedAmountCents + take });
    left -= take;
  }
  return changed;
}
