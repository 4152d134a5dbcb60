// Read routes of /v1. Each maps to one GraphQL operation; status codes come from the core's errors.
import { Router, type Request } from "express";
import type { CoreClient } from "../../graphql-client.ts";
import { ops } from "../../operations.ts";
import { pageArgs, queryString, toPage, type Connection } from "../../params.ts";

type Json = Record<string, unknown>;
type Conn = Connection<Json>;

export function readRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  const q = <T>(req: Request, doc: string, vars: Json) => core.request<T>(doc, vars, headers(req));

  r.get("/subscriptions", async (req, res) => {
    const status = req.query.status;
    const data = await q<{ subscriptions: Conn }>(req, ops.listSubscriptions, {
      ...pageArgs(req),
      // A repeated status parameter means the same as commas.
      status: Array.isArray(status) ? status.join(",") : queryString(req, "status"),
      offerId: queryString(req, "offer_id"),
    });
    res.json(toPage(data.subscriptions, (n) => n.listItem));
  });

  r.get("/subscriptions/:id", async (req, res) => {
    const data = await q<{ subscription: { payload: Json } }>(req, ops.getSubscription, { id: req.params.id });
    res.json(data.subscription.payload);
  });

  r.get("/subscriptions/:id/gateway-events", async (req, res) => {
    const data = await q<{ subscription: { gatewayEvents: Json[] } }>(req, ops.listSubscriptionGatewayEvents, { id: req.params.id });
    res.json({ results: data.subscription.gatewayEvents });
  });

  r.get("/subscriptions/:id/payment-link", async (req, res) => {
    const data = await q<{ subscriptionPaymentLink: Json }>(req, ops.getSubscriptionPaymentLink, { id: req.params.id });
    res.json(data.subscriptionPaymentLink);
  });

  r.get("/entitlements", async (req, res) => {
    const data = await q<{ entitlements: { payload: Json } }>(req, ops.getEntitlements, {
      externalId: queryString(req, "external_id"),
      email: queryString(req, "email"),
    });
    res.json(data.entitlements.payload);
  });

  r.get("/referrals/link", async (req, res) => {
    const data = await q<{ referralLink: { payload: Json } }>(req, ops.getReferralLink, {
      externalId: queryString(req, "external_id"),
      email: queryString(req, "email"),
    });
    res.json(data.referralLink.payload);
  });

  r.get("/customers/:externalId/subscriptions", async (req, res) => {
    const data = await q<{ customerSubscriptions: { payload: Json } }>(req, ops.listCustomerSubscriptions, { externalId: req.params.externalId });
    res.json(data.customerSubscriptions.payload);
  });

  r.get("/customers/:externalId/payments", async (req, res) => {
    const data = await q<{ customerPayments: Conn }>(req, ops.listCustomerPayments, { externalId: req.params.externalId, ...pageArgs(req) });
    res.json(toPage(data.customerPayments, (n) => n.payload));
  });

  r.get("/payments/:id", async (req, res) => {
    const data = await q<{ payment: { payload: Json } }>(req, ops.getPayment, { id: req.params.id });
    res.json(data.payment.payload);
  });

  r.get("/events", async (req, res) => {
    const data = await q<{ events: Conn }>(req, ops.listEvents, { ...pageArgs(req), type: queryString(req, "type") });
    res.json(toPage(data.events, (n) => n.envelope));
  });

  return r;
}
