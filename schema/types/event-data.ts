// The data of an event, typed: the stored snake_case JSON (as sent in the webhook) read back as one of
// the contract's three data shapes. The fields keep the names of the live types (Subscription, Order).
import type { OrderEventFields } from "../../core/payloads/order-body.ts";
import type { LastPaymentFields } from "../../core/payloads/payment-body.ts";
import type { ReferralEventFields, ReferralPartyFields } from "../../core/payloads/referral-body.ts";
import type { SubscriptionFields } from "../../core/payloads/subscription-body.ts";
import { trackingFields } from "../../core/payloads/subscription-payload.ts";
import { builder } from "../builder.ts";
import {
  BillingIntervalEnum,
  CollectionMethodEnum,
  OrderStatusEnum,
  PaymentMethodTypeEnum,
  PaymentStatusEnum,
  ReferralStatusEnum,
  SubscriptionStatusEnum,
} from "./enums.ts";
import { CardMaskRef } from "./payment.ts";
import { PendingOfferRef, TrackingRef } from "./subscription.ts";

type Json = Record<string, unknown>;
type MigrationLink = { url: string; offerId: string; expiresAt: string };
type SubscriptionData = SubscriptionFields & { kind: "subscription"; migrationLink: MigrationLink | null };
type OrderData = OrderEventFields & { kind: "order" };
type ReferralData = ReferralEventFields & { kind: "referral" };

const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const str = (j: Json, k: string) => (typeof j[k] === "string" ? (j[k] as string) : null);
const upper = (j: Json, k: string) => (str(j, k) ?? "").toUpperCase();
const customerOf = (j: Json) => ({ id: str(j, "id") ?? "", email: str(j, "email") ?? "", externalId: str(j, "external_id") ?? "" });

function paymentOf(v: unknown): LastPaymentFields | null {
  const p = obj(v);
  if (!p) return null;
  const card = obj(p.card);
  return {
    id: str(p, "payment_id") ?? "",
    status: upper(p, "status"),
    method: upper(p, "method"),
    methodKind: str(p, "method_kind") ?? "",
    card: card ? { brand: str(card, "brand") ?? "", last4: str(card, "last4") ?? "" } : null,
    amountCents: Number(p.amount_cents ?? 0),
    paidAmountCents: Number(p.paid_amount_cents ?? 0),
    currency: str(p, "currency") ?? "",
    paidAt: str(p, "paid_at"),
    gatewayChargeId: str(p, "gateway_charge_id") ?? "",
    provider: str(p, "gateway_provider") ?? "",
  };
}

function subscriptionData(d: Json): SubscriptionData {
  const pm = obj(d.payment_method);
  const po = obj(d.pending_offer);
  const link = obj(d.migration_link);
  return {
    kind: "subscription",
    id: str(d, "subscription_id") ?? "",
    status: upper(d, "status"),
    customer: customerOf(obj(d.customer) ?? {}),
    planId: str(d, "plan_id") ?? "",
    planName: str(d, "plan_name") ?? "",
    interval: upper(d, "interval"),
    currentPeriodEnd: str(d, "current_period_end"),
    cancelAtPeriodEnd: d.cancel_at_period_end === true,
    collectionMethod: upper(d, "collection_method"),
    paymentMethod: pm ? { brand: str(pm, "brand") ?? "", last4: str(pm, "last4") ?? "" } : null,
    nextChargeAmountCents: Number(d.next_charge_amount_cents ?? 0),
    currency: str(d, "currency") ?? "",
    pendingOffer: po
      ? {
          offerId: str(po, "offer_id") ?? "",
          planId: str(po, "plan_id") ?? "",
          planName: str(po, "plan_name") ?? "",
          interval: upper(po, "interval"),
          amountCents: Number(po.amount_cents ?? 0),
          effectiveAt: str(po, "effective_at"),
        }
      : null,
    entitlements: d.entitlements ?? {},
    lastPayment: paymentOf(d.last_payment),
    tracking: trackingFields(obj(d.tracking) as never),
    migrationLink: link ? { url: str(link, "url") ?? "", offerId: str(link, "offer_id") ?? "", expiresAt: str(link, "expires_at") ?? "" } : null,
  };
}

function orderData(d: Json): OrderData {
  return {
    kind: "order",
    orderId: str(d, "order_id") ?? "",
    status: upper(d, "status"),
    customer: customerOf(obj(d.customer) ?? {}),
    planId: str(d, "plan_id") ?? "",
    planName: str(d, "plan_name") ?? "",
    quantity: Number(d.quantity ?? 0),
    amountCents: Number(d.amount_cents ?? 0),
    unitAmountCents: Number(d.unit_amount_cents ?? 0),
    currency: str(d, "currency") ?? "",
    paidAt: str(d, "paid_at"),
    targetSubscriptionId: str(d, "target_subscription_id"),
    entitlements: d.entitlements ?? {},
    grantDays: Number(d.grant_days ?? 0),
    payment: paymentOf(d.payment),
    tracking: trackingFields(obj(d.tracking) as never),
  };
}

