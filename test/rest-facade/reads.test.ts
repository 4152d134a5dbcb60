import { describe, expect, it } from "vitest";
import { get, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer, makeEvent, makeGatewayEvents, makePayment, makeSubscription, setTenantClock } from "../helpers/factories.ts";

describe("GET /v1/subscriptions/{id}", () => {
  it("returns the full payload with last_payment and tracking", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t, "cust-1");
    const tracking = { utm_source: "google", params: { plan: "x" }, captured_at: "2026-11-01T00:00:00.000Z", inherited: false };
    const s = await makeSubscription(t, c.id, { tracking });
    const r = await get(`/v1/subscriptions/${s.id}`, t.readKey);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      subscription_id: s.id,
      status: "active",
      customer: { id: c.id, email: c.email, external_id: "cust-1" },
      plan_id: t.planId,
      plan_name: "Pro",
      interval: "month",
      current_period_end: "2026-12-01T00:00:00.000Z",
      cancel_at_period_end: false,
      collection_method: "card_auto",
      payment_method: { brand: "visa", last4: "4242" },
      next_charge_amount_cents: 4990,
      currency: "brl",
      pending_offer: null,
      entitlements: { seats: 5, reports: true },
      last_payment: null,
      tracking,
    });
  });

  it("answers byte-identical 404s for another tenant's, unknown and malformed ids", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const s = await makeSubscription(b, (await makeCustomer(b)).id);
    const foreign = await get(`/v1/subscriptions/${s.id}`, a.readKey);
    const unknown = await get(`/v1/subscriptions/sub_01ARZ3NDEKTSV4RRFFQ69G5FAV`, a.readKey);
    const malformed = await get(`/v1/subscriptions/garbage`, a.readKey);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    expect(malformed.text).toBe(unknown.text);
    for (const path of [`/v1/subscriptions/${s.id}/gateway-events`]) {
      expect((await get(path, a.readKey)).text).toBe((await get(`/v1/subscriptions/sub_01ARZ3NDEKTSV4RRFFQ69G5FAV/gateway-events`, a.readKey)).text);
    }
  });
});

describe("GET /v1/subscriptions", () => {
  it("pages by id with limit and after, and filters by status and offer", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const made = [];
    for (const status of ["ACTIVE", "PAST_DUE", "CANCELED", "ACTIVE", "SUSPENDED"] as const) made.push(await makeSubscription(t, c.id, { status }));
    const yearly = await makeSubscription(t, c.id, { offerId: t.yearlyOfferId });

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const r = await get(`/v1/subscriptions?limit=2${after ? `&after=${after}` : ""}`, t.readKey);
      expect(r.status).toBe(200);
      expect(r.body.results.length).toBeLessThanOrEqual(2);
      for (const row of r.body.results) {
        expect(row).not.toHaveProperty("last_payment");
        expect(row).not.toHaveProperty("tracking");
      }
      seen.push(...r.body.results.map((x: { subscription_id: string }) => x.subscription_id));
      after = r.body.next;
    } while (after);
    expect(seen).toEqual([...made.map((s) => s.id), yearly.id]);

    const filtered = await get(`/v1/subscriptions?status=past_due,suspended`, t.readKey);
    expect(filtered.body.results.map((x: { status: string }) => x.status)).toEqual(["past_due", "suspended"]);
    const byOffer = await get(`/v1/subscriptions?offer_id=${t.yearlyOfferId}`, t.readKey);
    expect(byOffer.body.results).toHaveLength(1);
    expect(byOffer.body.results[0].interval).toBe("year");
  });

  it("answers 400 with accepted for an unknown status", async () => {
    const t = await newTenant();
    const r = await get(`/v1/subscriptions?status=active,paused`, t.readKey);
    expect(r.status).toBe(400);
    expect(r.body.accepted).toEqual(["trialing", "active", "past_due", "suspended", "canceled", "pending_first_payment"]);
  });

  it("never lists another tenant's subscriptions", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await makeSubscription(b, (await makeCustomer(b)).id);
    expect((await get(`/v1/subscriptions`, a.readKey)).body.results).toEqual([]);
  });
});

