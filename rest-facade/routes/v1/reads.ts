// Read routes of /v1. Each maps to one GraphQL operation; status codes come from the core's errors.
import { Router, type Request } from "express";
import type { CoreClient } from "../../core-client.ts";
import { ops } from "../../operations.ts";
import { pageArgs, queryString, toPage, type Connection } from "../../params.ts";
import { toEntitlements, type EntitlementsSelection } from "../../serializers/entitlements.ts";
import { toPaymentLink, type PaymentLinkSelection } from "../../serializers/link.ts";
import { toReferralLink, type ReferralLinkSelection } from "../../serializers/referral.ts";
import { toEventEnvelope, type EventSelection } from "../../serializers/event.ts";
import { toGatewayEventRow, type GatewayEventSelection } from "../../serializers/gateway-event.ts";
import { toPaymentDetail, toPaymentRow, type PaymentDetailSelection, type PaymentRowSelection } from "../../serializers/payment.ts";
import { toSubscription, toSubscriptionListItem, type SubscriptionListSelection, type SubscriptionSelection } from "../../serializers/subscription.ts";

type Json = Record<string, unknown>;

export function readRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  const q = <T>(req: Request, doc: string, vars: Json) => core.request<T>(doc, vars, headers(req));

  r.get("/subscriptions", async (req, res) => {
    const status = req.query.status;
    const data = await q<{ subscriptions: Connection<SubscriptionListSelection> }>(req, ops.listSubscriptions, {
      ...pageArgs(req),
      // A repeated status parameter means the same as commas.
      status: Array.isArray(status) ? status.join(",") : queryString(req, "status"),
      offerId: queryString(req, "offer_id"),
    });
    res.json(toPage(data.subscriptions, toSubscriptionListItem));
  });

  r.get("/subscriptions/:id", async (req, res) => {
    const data = await q<{ subscription: SubscriptionSelection }>(req, ops.getSubscription, { id: req.params.id });
    res.json(toSubscription(data.subscription));
  });

  r.get("/subscriptions/:id/gateway-events", async (req, res) => {
    const data = await q<{ subscription: { gatewayEvents: GatewayEventSelection[] } }>(req, ops.listSubscriptionGatewayEvents, { id: req.params.id });
    res.json({ results: data.subscription.gatewayEvents.map(toGatewayEventRow) });
  });

  r.get("/subscriptions/:id/payment-link", async (req, res) => {
    const data = await q<{ subscriptionPaymentLink: PaymentLinkSelection }>(req, ops.getSubscriptionPaymentLink, { id: req.params.id });
    res.json(toPaymentLink(data.subscriptionPaymentLink));
  });

  r.get("/entitlements", async (req, res) => {
    const data = await q<{ entitlements: EntitlementsSelection }>(req, ops.getEntitlements, {
      externalId: queryString(req, "external_id"),
      email: queryString(req, "email"),
    });
    res.json(toEntitlements(data.entitlements));
  });

  r.get("/referrals/link", async (req, res) => {
    const data = await q<{ referralLink: ReferralLinkSelection }>(req, ops.getReferralLink, {
      externalId: queryString(req, "external_id"),
      email: queryString(req, "email"),
    });
    res.json(toReferralLink(data.referralLink));
  });

  r.get("/customers/:externalId/subscriptions", async (req, res) => {
    const data = await q<{ customerSubscriptions: { customerId: string; subscriptions: SubscriptionListSelection[] } }>(req, ops.listCustomerSubscriptions, {
      externalId: req.params.externalId,
    });
    const { customerId, subscriptions } = data.customerSubscriptions;
    res.json({ customer_id: customerId, subscriptions: subscriptions.map(toSubscriptionListItem) });
  });

  r.get("/customers/:externalId/payments", async (req, res) => {
    const data = await q<{ customerPayments: Connection<PaymentRowSelection> }>(req, ops.listCustomerPayments, {
      externalId: req.params.externalId,
      ...pageArgs(req),
    });
    res.json(toPage(data.customerPayments, toPaymentRow));
  });

  r.get("/payments/:id", async (req, res) => {
    const data = await q<{ payment: PaymentDetailSelection }>(req, ops.getPayment, { id: req.params.id });
    res.json(toPaymentDetail(data.payment));
  });

  r.get("/events", async (req, res) => {
    const data = await q<{ events: Connection<EventSelection> }>(req, ops.listEvents, { ...pageArgs(req), type: queryString(req, "type") });
    res.json(toPage(data.events, toEventEnvelope));
  });

  return r;
}
