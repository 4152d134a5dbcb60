// Records the gateway's verdict on one payment attempt, in one transaction: the payment, its invoice
// and the subscription move together, with their events. Settling twice is a no-op.
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { lockSubscription } from "../subscriptions/emit-subscription-events.ts";
import { newId } from "../shared/ids.ts";
import { applyInvoiceFailed, type FailureEffect } from "./apply-invoice-failed.ts";
import { applyInvoicePaid } from "./apply-invoice-paid.ts";
import { applyOrderPaid } from "../orders/apply-order-paid.ts";
import { refundSurplusPayment, SURPLUS_REFUND_REASON } from "../payments/refund-surplus-payment.ts";
import { PAYMENT, UNSETTLED } from "../payments/transitions.ts";
import { moveStatus } from "../shared/transition.ts";
import { isIn } from "../subscriptions/transitions.ts";
import { INVOICE } from "./transitions.ts";

export interface Verdict {
  outcome: "approved" | "declined";
  chargeId: string;
  detailCode: string;
}

/** surplus: approved money for an invoice already settled or voided; refunded in full right after. */
export type SettleResult = "paid" | FailureEffect | "already_settled" | "surplus";

export async function settlePayment(runtime: Runtime, input: { tenantId: string; paymentId: string; verdict: Verdict; now: Date }): Promise<SettleResult> {
  const result = await runtime.db.prisma.$transaction(async (tx): Promise<SettleResult> => {
    const found = await tx.payment.findFirst({ where: { id: input.paymentId, tenantId: input.tenantId }, select: { subscriptionId: true } });
    if (found?.subscriptionId) await lockSubscription(tx, input.tenantId, found.subscriptionId);
    const payment = await tx.payment.findFirst({ where: { id: input.paymentId, tenantId: input.tenantId } });
    if (!payment || !isIn(UNSETTLED, payment.status)) return "already_settled";
    return settleInTx(tx, payment, input.verdict, input.now);
  });
  runtime.faults?.("after-commit");
  if (result === "surplus") await refundSurplusPayment(runtime, input);
  return result;
}

async function settleInTx(
  tx: Prisma.TransactionClient,
  payment: Prisma.PaymentGetPayload<object>,
  verdict: Verdict,
  now: Date,
): Promise<SettleResult> {
  const invoice = payment.invoiceId ? await tx.invoice.findUnique({ where: { id: payment.invoiceId } }) : null;
  const subscription = payment.subscriptionId
    ? await tx.subscription.findUnique({ where: { id: payment.subscriptionId }, include: { offer: { select: { interval: true } } } })
    : null;
  // A plan change's proration heard only now (reconciliation after a crash or a lost answer): the
  // change was never applied and will not be, so the charge is surplus like a voided invoice's.
  const lateProration = invoice?.kind === "PRORATION";
  if (verdict.outcome === "approved" && invoice && (invoice.status !== "OPEN" || lateProration)) {
    if (invoice.status === "OPEN") await moveStatus(tx, INVOICE, { id: invoice.id, tenantId: invoice.tenantId, to: "VOID" });
    // Paid another way, or voided, meanwhile: the money is recorded, kept off the invoice, and refunded.
    await moveStatus(tx, PAYMENT, {
      id: payment.id,
      tenantId: payment.tenantId,
      to: "PAID",
      data: { paidAt: now, gatewayChargeId: verdict.chargeId, failureCode: "", refundInFlight: true, refundReason: SURPLUS_REFUND_REASON },
    });
    await tx.paymentItem.create({ data: { id: newId("paymentItem"), tenantId: payment.tenantId, paymentId: payment.id, kind: "plan", amountCents: payment.amountCents } });
    return "surplus";
  }
  if (verdict.outcome === "approved") {
    await moveStatus(tx, PAYMENT, {
      id: payment.id,
      tenantId: payment.tenantId,
      to: "PAID",
      // paid_invoice_id is UNIQUE: the database refuses a second successful charge of one invoice.
      data: { paidAt: now, gatewayChargeId: verdict.chargeId, paidInvoiceId: payment.invoiceId, failureCode: "" },
    });
    await tx.paymentItem.create({ data: { id: newId("paymentItem"), tenantId: payment.tenantId, paymentId: payment.id, kind: "plan", amountCents: payment.amountCents } });
    // An order payment (checkout, renewal link; card or Pix): the order, what it delivers and order.paid, in this transaction.
    if (payment.orderId) await applyOrderPaid(tx, { payment, now });
    if (!invoice || !subscription) return "paid";
    await moveStatus(tx, INVOICE, { id: invoice.id, tenantId: invoice.tenantId, to: "PAID", data: { paidAt: now } });
    await applyInvoicePaid(tx, { subscription, interval: subscription.offer.interval ?? "MONTH", invoice, paymentId: payment.id, now });
    return "paid";
  }
  await moveStatus(tx, PAYMENT, { id: payment.id, tenantId: payment.tenantId, to: "FAILED", data: { gatewayChargeId: verdict.chargeId, failureCode: verdict.detailCode || "declined" } });
  if (!invoice || !subscription || invoice.status !== "OPEN" || invoice.kind === "PRORATION") return "none";
  const updated = await tx.invoice.update({ where: { id: invoice.id }, data: { attemptCount: { increment: 1 } } });
  return applyInvoiceFailed(tx, { subscription, invoice: updated, attemptsMade: updated.attemptCount, now });
}
