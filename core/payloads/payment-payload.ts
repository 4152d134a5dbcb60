// A payment row read as the GraphQL Payment fields (camelCase, API statuses), for the core's own
// bodies (webhook data); the GraphQL Payment type resolves with the same helpers. The snake_case
// shapes themselves live in payment-body.ts.
import type { Payment, PaymentItem, Prisma } from "../../generated/prisma/client.ts";
import { MONEY_TAKEN } from "../shared/status-sets.ts";
import { lastPaymentBody, type CardMaskFields, type PaymentFields } from "./payment-body.ts";

export const paymentRowInclude = {
  customer: true,
} satisfies Prisma.PaymentInclude;

export type PaymentForRow = Prisma.PaymentGetPayload<{ include: typeof paymentRowInclude }>;

/** UNKNOWN (gateway outcome not yet reconciled) reads as PROCESSING on the API. */
export function apiPaymentStatus(status: Payment["status"]): Exclude<Payment["status"], "UNKNOWN"> {
  return status === "UNKNOWN" ? "PROCESSING" : status;
}

export const cardOf = (p: Pick<Payment, "cardBrand" | "cardLast4">): CardMaskFields | null =>
  p.cardBrand && p.cardLast4 ? { brand: p.cardBrand, last4: p.cardLast4 } : null;

/** The item of a payment that holds what it took over its charge: the refund of that excess goes to it first. */
export const EXCESS_ITEM_KIND = "overpayment";

/** The money a settled payment took, as the gateway said (a row settled before it was kept: its amount). */
export const receivedCents = (p: Pick<Payment, "amountCents" | "amountReceivedCents">) => p.amountReceivedCents ?? p.amountCents;

/** What the customer actually paid: the amount received once money was taken (even if refunded later), else 0. */
export const paidAmountCents = (p: Pick<Payment, "status" | "amountCents" | "amountReceivedCents">) =>
  (MONEY_TAKEN as readonly string[]).includes(p.status) ? receivedCents(p) : 0;

export const paymentReference = (p: Pick<Payment, "subscriptionId" | "orderId">) =>
  p.subscriptionId ? { type: "subscription", id: p.subscriptionId } : p.orderId ? { type: "order", id: p.orderId } : null;

export const itemRefunded = (i: Pick<PaymentItem, "amountCents" | "refundedAmountCents">) => i.refundedAmountCents >= i.amountCents && i.amountCents > 0;

export function paymentFields(p: Payment, customer: { externalId: string; email: string } = { externalId: "", email: "" }): PaymentFields {
  return {
    id: p.id,
    status: apiPaymentStatus(p.status),
    kind: p.kind,
    method: p.method,
    methodKind: p.methodKind,
    amountCents: p.amountCents,
    paidAmountCents: paidAmountCents(p),
    currency: p.currency,
    refundedAmountCents: p.refundedAmountCents,
    refundInFlight: p.refundInFlight,
    refundReason: p.refundReason,
    failureCode: p.failureCode,
    gatewayChargeId: p.gatewayChargeId,
    provider: p.provider,
    card: cardOf(p),
    paidAt: p.paidAt ? p.paidAt.toISOString() : null,
    reference: paymentReference(p),
    customer,
  };
}

/** last_payment of subscription payloads and `payment` of order events. */
export const lastPaymentPayload = (p: Payment) => lastPaymentBody(paymentFields(p));