function referralData(d: Json): ReferralData {
  const party = (v: unknown): ReferralPartyFields => {
    const p = obj(v) ?? {};
    return { id: str(p, "id") ?? "", email: str(p, "email") ?? "", name: str(p, "name") ?? "" };
  };
  const r = obj(d.reward) ?? {};
  return {
    kind: "referral",
    referralId: str(d, "referral_id") ?? "",
    status: upper(d, "status"),
    referrer: party(d.referrer),
    referred: party(d.referred),
    reward: { kind: str(r, "kind"), value: typeof r.value === "number" ? r.value : null, cycles: typeof r.cycles === "number" ? r.cycles : null },
  };
}

/** The data shape of a stored event: by its type, and for payment.refunded by what was refunded. */
export function eventDataOf(type: string, data: unknown): SubscriptionData | OrderData | ReferralData {
  const d = obj(data) ?? {};
  if (type.startsWith("referral.")) return referralData(d);
  if (type.startsWith("order.") || (type === "payment.refunded" && "order_id" in d)) return orderData(d);
  return subscriptionData(d);
}

const EventCustomerRef = builder.objectRef<{ id: string; email: string; externalId: string }>("EventCustomer").implement({
  description: "The customer as the event data names it.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "cus_ id." }),
    email: t.exposeString("email", { description: "E-mail at the time of the event." }),
    externalId: t.exposeString("externalId", { description: "The tenant's key for the customer." }),
  }),
});

const EventPaymentRef = builder.objectRef<LastPaymentFields>("EventPayment").implement({
  description: "A payment as the event data shows it (the subscription's last payment, or the order's payment).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "pay_ id." }),
    status: t.field({ type: PaymentStatusEnum, description: "Status at the time of the event.", resolve: (p) => p.status as never }),
    method: t.field({ type: PaymentMethodTypeEnum, description: "CARD or PIX.", resolve: (p) => p.method as never }),
    methodKind: t.exposeString("methodKind", { description: "The gateway's finer method." }),
    card: t.field({ type: CardMaskRef, nullable: true, description: "The card charged; null for Pix.", resolve: (p) => p.card }),
    amountCents: t.exposeInt("amountCents", { description: "Charged amount in cents." }),
    paidAmountCents: t.exposeInt("paidAmountCents", { description: "The amount once money was taken, else 0." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    paidAt: t.field({ type: "DateTime", nullable: true, description: "When the money was taken.", resolve: (p) => p.paidAt }),
    gatewayChargeId: t.exposeString("gatewayChargeId", { description: "The charge's id at the gateway." }),
    provider: t.exposeString("provider", { description: "Gateway provider." }),
  }),
});

const MigrationLinkRef = builder.objectRef<MigrationLink>("MigrationLink").implement({
  description: "Where the customer pays to move to an offer on another gateway (subscription.migration_link_issued).",
  fields: (t) => ({
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    offerId: t.exposeString("offerId", { description: "offer_ id the subscription moves to when paid." }),
    expiresAt: t.field({ type: "DateTime", description: "When the link stops working.", resolve: (l) => l.expiresAt }),
  }),
});

