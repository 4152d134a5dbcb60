// API3 (broken object property level authorization: mass assignment). Every POST route of the
// OpenAPI document, the hosted checkout and /pay get bodies padded with status, tenant, money and
// customer fields (and a __proto__ payload). Each padded request is run against a twin of the record a
// plain request ran against: the answers and the records must come out the same, or the padded request
// be refused with nothing changed. doc and external_id on customer edits: customers.test.ts
// ("refuses doc and external_id with 400 field_not_editable").
import { afterAll, describe, expect, it } from "vitest";
import { advanceClock, CARDS, checkout, subscribe } from "../helpers/billing.ts";
import { call, get, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, tokenOf } from "../links/pay-helpers.ts";
import { operations } from "./openapi-routes.ts";

type Json = Record<string, any>;
const T0 = "2027-03-10T12:00:00.000Z";
const plus = (days: number) => new Date(Date.parse(T0) + days * 86_400_000).toISOString();

/** Fields no body may set. */
function extras(other: { tenantId: string; customerId: string; planId: string; offerId: string; subscriptionId: string }): Json {
  return {
    id: other.subscriptionId,
    status: "active",
    subscription_status: "active",
    tenant_id: other.tenantId,
    tenantId: other.tenantId,
    tenant: { id: other.tenantId },
    customer_id: other.customerId,
    customer: { id: other.customerId, email: "taken@example.com", external_id: "taken" },
    subscription_id: other.subscriptionId,
    plan_id: other.planId,
    offer_id: other.offerId,
    amount_cents: 1,
    price_cents: 1,
    unit_amount_cents: 1,
    next_charge_amount_cents: 1,
    paid_amount_cents: 1,
    refunded_amount_cents: 999_999,
    discount_cents: 999_999,
    charge_cents: 0,
    currency: "usd",
    current_period_end: "2099-01-01T00:00:00Z",
    next_billing_at_override: "2099-01-01T00:00:00Z",
    cancel_at_period_end: true,
    paid_at: "2020-01-01T00:00:00Z",
    trial_days: 365,
    entitlements: { admin: true, seats: 9999 },
    scope: "WRITE",
    mode: "LIVE",
    read_only: false,
    role: "operator",
  };
}

/** JSON text with a __proto__ / constructor.prototype payload (JSON.stringify would drop __proto__). */
function padded(body: Json, extra: Json): string {
  const merged = JSON.stringify({ ...extra, ...body });
  return `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted2":"yes"}},${merged.slice(1)}`;
}

/** Ids, tokens, e-mails and external ids replaced by their order of appearance: twins compare equal. */
function normalize(value: unknown): string {
  const names = new Map<string, string>();
  return JSON.stringify(value ?? null).replace(
    /\b(?:[a-z]+_(?:sbx_)?[0-9A-HJKMNP-TV-Z]{26}|tok_sandbox_\w+|ext-[a-z0-9]+|[\w.-]+@example\.com|pl_[0-9A-Za-z]+|[0-9A-Za-z]{32,})\b/g,
    (m) => {
      if (!names.has(m)) names.set(m, `<${names.size}>`);
      return names.get(m)!;
    },
  );
}