describe("GET /v1/entitlements", () => {
  it("follows the rules: canceled left out, suspended listed without adding, golden rule on plan edits", async () => {
    const t = await newTenant({ entitlements: { seats: 5, reports: true } });
    const c = await makeCustomer(t, "ent-1");
    const active = await makeSubscription(t, c.id, { status: "ACTIVE" });
    await makeSubscription(t, c.id, { status: "CANCELED" });
    const { createPlan } = await op(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Extra", entitlements: {exports: true, seats: 50}) { id } }`, {
      t: t.tenantId,
      p: t.productId,
    });
    const suspended = await makeSubscription(t, c.id, { status: "SUSPENDED", planId: createPlan.id });

    const r = await get(`/v1/entitlements?external_id=ent-1`, t.readKey);
    expect(r.status).toBe(200);
    expect(r.body.customer_id).toBe(c.id);
    expect(r.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([active.id, suspended.id]);
    expect(r.body.subscriptions[1]).toEqual({
      id: suspended.id,
      status: "suspended",
      plan_id: createPlan.id,
      interval: "month",
      current_period_end: "2026-12-01T00:00:00.000Z",
      entitlements: { exports: true, seats: 50 },
    });
    expect(r.body.merged_entitlements).toEqual({ seats: 5, reports: true });

    await op(`mutation($p: ID!) { updatePlanEntitlements(planId: $p, entitlements: {seats: 8, reports: false, sso: true}) { id } }`, { p: t.planId });
    const after = await get(`/v1/entitlements?email=${encodeURIComponent(c.email)}`, t.readKey);
    expect(after.body.merged_entitlements).toEqual({ seats: 8, reports: false, sso: true });
    const events = await get(`/v1/events?type=subscription.updated`, t.readKey);
    // Only living subscriptions of the edited plan are told.
    expect(events.body.results.map((e: { data: { subscription_id: string } }) => e.data.subscription_id)).toEqual([active.id]);
    expect(events.body.results[0].data.entitlements).toEqual({ seats: 8, reports: false, sso: true });
  });

  it("answers live state: no ETag, and no 304 against a client's cached copy after a plan edit", async () => {
    const t = await newTenant({ entitlements: { seats: 5 } });
    const c = await makeCustomer(t, "ent-etag");
    await makeSubscription(t, c.id, { status: "ACTIVE" });
    const first = await get(`/v1/entitlements?external_id=ent-etag`, t.readKey);
    expect(first.headers.get("etag")).toBeNull();
    await op(`mutation($p: ID!) { updatePlanEntitlements(planId: $p, entitlements: {seats: 6}) { id } }`, { p: t.planId });
    // Express answers `If-None-Match: *` with an empty 304 even without an ETag. (An explicit
    // Cache-Control, or fetch would add `no-cache`, which Express treats as "not fresh".)
    const conditional = { "if-none-match": "*", "cache-control": "max-age=0" };
    const again = await get(`/v1/entitlements?external_id=ent-etag`, t.readKey, { headers: conditional });
    expect(again.status).toBe(200);
    expect(again.body.merged_entitlements).toEqual({ seats: 6 });
  });

  it("answers 200 with customer_id null for an unknown customer and 400 without a key", async () => {
    const t = await newTenant();
    expect((await get(`/v1/entitlements?external_id=ghost`, t.readKey)).body).toEqual({ customer_id: null, subscriptions: [], merged_entitlements: {} });
    const r = await get(`/v1/entitlements`, t.readKey);
    expect(r.status).toBe(400);
  });

  it("does not see another tenant's customer", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const c = await makeCustomer(b, "shared-ext");
    await makeSubscription(b, c.id);
    expect((await get(`/v1/entitlements?external_id=shared-ext`, a.readKey)).body.customer_id).toBeNull();
  });
});

describe("customers, payments, gateway events and events", () => {
  it("lists a customer's subscriptions including canceled, and 404s for unknown customers", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t, "cs-1");
    await makeSubscription(t, c.id, { status: "CANCELED" });
    await makeSubscription(t, c.id);
    const r = await get(`/v1/customers/cs-1/subscriptions`, t.readKey);
    expect(r.body.customer_id).toBe(c.id);
    expect(r.body.subscriptions.map((s: { status: string }) => s.status)).toEqual(["canceled", "active"]);
    expect((await get(`/v1/customers/nobody/subscriptions`, t.readKey)).status).toBe(404);
  });

  it("pages a customer's payments and shows one payment with items", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t, "pay-1");
    const s = await makeSubscription(t, c.id);
    const p1 = await makePayment(t, c.id, s.id);
    const p2 = await makePayment(t, c.id, s.id, 1000);
    const first = await get(`/v1/customers/pay-1/payments?limit=1`, t.readKey);
    expect(first.body.results.map((p: { payment_id: string }) => p.payment_id)).toEqual([p1.id]);
    const second = await get(`/v1/customers/pay-1/payments?limit=1&after=${first.body.next}`, t.readKey);
    expect(second.body.results[0]).toMatchObject({
      payment_id: p2.id,
      status: "paid",
      kind: "recurring",
      method: "card",
      amount_cents: 1000,
      reference: { type: "subscription", id: s.id },
      customer: { external_id: "pay-1", email: c.email },
    });
    const detail = await get(`/v1/payments/${p1.id}`, t.readKey);
    expect(detail.body.items).toEqual([{ id: expect.stringMatching(/^pit_/), kind: "plan", amount_cents: 4990, refunded_amount_cents: 0, refunded: false }]);
  });

  it("caps gateway events at 200", async () => {
    const t = await newTenant();
    const s = await makeSubscription(t, (await makeCustomer(t)).id);
    await makeGatewayEvents(t, s.id, 205);
    const r = await get(`/v1/subscriptions/${s.id}/gateway-events`, t.readKey);
    expect(r.body.results).toHaveLength(200);
    expect(r.body.results[1]).toMatchObject({ kind: "charge_card", outcome: "declined", detail_code: "insufficient_funds" });
  });

  it("lists the last 30 days of events on the tenant clock, filtered by type", async () => {
    const t = await newTenant();
    const s = await makeSubscription(t, (await makeCustomer(t)).id);
    const data = (await get(`/v1/subscriptions/${s.id}`, t.readKey)).body;
    await setTenantClock(t, new Date("2027-03-01T00:00:00Z"));
    await makeEvent(t, "invoice.paid", new Date("2027-01-01T00:00:00Z"), data);
    const recent = await makeEvent(t, "invoice.paid", new Date("2027-02-20T00:00:00Z"), data);
    await makeEvent(t, "subscription.updated", new Date("2027-02-21T00:00:00Z"), data);
    const r = await get(`/v1/events?type=invoice.paid`, t.readKey);
    expect(r.body.results).toEqual([
      { id: recent.id, type: "invoice.paid", created_at: "2027-02-20T00:00:00.000Z", tenant_id: t.tenantId, data },
    ]);
    expect((await get(`/v1/events?type=nope`, t.readKey)).status).toBe(400);
  });
});
