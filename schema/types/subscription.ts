// Subscription: a customer's subscription to an offer, with everything the contract's subscription
// payload shows (typed), its invoices and payments (keyset connections) and its gateway events.
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { Page } from "../../core/shared/pagination.ts";
import { getSubscription } from "../../core/subscriptions/get-subscription.ts";
import { listSubscriptions } from "../../core/subscriptions/list-subscriptions.ts";
import { listSubscriptionGatewayEvents } from "../../core/subscriptions/list-subscription-gateway-events.ts";
import { pendingOfferFields, subscriptionCard, subscriptionNextCharge, subscriptionPayloadInclude, trackingFields, type SubscriptionForPayload } from "../../core/payloads/subscription-payload.ts";
import type { PendingOfferFields, TrackingFields } from "../../core/payloads/subscription-body.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { BillingIntervalEnum, CollectionMethodEnum, SubscriptionStatusEnum } from "./enums.ts";
import { GatewayEventRef } from "./gateway-event.ts";
import { CardMaskRef, PaymentRef } from "./payment.ts";
// A cycle (customer.ts lists subscriptions): read only inside the fields thunk, when the schema is built.
import { CustomerRef } from "./customer.ts";
import { InvoiceRef } from "./invoice.ts";
import { forwardOnly, keysetConnection, pageToConnection } from "./page.ts";

export const PendingOfferRef = builder.objectRef<PendingOfferFields>("PendingOffer").implement({
  description: "A plan change scheduled for a later date (downgrade, interval change): the offer the next cycle moves to.",
  fields: (t) => ({
    offerId: t.exposeString("offerId", { description: "offer_ id the subscription moves to." }),
    planId: t.exposeString("planId", { description: "plan_ id of that offer." }),
    planName: t.exposeString("planName", { description: "Display name of that plan." }),
    interval: t.field({ type: BillingIntervalEnum, description: "Cycle length of that offer.", resolve: (p) => p.interval as "MONTH" | "YEAR" }),
    amountCents: t.exposeInt("amountCents", { description: "Price of a cycle of that offer, in cents (before coupons)." }),
    effectiveAt: t.field({ type: "DateTime", nullable: true, description: "When the change applies (the period end unless rescheduled).", resolve: (p) => p.effectiveAt }),
  }),
});

export const TrackingRef = builder.objectRef<TrackingFields>("Tracking").implement({
  description: "Attribution of the checkout link (UTM parameters, click ids). Never personal data, the client IP or the user agent.",
  fields: (t) => ({
    utmSource: t.exposeString("utmSource", { nullable: true, description: "utm_source of the link." }),
    utmMedium: t.exposeString("utmMedium", { nullable: true, description: "utm_medium of the link." }),
    utmCampaign: t.exposeString("utmCampaign", { nullable: true, description: "utm_campaign of the link." }),
    utmTerm: t.exposeString("utmTerm", { nullable: true, description: "utm_term of the link." }),
    utmContent: t.exposeString("utmContent", { nullable: true, description: "utm_content of the link." }),
    gclid: t.exposeString("gclid", { nullable: true, description: "Google Ads click id." }),
    fbclid: t.exposeString("fbclid", { nullable: true, description: "Meta click id." }),
    fbc: t.exposeString("fbc", { nullable: true, description: "Meta _fbc cookie." }),
    fbp: t.exposeString("fbp", { nullable: true, description: "Meta _fbp cookie." }),
    referrer: t.exposeString("referrer", { nullable: true, description: "Referring page, personal data removed." }),
    landingUrl: t.exposeString("landingUrl", { nullable: true, description: "The checkout address the customer landed on, personal data removed." }),
    params: t.field({ type: "JSON", description: "The link's other parameters (a map of strings; no personal data).", resolve: (r) => r.params ?? {} }),
    capturedAt: t.field({ type: "DateTime", nullable: true, description: "When the attribution was captured.", resolve: (r) => r.capturedAt }),
    inherited: t.exposeBoolean("inherited", { nullable: true, description: "True when inherited from the subscription on a renewal or upgrade." }),
  }),
});