describe("mass assignment", () => {
  afterAll(() => {
    expect(({} as Json).polluted).toBeUndefined();
    expect(({} as Json).polluted2).toBeUndefined();
  });

  let other: Parameters<typeof extras>[0];
  async function otherTenant() {
    if (other) return other;
    const t = await newTenant();
    const s = await subscribe(t.yearlyOfferId);
    const sub = (await get(`/v1/subscriptions/${s.subscription_id}`, t.readKey)).body;
    other = { tenantId: t.tenantId, customerId: sub.customer.id, planId: t.planId, offerId: t.yearlyOfferId, subscriptionId: s.subscription_id };
    return other;
  }

  /** A record for a route: a subscription (with its customer and first payment) on a frozen sandbox clock. */
  async function fixture(t: TestTenant) {
    const s = await subscribe(t.monthlyOfferId);
    const sub = (await get(`/v1/subscriptions/${s.subscription_id}`, t.readKey)).body;
    return { subscription_id: s.subscription_id, payment_id: sub.last_payment.payment_id as string, external_id: sub.customer.external_id as string };
  }

  const state = async (t: TestTenant, f: Awaited<ReturnType<typeof fixture>>) => ({
    subscription: (await get(`/v1/subscriptions/${f.subscription_id}`, t.readKey)).body,
    payment: (await get(`/v1/payments/${f.payment_id}`, t.readKey)).body,
    customer: (await get(`/v1/customers/${f.external_id}/subscriptions`, t.readKey)).body,
    row: await (await testService()).runtime.db.sql.query(
      "SELECT s.tenant_id, s.customer_id, s.status, s.currency, c.tenant_id AS customer_tenant, c.email, c.doc FROM subscriptions s JOIN customers c ON c.id = s.customer_id WHERE s.id = $1",
      [f.subscription_id],
    ),
  });

  const LEGIT: Record<string, Json> = {
    "POST /v1/customers/{external_id}": { name: "Maria Souza", phone: "11912345678" },
    "POST /v1/subscriptions/{subscription_id}/cancel": { reason: "caro demais", at_period_end: true },
    "POST /v1/subscriptions/{subscription_id}/reschedule": { next_billing_at: plus(40) },
    "POST /v1/payments/{payment_id}/refund": { amount_cents: 1000, reason: "cortesia", revoke: "none" },
    "POST /v1/subscriptions/{subscription_id}/renewal-link": { price_cents: 3990 },
  };

  it("changes nothing a POST body should not: every /v1 POST route, plain vs padded on twin records", async () => {
    const o = await otherTenant();
    const otherBefore = normalize(await (await testService()).runtime.db.sql.query("SELECT count(*)::int AS n FROM subscriptions WHERE tenant_id = $1", [o.tenantId]));
    const t = await newTenant();
    await advanceClock(t, T0);
    const routes = operations().filter((x) => x.method === "POST");
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const failures: string[] = [];
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const extra = Object.fromEntries(Object.entries(extras(o)).filter(([k]) => !route.bodyFields.includes(k)));
      const [plainF, paddedF] = [await fixture(t), await fixture(t)];
      const legit = (f: Json): Json =>
        LEGIT[label] ?? (route.path.endsWith("/change-plan") ? { offer_id: t.yearlyOfferId } : route.path.endsWith("/email") ? { email: `new-${f.external_id}@example.com` } : {});
      const path = (f: Json) => route.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(f[n]));
      const before = normalize(await state(t, paddedF));
      const plain = await call("POST", path(plainF), { key: t.writeKey, body: legit(plainF) });
      const pad = await call("POST", path(paddedF), { key: t.writeKey, body: padded(legit(paddedF), extra), unchecked: true });
      const after = normalize(await state(t, paddedF));
      if (pad.status >= 400) {
        if (after !== before) failures.push(`${label}: refused with ${pad.status} but the record changed`);
        if (plain.status < 400) failures.push(`${label}: plain ${plain.status}, padded refused ${pad.status} ${pad.text}`);
        continue;
      }
      if (plain.status !== pad.status || normalize(plain.body) !== normalize(pad.body)) failures.push(`${label}: answers differ\n  plain  ${plain.status} ${normalize(plain.body)}\n  padded ${pad.status} ${normalize(pad.body)}`);
      const [a, b] = [normalize(await state(t, plainF)), after];
      if (a !== b) failures.push(`${label}: records differ\n  plain  ${a}\n  padded ${b}`);
    }
    expect(failures).toEqual([]);
    const otherAfter = normalize(await (await testService()).runtime.db.sql.query("SELECT count(*)::int AS n FROM subscriptions WHERE tenant_id = $1", [o.tenantId]));
    expect(otherAfter).toBe(otherBefore);
  });

  it("the hosted checkout takes price, status, tenant, trial and customer only from the offer and the form", async () => {
    const o = await otherTenant();
    const t = await newTenant();
    await advanceClock(t, T0);
    const failures: string[] = [];
    for (const [label, fields, opts] of [
      ["card", {}, {}],
      ["pix", {}, { pix: true }],
      ["declined", { card_number: CARDS.declined }, {}],
    ] as [string, Record<string, string>, { pix?: boolean }][]) {
      const plain = await checkout(t.monthlyOfferId, fields, opts);
      const { baseUrl } = await testService();
      const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
      const form = {
        external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: "52998224725",
        method: opts.pix ? "pix" : "card",
        ...(opts.pix ? {} : { card_holder: "MARIA SILVA", card_number: CARDS.ok, card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" }),
        ...fields,
      };
      const res = await fetch(`${baseUrl}/checkout/${t.monthlyOfferId}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: padded(form, { ...extras(o), quantity: "5", coupon: undefined }),
      });
      const pad = { status: res.status, body: await res.json() };
      if (plain.status !== pad.status || normalize({ ...plain.body, pix: !!plain.body.pix }) !== normalize({ ...pad.body, pix: !!pad.body.pix })) {
        failures.push(`${label}: ${plain.status} ${normalize(plain.body)} != ${pad.status} ${normalize(pad.body)}`);
        continue;
      }
      if (!plain.body.subscription_id) continue;
      const strip = (s: Json): Json => ({ ...s, tracking: undefined });
      const [a, b] = [strip((await get(`/v1/subscriptions/${plain.body.subscription_id}`, t.readKey)).body), strip((await get(`/v1/subscriptions/${pad.body.subscription_id}`, t.readKey)).body)];
      if (normalize(a) !== normalize(b)) failures.push(`${label}: ${normalize(a)}\n != ${normalize(b)}`);
      expect(b).toMatchObject({ next_charge_amount_cents: 4990, currency: "brl", plan_id: t.planId, entitlements: { seats: 5, reports: true } });
      expect(b.customer.id).not.toBe(o.customerId);
    }
    expect(failures).toEqual([]);
  });

  it("/pay takes the amount from the link, never from the body", async () => {
    const o = await otherTenant();
    const t = await newTenant();
    await advanceClock(t, T0);
    const outcomes: string[] = [];
    for (const pad of [false, true]) {
      const f = await fixture(t);
      const link = await post(`/v1/subscriptions/${f.subscription_id}/renewal-link`, t.writeKey, { price_cents: 3990 });
      const { baseUrl } = await testService();
      const body = CARD(CARDS.ok);
      const res = await fetch(`${baseUrl}/pay/${tokenOf(link.body.url)}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: pad ? padded(body, extras(o)) : JSON.stringify(body),
      });
      const answer = await res.json();
      const sub = (await get(`/v1/subscriptions/${f.subscription_id}`, t.readKey)).body;
      const payments = (await get(`/v1/customers/${f.external_id}/payments`, t.readKey)).body.results.map((p: Json) => `${p.status}:${p.amount_cents}:${p.currency}`);
      outcomes.push(normalize({ status: res.status, answer, sub: { ...sub, last_payment: undefined }, payments }));
      expect(payments).toContain("paid:3990:brl");
    }
    expect(outcomes[1]).toBe(outcomes[0]);
  });
});
