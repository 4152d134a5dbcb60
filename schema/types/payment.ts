// Payment: a charge attempt of an invoice or an order, with its items; CardMask is the masked card.
import { getPayment } from "../../core/payments/get-payment.ts";
import { apiPaymentStatus, cardOf, itemRefunded, paidAmountCents, paymentReference } from "../../core/payloads/payment-payload.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { PaymentKindEnum, PaymentMethodTypeEnum, PaymentStatusEnum } from "./enums.ts";

export const CardMaskRef = builder.objectRef<{ brand: string; last4: string }>("CardMask").implement({
  description: "A card as the service keeps it: brand and last four digits, never the number.",
  fields: (t) => ({
    brand: t.exposeString("brand", { description: "Card brand (visa, mastercard, ...)." }),
    last4: t.exposeString("last4", { description: "Last four digits." }),
  }),
});

const PaymentReferenceRef = builder.objectRef<{ type: string; id: string }>("PaymentReference").implement({
  description: "What a payment pays: a subscription (its invoice) or a one-time order.",
  fields: (t) => ({
    type: t.exposeString("type", { description: "subscription or order." }),
    id: t.exposeString("id", { description: "sub_ or ord_ id." }),
  }),
});

builder.prismaObject("PaymentItem", {
  description: "A part of a payment: plan, bump, interest or proration.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "pit_ id." }),
    kind: t.exposeString("kind", { description: "plan, bump, interest or proration." }),
    amountCents: t.exposeInt("amountCents", { description: "Amount of this part in cents." }),
    refundedAmountCents: t.exposeInt("refundedAmountCents", { description: "Cents of this part refunded so far." }),
    refunded: t.boolean({ description: "True once this part is refunded in full.", resolve: (i) => itemRefunded(i) }),
  }),
});

export const PaymentRef = builder.prismaObject("Payment", {
  description: "A payment (charge attempt) of an invoice or of a one-time order.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "pay_ id." }),
    status: t.field({ type: PaymentStatusEnum, description: "Status as the API shows it.", resolve: (p) => apiPaymentStatus(p.status) }),
    kind: t.expose("kind", { type: PaymentKindEnum, description: "RECURRING (an invoice) or ONE_TIME (an order)." }),
    method: t.expose("method", { type: PaymentMethodTypeEnum, description: "CARD or PIX." }),
    methodKind: t.exposeString("methodKind", { description: "The gateway's finer method (credit_card, pix, ...)." }),
    amountCents: t.exposeInt("amountCents", { description: "Charged amount in cents." }),
    paidAmountCents: t.int({
      description: "The amount once money was taken (paid, refunded or charged back), else 0.",
      resolve: (p) => paidAmountCents(p),
    }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    refundedAmountCents: t.exposeInt("refundedAmountCents", { description: "Cents refunded so far." }),
    refundInFlight: t.exposeBoolean("refundInFlight", { description: "A refund was sent and its confirmation is pending." }),
    refundReason: t.exposeString("refundReason", { description: "Reason of the last refund (empty when none)." }),
    failureCode: t.exposeString("failureCode", { description: "The gateway's refusal code (empty unless failed)." }),
    gatewayChargeId: t.exposeString("gatewayChargeId", { description: "The charge's id at the gateway (empty before the call)." }),
    provider: t.exposeString("provider", { description: "Gateway provider that charged it (sandbox, stripe, ...)." }),
    card: t.field({ type: CardMaskRef, nullable: true, description: "The card charged; null for Pix.", resolve: (p) => cardOf(p) }),
    paidAt: t.expose("paidAt", { type: "DateTime", nullable: true, description: "When the money was taken (tenant clock)." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the attempt was created (wall clock)." }),
    reference: t.field({ type: PaymentReferenceRef, nullable: true, description: "What it pays.", resolve: (p) => paymentReference(p) }),
    invoiceId: t.exposeString("invoiceId", { nullable: true, description: "inv_ id of the invoice it pays, for subscription payments." }),
    orderId: t.exposeString("orderId", { nullable: true, description: "ord_ id of the order it pays, for one-time payments." }),
    customer: t.relation("customer", { description: "The paying customer." }),
    items: t.relation("items", { query: { orderBy: { id: "asc" } }, description: "Parts of the payment, in id order." }),
  }),
});

builder.queryFields((t) => ({
  payment: t.prismaField({
    type: "Payment",
    description: "One payment of the tenant with its items. Unknown and foreign ids are the same not_found error.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "pay_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (query, _root, args, ctx) => getPayment(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), paymentId: args.id }, query),
  }),
}));