// The payload's include (core/payloads/subscription-payload.ts) is loaded with every subscription
// row (a type-level include, planned into whatever query loads the rows): the payload fields below, the
// customer included, read it off the row. As per-field selections and a relation, each of them went
// through the plugin's loader mapping once per row, a large share of a long page's CPU.
export const SubscriptionRef = builder.prismaObject("Subscription", {
  description: "A customer's subscription to an offer: the contract's subscription payload, typed.",
  include: subscriptionPayloadInclude,
  fields: (t) => ({
    id: t.exposeID("id", { description: "sub_ id." }),
    status: t.expose("status", { type: SubscriptionStatusEnum, description: "Current status; the only source of truth about access." }),
    customer: t.field({ type: CustomerRef, description: "The subscriber.", resolve: (s) => s.customer }),
    plan: t.relation("plan", { description: "The current plan." }),
    planId: t.exposeString("planId", { description: "Current plan_ id." }),
    planName: t.string({ description: "Display name of the current plan.", resolve: (s) => s.plan.name }),
    offer: t.relation("offer", { description: "The current offer (price, interval, gateway)." }),
    offerId: t.exposeString("offerId", { description: "Current offer_ id." }),
    interval: t.field({
      type: BillingIntervalEnum,
      description: "Cycle length of the current offer.",
      resolve: (s) => s.offer.interval ?? "MONTH",
    }),
    currentPeriodStart: t.expose("currentPeriodStart", { type: "DateTime", nullable: true, description: "Start of the paid period." }),
    currentPeriodEnd: t.expose("currentPeriodEnd", { type: "DateTime", nullable: true, description: "End of the paid period (access until then); null in a trial." }),
    trialEndsAt: t.expose("trialEndsAt", { type: "DateTime", nullable: true, description: "End of the trial, while trialing." }),
    nextBillingAt: t.expose("nextBillingAt", { type: "DateTime", nullable: true, description: "Next instant the billing run acts (charge, Pix QR, retry or trial end)." }),
    cancelAtPeriodEnd: t.exposeBoolean("cancelAtPeriodEnd", { description: "Cancellation scheduled for the period end." }),
    canceledAt: t.expose("canceledAt", { type: "DateTime", nullable: true, description: "When it was canceled (tenant clock)." }),
    collectionMethod: t.expose("collectionMethod", { type: CollectionMethodEnum, description: "How renewals are collected." }),
    paymentMethod: t.field({
      type: CardMaskRef,
      nullable: true,
      description: "The card renewals charge (CARD_AUTO with a saved card); null otherwise.",
      resolve: (s) => subscriptionCard(s),
    }),
    nextChargeAmountCents: t.int({
      description: "Amount of the next renewal in cents: the next cycle's price (the pending offer's, when one is scheduled) less the active coupon.",
      resolve: (s) => subscriptionNextCharge(s),
    }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    pendingOffer: t.field({
      type: PendingOfferRef,
      nullable: true,
      description: "The plan change scheduled for a later date, if any.",
      resolve: (s) => pendingOfferFields(s),
    }),
    entitlements: t.field({
      type: "JSON",
      description: "The current plan's entitlements (a capability map), read live.",
      resolve: (s) => s.plan.entitlements ?? {},
    }),
    lastPayment: t.relation("lastPayment", { nullable: true, description: "The latest payment of the subscription (the refunded one in payment.refunded data)." }),
    tracking: t.field({
      type: TrackingRef,
      nullable: true,
      description: "Attribution of the checkout link; null without context.",
      select: { tracking: true },
      resolve: (s) => trackingFields(s.tracking),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant (wall clock)." }),
    invoices: t.connection(
      {
        type: InvoiceRef,
        description: "The subscription's invoices in id order (keyset).",
        select: { tenantId: true },
        resolve: (s, args, ctx) =>
          keysetConnection("invoice", args, (id, take) =>
            ctx.db.prisma.invoice.findMany({ where: { tenantId: s.tenantId, subscriptionId: s.id, ...(id ? { id } : {}) }, orderBy: { id: "asc" }, take }),
          ),
      },
      { name: "SubscriptionInvoicesConnection", description: "A page of invoices." },
      { name: "SubscriptionInvoicesEdge", description: "One invoice of the page." },
    ),
    payments: t.connection(
      {
        type: PaymentRef,
        description: "The subscription's payments (charge attempts) in id order (keyset).",
        select: { tenantId: true },
        resolve: (s, args, ctx) =>
          keysetConnection("payment", args, (id, take) =>
            ctx.db.prisma.payment.findMany({ where: { tenantId: s.tenantId, subscriptionId: s.id, ...(id ? { id } : {}) }, orderBy: { id: "asc" }, take }),
          ),
      },
      { name: "SubscriptionPaymentsConnection", description: "A page of payments." },
      { name: "SubscriptionPaymentsEdge", description: "One payment of the page." },
    ),
    gatewayEvents: t.field({
      type: [GatewayEventRef],
      description: "What the gateway answered on this subscription's charges, in id order (at most 200).",
      select: { tenantId: true },
      resolve: (s, _a, ctx) => listSubscriptionGatewayEvents(ctx.db.prisma, s),
    }),
  }),
});

builder.queryFields((t) => ({
  subscriptions: t.connection(
    {
      type: SubscriptionRef,
      description: "The tenant's subscriptions in id order (keyset). `status` takes one or several comma-separated values.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        status: t.arg.string({ required: false, description: "Filter: status values joined by commas (trialing, active, past_due, ...)." }),
        offerId: t.arg.string({ required: false, description: "Filter: offer_ id." }),
      },
      resolve: async (_root, args, ctx, info) => {
        forwardOnly(args);
        const page = await listSubscriptions(
          ctx.db.prisma,
          { tenantId: tenantIdFor(ctx, args.tenantId), limit: args.first, after: args.after, status: args.status, offerId: args.offerId },
          queryFromInfo({ context: ctx, info, path: ["edges", "node"] }),
        );
        // queryFromInfo planned the type's include into the query; the row type cannot say so.
        return pageToConnection(page as Page<SubscriptionForPayload>);
      },
    },
    { description: "A page of subscriptions." },
    { description: "One subscription of the page." },
  ),
  subscription: t.prismaField({
    type: "Subscription",
    description: "One subscription of the tenant. Unknown and foreign ids are the same not_found error.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (query, _root, args, ctx) =>
      getSubscription(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), subscriptionId: args.id }, query),
  }),
}));
