import fs from "node:fs";
import type { AddressInfo } from "node:net";
import { describe, it, expect } from "vitest";
import express from "express";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { docsRouter, openApiDocument } from "../../rest-facade/openapi/docs.ts";

type Json = Record<string, any>;
const docUrl = new URL("../../rest-facade/openapi/openapi.json", import.meta.url);
const doc: Json = JSON.parse(fs.readFileSync(docUrl, "utf8"));

const ROUTES: Array<[string, string, string]> = [
  ["get", "/v1/entitlements", "getEntitlements"],
  ["post", "/v1/customers/{external_id}", "updateCustomer"],
  ["post", "/v1/customers/{external_id}/email", "updateCustomerEmail"],
  ["get", "/v1/customers/{external_id}/payments", "listCustomerPayments"],
  ["get", "/v1/customers/{external_id}/subscriptions", "listCustomerSubscriptions"],
  ["get", "/v1/subscriptions", "listSubscriptions"],
  ["get", "/v1/subscriptions/{subscription_id}", "getSubscription"],
  ["get", "/v1/subscriptions/{subscription_id}/gateway-events", "listSubscriptionGatewayEvents"],
  ["get", "/v1/subscriptions/{subscription_id}/payment-link", "getSubscriptionPaymentLink"],
  ["post", "/v1/subscriptions/{subscription_id}/cancel", "cancelSubscription"],
  ["post", "/v1/subscriptions/{subscription_id}/cancel/undo", "undoCancelSubscription"],
  ["post", "/v1/subscriptions/{subscription_id}/change-plan", "changePlan"],
  ["post", "/v1/subscriptions/{subscription_id}/cancel-plan-change", "cancelPlanChange"],
  ["post", "/v1/subscriptions/{subscription_id}/charge-now", "chargeNow"],
  ["post", "/v1/subscriptions/{subscription_id}/reschedule", "rescheduleSubscription"],
  ["post", "/v1/subscriptions/{subscription_id}/remove-coupon", "removeCoupon"],
  ["post", "/v1/subscriptions/{subscription_id}/payment-method-link", "createPaymentMethodLink"],
  ["post", "/v1/subscriptions/{subscription_id}/renewal-link", "createRenewalLink"],
  ["get", "/v1/payments/{payment_id}", "getPayment"],
  ["post", "/v1/payments/{payment_id}/refund", "refundPayment"],
  ["get", "/v1/orders/{order_id}/payment-link", "getOrderPaymentLink"],
  ["get", "/v1/referrals/link", "getReferralLink"],
  ["get", "/v1/renewal-campaigns/{campaign_id}/link", "getCampaignLink"],
  ["get", "/v1/renewal-campaigns/{campaign_id}/links", "listCampaignLinks"],
  ["get", "/v1/events", "listEvents"],
];

const EVENT_TYPES = [
  "subscription.activated", "subscription.updated", "subscription.plan_changed", "subscription.plan_change_scheduled",
  "subscription.plan_change_canceled", "subscription.migration_link_issued", "subscription.trial_started",
  "subscription.past_due", "subscription.suspended", "subscription.canceled", "invoice.paid", "invoice.payment_failed",
  "order.paid", "order.refunded", "payment.refunded", "referral.created", "referral.qualified", "referral.rewarded",
  "referral.reverted",
];

const ULID = "01JABCDEFGHJKMNPQRSTVWXYZ0";
const SUB_ID = `sub_${ULID}`;

function operations(): Array<[string, string, Json]> {
  const out: Array<[string, string, Json]> = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) out.push([method, path, op as Json]);
  }
  return out;
}

