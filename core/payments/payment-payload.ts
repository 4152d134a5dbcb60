// Payment shapes of the contract: the payment row, the payment detail (with items) and last_payment.
import type { Payment, PaymentItem, Prisma } from "../../generated/prisma/client.ts";
import { MONEY_TAKEN } from "./transitions.ts";

export const paymentRowInclude = {
  customer: { select: { externalId: true, email: true } },
} satisfies Prisma.PaymentInclude;

export type PaymentForRow = Prisma.PaymentGetPayload<{ include: typeof paymentRowInclude }>;

/** UNKNOWN (gateway outcome not yet reconciled) reads as processing on the API. */
export function apiPaymentStatus(status: Payment["status"]): string {
  return status === "UNKNOWN" ? "processing" : status.toLowerCase();
}

const card = (p: Payment) => (p.cardBrand && p.cardLast4 ? { brand: p.cardBrand, last4: p.cardLast4 } : null);

export function paymentRow(p: PaymentForRow) {
  return {
    payment_id: p.id,
    status: apiPaymentStatus(p.status),
    kind: p.kind.toLowerCase(),
    method: p.method.toLowerCase(),
    method_kind: p.methodKind,
    amount_cents: p.amountCents,
    currency: p.currency,
    refunded_amount_cents: p.refundedAmountCents,
    refund_in_flight: p.refundInFlight,
    refund_reason: p.refundReason,
    failure_code: p.failureCode,
    gateway_charge_id: p.gatewayChargeId,
    provider: p.provider,
    card: card(p) ?? { brand: null, last4: null },
    paid_at: p.paidAt ? p.paidAt.toISOString() : null,
    reference: p.subscriptionId
      ? { type: "subscription", id: p.subscriptionId }
      : p.orderId
        ? { type: "order", id: p.orderId }
        : null,
    customer: { external_id: p.customer.externalId, email: p.customer.email },
  };
}

export function paymentDetail(p: PaymentForRow & { items: PaymentItem[] }) {
  return {
    ...paymentRow(p),
    items: p.items.map((i) => ({
      id: i.id,
      kind: i.kind,
      amount_cents: i.amountCents,
      refunded_amount_cents: i.refundedAmountCents,
      refunded: i.refundedAmountCents >= i.amountCents && i.amountCents > 0,
    })),
  };
}

/** last_payment of subscription payloads and `payment` of order events. */
export function lastPaymentPayload(p: Payment) {
  return {
    payment_id: p.id,
    status: apiPaymentStatus(p.status),
    method: p.method.toLowerCase(),
    method_kind: p.methodKind,
    card: card(p),
    amount_cents: p.amountCents,
    paid_amount_cents: (MONEY_TAKEN as readonly string[]).includes(p.status) ? p.amountCents : 0,
    currency: p.currency,
    paid_at: p.paidAt ? p.paidAt.toISOString() : null,
    gateway_charge_id: p.gatewayChargeId,
    gateway_provider: p.provider,
  };
}