const SubscriptionEventDataRef = builder.objectRef<SubscriptionData>("SubscriptionEventData").implement({
  description: "Data of subscription.* and invoice.* events (and payment.refunded of a subscription payment): the subscription payload as it stood after the change.",
  isTypeOf: (v) => (v as { kind?: string }).kind === "subscription",
  fields: (t) => ({
    id: t.exposeString("id", { description: "sub_ id." }),
    status: t.field({ type: SubscriptionStatusEnum, description: "Status after the change.", resolve: (s) => s.status as never }),
    customer: t.field({ type: EventCustomerRef, description: "The subscriber.", resolve: (s) => s.customer }),
    planId: t.exposeString("planId", { description: "plan_ id." }),
    planName: t.exposeString("planName", { description: "Plan display name." }),
    interval: t.field({ type: BillingIntervalEnum, description: "Cycle length.", resolve: (s) => s.interval as never }),
    currentPeriodEnd: t.field({ type: "DateTime", nullable: true, description: "End of the paid period.", resolve: (s) => s.currentPeriodEnd }),
    cancelAtPeriodEnd: t.exposeBoolean("cancelAtPeriodEnd", { description: "Cancellation scheduled for the period end." }),
    collectionMethod: t.field({ type: CollectionMethodEnum, description: "How renewals are collected.", resolve: (s) => s.collectionMethod as never }),
    paymentMethod: t.field({ type: CardMaskRef, nullable: true, description: "The card renewals charge.", resolve: (s) => s.paymentMethod }),
    nextChargeAmountCents: t.exposeInt("nextChargeAmountCents", { description: "Amount of the next renewal in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    pendingOffer: t.field({ type: PendingOfferRef, nullable: true, description: "Scheduled plan change.", resolve: (s) => s.pendingOffer }),
    entitlements: t.field({ type: "JSON", description: "The plan's entitlements at the time.", resolve: (s) => s.entitlements }),
    lastPayment: t.field({ type: EventPaymentRef, nullable: true, description: "The latest payment (the refunded one for payment.refunded).", resolve: (s) => s.lastPayment }),
    tracking: t.field({ type: TrackingRef, nullable: true, description: "Attribution of the checkout link.", resolve: (s) => s.tracking }),
    migrationLink: t.field({ type: MigrationLinkRef, nullable: true, description: "Only in subscription.migration_link_issued.", resolve: (s) => s.migrationLink }),
  }),
});

const OrderEventDataRef = builder.objectRef<OrderData>("OrderEventData").implement({
  description: "Data of order.* events (and payment.refunded of an order payment). Entitlements and grant days are raw, never times quantity.",
  isTypeOf: (v) => (v as { kind?: string }).kind === "order",
  fields: (t) => ({
    orderId: t.exposeString("orderId", { description: "ord_ id." }),
    status: t.field({ type: OrderStatusEnum, description: "Status after the change.", resolve: (o) => o.status as never }),
    customer: t.field({ type: EventCustomerRef, description: "The buyer.", resolve: (o) => o.customer }),
    planId: t.exposeString("planId", { description: "plan_ id." }),
    planName: t.exposeString("planName", { description: "Plan display name." }),
    quantity: t.exposeInt("quantity", { description: "Units bought." }),
    amountCents: t.exposeInt("amountCents", { description: "Total in cents." }),
    unitAmountCents: t.exposeInt("unitAmountCents", { description: "Price of one unit in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    paidAt: t.field({ type: "DateTime", nullable: true, description: "When it was paid.", resolve: (o) => o.paidAt }),
    targetSubscriptionId: t.exposeString("targetSubscriptionId", { nullable: true, description: "The subscription a renewal order extends." }),
    entitlements: t.field({ type: "JSON", description: "The plan's entitlements (raw).", resolve: (o) => o.entitlements }),
    grantDays: t.exposeInt("grantDays", { description: "Days of access per the offer (raw)." }),
    payment: t.field({ type: EventPaymentRef, nullable: true, description: "The payment that settled it (latest attempt while none has).", resolve: (o) => o.payment }),
    tracking: t.field({ type: TrackingRef, nullable: true, description: "Attribution of the checkout link.", resolve: (o) => o.tracking }),
  }),
});

const ReferralPartyRef = builder.objectRef<ReferralPartyFields>("ReferralParty").implement({
  description: "A customer on one side of a referral.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "cus_ id." }),
    email: t.exposeString("email", { description: "E-mail." }),
    name: t.exposeString("name", { description: "Full name." }),
  }),
});

const ReferralRewardRef = builder.objectRef<ReferralEventFields["reward"]>("ReferralReward").implement({
  description: "The reward of a referral, as snapshotted when it was created.",
  fields: (t) => ({
    kind: t.exposeString("kind", { nullable: true, description: "percent_next." }),
    value: t.exposeInt("value", { nullable: true, description: "Percent off each discounted renewal." }),
    cycles: t.exposeInt("cycles", { nullable: true, description: "Renewals of the referrer discounted." }),
  }),
});

const ReferralEventDataRef = builder.objectRef<ReferralData>("ReferralEventData").implement({
  description: "Data of referral.* events.",
  isTypeOf: (v) => (v as { kind?: string }).kind === "referral",
  fields: (t) => ({
    referralId: t.exposeString("referralId", { description: "rfr_ id." }),
    status: t.field({ type: ReferralStatusEnum, description: "Status after the change.", resolve: (r) => r.status as never }),
    referrer: t.field({ type: ReferralPartyRef, description: "The customer who referred.", resolve: (r) => r.referrer }),
    referred: t.field({ type: ReferralPartyRef, description: "The customer referred.", resolve: (r) => r.referred }),
    reward: t.field({ type: ReferralRewardRef, description: "The referral's reward.", resolve: (r) => r.reward }),
  }),
});

export const EventDataRef = builder.unionType("EventData", {
  description: "The data of an event: one of the contract's three data shapes.",
  types: [SubscriptionEventDataRef, OrderEventDataRef, ReferralEventDataRef],
  resolveType: (v) => (v.kind === "subscription" ? "SubscriptionEventData" : v.kind === "order" ? "OrderEventData" : "ReferralEventData"),
});