function walk(node: unknown, visit: (obj: Json, at: string) => void, at = "#"): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, visit, `${at}/${i}`));
  else if (node && typeof node === "object") {
    visit(node as Json, at);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${at}/${k}`);
  }
}

function resolve(ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.replace(/^#\//, "").split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = node && typeof node === "object" ? (node as Json)[key] : undefined;
  }
  return node;
}

function subscription(): Json {
  return {
    subscription_id: SUB_ID,
    status: "active",
    customer: { id: `cus_${ULID}`, email: "ana@example.com", external_id: "user-42" },
    plan_id: `plan_${ULID}`,
    plan_name: "Pro",
    interval: "month",
    current_period_end: "2025-03-31T12:00:00Z",
    cancel_at_period_end: false,
    collection_method: "card_auto",
    payment_method: { brand: "visa", last4: "4242" },
    next_charge_amount_cents: 4990,
    currency: "brl",
    pending_offer: null,
    entitlements: { seats: 5, api: true },
    last_payment: {
      payment_id: `pay_${ULID}`, status: "paid", method: "card", method_kind: "credit_card",
      card: { brand: "visa", last4: "4242" }, amount_cents: 4990, paid_amount_cents: 4990, currency: "brl",
      paid_at: "2025-02-28T12:00:00Z", gateway_charge_id: "ch_1", gateway_provider: "sandbox",
    },
    tracking: null,
  };
}

describe("OpenAPI document", () => {
  it("parses as OpenAPI 3.1.0 with the contract's title and version", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.title).toBe("Recurring-Billing Integration API");
    expect(doc.servers).toEqual([{ url: "/" }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(openApiDocument).toEqual(doc);
  });

  it.each(ROUTES)("documents %s %s as %s", (method, path, operationId) => {
    expect(doc.paths[path]?.[method]?.operationId).toBe(operationId);
  });

  it("documents no route beyond the contract and no POST on /v1/subscriptions", () => {
    expect(operations().map(([m, p]) => `${m} ${p}`).sort()).toEqual(ROUTES.map(([m, p]) => `${m} ${p}`).sort());
    expect(doc.paths["/v1/subscriptions"].post).toBeUndefined();
  });

  it("gives every operation an operationId, bearer security, 400, 401 and 429 (429 with rate-limit headers)", () => {
    const ids = new Set<string>();
    for (const [method, path, op] of operations()) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(op.operationId);
      expect(op.security, where).toEqual([{ bearerAuth: [] }]);
      for (const status of ["400", "401", "429"]) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      if (method === "post") {
        expect(op.responses["415"], where).toBeDefined();
        expect(op.parameters.some((p: Json) => p.$ref === "#/components/parameters/IdempotencyKey"), where).toBe(true);
      }
    }
    expect(ids.size).toBe(operations().length);
    const tooMany = resolve(doc.paths["/v1/events"].get.responses["429"].$ref) as Json;
    expect(Object.keys(tooMany.headers)).toEqual(["Retry-After", "RateLimit-Policy", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]);
  });

  it("documents the 19 webhook events and the panel's webhook.test with both signature header sets", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES, "webhook.test"].sort());
    const names = (doc.webhooks["invoice.paid"].post.parameters as Json[]).map((p) => (resolve(p.$ref) as Json).name);
    expect(names).toEqual(["X-Billing-Event-Id", "X-Billing-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]);
  });

  it("resolves every $ref", () => {
    const broken: string[] = [];
    walk(doc, (obj, at) => {
      if (typeof obj.$ref !== "string") return;
      if (!obj.$ref.startsWith("#/") || resolve(obj.$ref) === undefined) broken.push(`${at}: ${obj.$ref}`);
    });
    expect(broken).toEqual([]);
  });

  it("names only existing properties in every `required`", () => {
    const bad: string[] = [];
    walk(doc.components.schemas, (obj, at) => {
      if (!Array.isArray(obj.required) || at.includes("/parameters")) return;
      for (const name of obj.required) if (!obj.properties || !(name in obj.properties)) bad.push(`${at}: ${name}`);
    });
    expect(bad).toEqual([]);
  });

  it("keeps last_payment and tracking out of list items and closes the strict schemas", () => {
    const s = doc.components.schemas;
    expect(Object.keys(s.SubscriptionPayload.properties)).toEqual(
      [...Object.keys(s.SubscriptionListItem.properties), "last_payment", "tracking"],
    );
    expect(s.SubscriptionPayload.required).not.toContain("last_payment");
    for (const name of ["SubscriptionPayload", "SubscriptionListItem", "PaymentRow", "PaymentDetail", "EntitlementsResponse", "EntitlementRow", "GatewayEventRow", "EventEnvelope"]) {
      expect(s[name].additionalProperties, name).toBe(false);
    }
  });
});

/** The object schemas an answer can hold, reached through refs, combinators, items and properties. */
function objectSchemas(root: unknown, at: string, seen = new Set<string>()): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  const visit = (node: unknown, where: string) => {
    if (!node || typeof node !== "object") return;
    const n = node as Json;
    if (typeof n.$ref === "string") {
      if (seen.has(n.$ref)) return;
      seen.add(n.$ref);
      return visit(resolve(n.$ref), n.$ref);
    }
    const types = ([] as unknown[]).concat(n.type ?? []);
    if (types.includes("object") && n.properties) out.push([where, n]);
    for (const k of ["allOf", "anyOf", "oneOf"]) (n[k] as unknown[] | undefined)?.forEach((x, i) => visit(x, `${where}/${k}/${i}`));
    for (const k of ["items", "then", "else", "additionalProperties"]) visit(n[k], `${where}/${k}`);
    for (const [name, x] of Object.entries((n.properties ?? {}) as Json)) visit(x, `${where}/properties/${name}`);
  };
  visit(root, at);
  return out;
}

function answers(): Array<[string, string, string, Json]> {
  const out: Array<[string, string, string, Json]> = [];
  for (const [method, path, op] of operations()) {
    for (const [status, r] of Object.entries(op.responses as Json)) {
      const response = (r.$ref ? resolve(r.$ref) : r) as Json;
      out.push([method, path, status, response]);
    }
  }
  return out;
}

describe("OpenAPI document for generated clients", () => {
  it("lists `required` on every object schema of a 2xx answer and of a webhook payload", () => {
    const seen = new Set<string>();
    const missing: string[] = [];
    for (const [method, path, status, response] of answers()) {
      if (!status.startsWith("2")) continue;
      const schema = response.content?.["application/json"]?.schema;
      for (const [where, obj] of objectSchemas(schema, `${method} ${path} ${status}`, seen)) if (!Array.isArray(obj.required)) missing.push(where);
    }
    for (const [type, item] of Object.entries(doc.webhooks as Json)) {
      for (const [where, obj] of objectSchemas(item.post.requestBody.content["application/json"].schema, `webhook ${type}`, seen)) {
        if (!Array.isArray(obj.required)) missing.push(where);
      }
    }
    expect(missing).toEqual([]);
    for (const page of ["SubscriptionPage", "PaymentPage", "EventPage", "CampaignLinksPage"]) expect(doc.components.schemas[page].required, page).toEqual(["results", "next"]);
    expect(doc.components.schemas.GatewayEventList.required).toEqual(["results"]);
    expect(doc.components.schemas.PlanChangeResult.required).toEqual(["subscription", "plan_change"]);
    expect(doc.components.schemas.PlanChange.required).not.toContain("payment_link");
  });

  it("documents the RateLimit-* headers on every answer past the key check, and Idempotent-Replayed on POST answers", () => {
    const rate = ["RateLimit-Policy", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
    const lacking: string[] = [];
    for (const [method, path, status, response] of answers()) {
      const names = Object.keys(response.headers ?? {});
      const where = `${method} ${path} ${status}`;
      if (status === "401") {
        if (names.some((n) => n.startsWith("RateLimit"))) lacking.push(`${where}: 401 is answered before the limiter`);
        continue;
      }
      // 503 may come before the limiter (a facade that cannot reach the core): Retry-After is what it promises.
      if (status === "503") {
        if (!names.includes("Retry-After")) lacking.push(`${where}: Retry-After`);
        continue;
      }
      for (const h of rate) if (!names.includes(h)) lacking.push(`${where}: ${h}`);
      if (method === "post" && ["200", "201", "202", "400", "404", "409", "422"].includes(status) && !names.includes("Idempotent-Replayed")) lacking.push(`${where}: Idempotent-Replayed`);
      for (const [name, h] of Object.entries((response.headers ?? {}) as Json)) {
        if (!String(h.$ref ?? "").startsWith("#/components/headers/") || !resolve(h.$ref)) lacking.push(`${where}: ${name} is not a reusable component header`);
      }
    }
    expect(lacking).toEqual([]);
    expect(doc.components.headers.IdempotentReplayed.schema).toEqual({ type: "string", enum: ["true"] });
  });
});

describe("response validator", () => {
  const v = createOpenApiValidator(doc);

  it("accepts a valid subscription payload on GET /v1/subscriptions/{id}", () => {
    const r = v.validateResponse("GET", `/v1/subscriptions/${SUB_ID}?expand=none`, 200, subscription());
    expect(r).toEqual({ ok: true, errors: [], operationId: "getSubscription" });
  });

  it("rejects an unknown key", () => {
    const r = v.validateResponse("GET", `/v1/subscriptions/${SUB_ID}`, 200, { ...subscription(), card_number: "4242" });
    expect(r.ok).toBe(false);
    expect(r.errors.join()).toContain("card_number");
  });

  it("rejects a float amount", () => {
    const r = v.validateResponse("GET", `/v1/subscriptions/${SUB_ID}`, 200, { ...subscription(), next_charge_amount_cents: 49.9 });
    expect(r.ok).toBe(false);
    expect(r.errors.join()).toContain("next_charge_amount_cents");
  });

  it("rejects last_payment in list items and accepts the list shape without it", () => {
    const { last_payment: _l, tracking: _t, ...item } = subscription();
    expect(v.validateResponse("GET", "/v1/subscriptions?status=active,past_due", 200, { results: [item], next: null }).ok).toBe(true);
    expect(v.validateResponse("GET", "/v1/subscriptions", 200, { results: [subscription()], next: null }).ok).toBe(false);
  });

  it("resolves component responses and refuses unknown routes and undocumented statuses", () => {
    expect(v.validateResponse("GET", `/v1/payments/pay_${ULID}`, 404, { error: "payment not found", code: "not_found" }).ok).toBe(true);
    expect(v.validateResponse("POST", `/v1/subscriptions/${SUB_ID}/cancel/undo`, 429, { error: "slow down", code: "rate_limited" })).toMatchObject({
      ok: true,
      operationId: "undoCancelSubscription",
    });
    const unknown = v.validateResponse("GET", "/v1/nothing-here", 200, {});
    expect(unknown.ok).toBe(false);
    expect(unknown.errors[0]).toMatch(/no documented operation/);
    expect(v.validateResponse("GET", `/v1/subscriptions/${SUB_ID}`, 418, {}).ok).toBe(false);
  });

  it("tells the two 422 bodies of a refund apart", () => {
    const path = `/v1/payments/pay_${ULID}/refund`;
    expect(v.validateResponse("POST", path, 422, { level: "error", message: "motivo obrigatório" }).ok).toBe(true);
    expect(v.validateResponse("POST", path, 422, { error: "confirm", requires_confirmation: "runway" }).ok).toBe(true);
    expect(v.validateResponse("POST", path, 422, { level: "error" }).ok).toBe(false);
  });
});

describe("docs router", () => {
  it("serves /docs without inline scripts, the init script and the local swagger-ui assets", async () => {
    const app = express();
    app.use(docsRouter());
    const server = app.listen(0);
    try {
      await new Promise((r) => server.once("listening", r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const page = await fetch(`${base}/docs`);
      const html = await page.text();
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
      expect(html).toContain('src="/docs/init.js"');
      expect(html).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\ssrc=)[^>]*>/);
      expect(html).not.toMatch(/https?:\/\//);
      const init = await fetch(`${base}/docs/init.js`);
      expect(init.headers.get("content-type")).toMatch(/javascript/);
      expect(await init.text()).toContain('"/v1/openapi.json"');
      for (const asset of ["swagger-ui.css", "swagger-ui-bundle.js"]) expect((await fetch(`${base}/docs/assets/${asset}`)).status).toBe(200);
      const spec = await fetch(`${base}/v1/openapi.json`);
      expect(((await spec.json()) as Json).openapi).toBe("3.1.0");
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
