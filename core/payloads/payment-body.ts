// The contract's payment bodies (payment row, payment detail, last_payment) built from the camelCase
// fields of the GraphQL Payment type. Pure: the REST facade's serializer and the core's webhook data
// both call these, so each snake_case shape is written once.

/** A card as the contract masks it. */
export interface CardMaskFields {
  brand: string;
  last4: string;
}

/** The Payment fields a body reads; enum values as GraphQL prints them (PAID, ONE_TIME, PIX). */
export interface PaymentFields {
  id: string;
  status: string;
  kind: string;
  method: string;
  methodKind: string;
  amountCents: number;
  paidAmountCents: number;
  currency: string;
  refundedAmountCents: number;
  refundInFlight: boolean;
  refundReason: string;
  failureCode: string;
  gatewayChargeId: string;
  provider: string;
  card: CardMaskFields | null;
  paidAt: string | null;
  reference: { type: string; id: string } | null;
  customer: { externalId: string; email: string };
}

export interface PaymentItemFields {
  id: string;
  kind: string;
  amountCents: number;
  refundedAmountCents: number;
  refunded: boolean;
}

const lower = (v: string) => v.toLowerCase();

/** Element of GET /v1/customers/{external_id}/payments. */
export function paymentRowBody(p: Omit<PaymentFields, "paidAmountCents">) {
  return {
    payment_id: p.id,
    status: lower(p.status),
    kind: lower(p.kind),
    method: lower(p.method),
    method_kind: p.methodKind,
    amount_cents: p.amountCents,
    currency: p.currency,
    refunded_amount_cents: p.refundedAmountCents,
    refund_in_flight: p.refundInFlight,
    refund_reason: p.refundReason,
    failure_code: p.failureCode,
    gateway_charge_id: p.gatewayChargeId,
    provider: p.provider,
    card: p.card ? { brand: p.card.brand, last4: p.card.last4 } : { brand: null, last4: null },
    paid_at: p.paidAt,
    reference: p.reference ? { type: p.reference.type, id: p.reference.id } : null,
    customer: { external_id: p.customer.externalId, email: p.customer.email },
  };
}

/** GET /v1/payments/{id}: the row plus its items. */
export function paymentDetailBody(p: Omit<PaymentFields, "paidAmountCents"> & { items: PaymentItemFields[] }) {
  return {
    ...paymentRowBody(p),
    items: p.items.map((i) => ({
      id: i.id,
      kind: i.kind,
      amount_cents: i.amountCents,
      refunded_amount_cents: i.refundedAmountCents,
      refunded: i.refunded,
    })),
  };
}

export type LastPaymentFields = Pick<
  PaymentFields,
  "id" | "status" | "method" | "methodKind" | "card" | "amountCents" | "paidAmountCents" | "currency" | "paidAt" | "gatewayChargeId" | "provider"
>;

/** last_payment of the subscription payload and `payment` of order event data. */
export function lastPaymentBody(p: LastPaymentFields) {
  return {
    payment_id: p.id,
    status: lower(p.status),
    method: lower(p.method),
    method_kind: p.methodKind,
    card: p.card ? { brand: p.card.brand, last4: p.card.last4 } : null,
    amount_cents: p.amountCents,
    paid_amount_cents: p.paidAmountCents,
    currency: p.currency,
    paid_at: p.paidAt,
    gateway_charge_id: p.gatewayChargeId,
    gateway_provider: p.provider,
  };
}
