// Contract tests of POST .../charge-now, .../payment-method-link and .../renewal-link: every status
// code and body the contract lists.
import { describe, expect, it } from "vitest";
import { advanceClock, makeOffer, subscribe, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

const SUB_404 = "sub_01JABCDEFGHJKMNPQRSTVWXYZ0";
const ROUTES = ["charge-now", "payment-method-link", "renewal-link"];

describe("subscription charge and link routes", () => {
  it("403 for a read key and for a read-only account; 404 identical for unknown, malformed and foreign ids", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    for (const route of ROUTES) {
      const read = await post(`/v1/subscriptions/${id}/${route}`, t.readKey);
      expect(read.status).toBe(403);
      expect(read.body.code).toBe("insufficient_scope");
      const unknown = await post(`/v1/subscriptions/${SUB_404}/${route}`, t.writeKey);
      const malformed = await post(`/v1/subscriptions/nope/${route}`, t.writeKey);
      const foreign = await post(`/v1/subscriptions/${id}/${route}`, other.writeKey);
      expect(unknown.status).toBe(404);
      expect(malformed.text).toBe(unknown.text);
      expect(foreign.text).toBe(unknown.text);
    }
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { id } }`, { t: t.tenantId });
    for (const route of ROUTES) {
      const locked = await post(`/v1/subscriptions/${id}/${route}`, t.writeKey);
      expect(locked.status).toBe(403);
      expect(locked.body.code).toBe("account_locked");
    }
  });

  it("charge-now: 202 {ok, message}; 409 with status when not chargeable; 409 when renewals are paused", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const ok = await post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    expect(ok.status).toBe(202);
    expect(ok.body).toEqual({ ok: true, message: expect.stringContaining("nothing is due") });

    const pix = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const pending = await post(`/v1/subscriptions/${pix.subscription_id}/charge-now`, t.writeKey);
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ status: "pending_first_payment", error: expect.any(String) });

    await op(`mutation($t: ID!) { setRenewalsPaused(tenantId: $t, paused: true) { id } }`, { t: t.tenantId });
    const paused = await post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    expect(paused.status).toBe(409);
    expect(paused.body.code).toBe("renewals_paused");
  });

  it("payment-method-link: 201 open link of 7 days; 409 for pending_first_payment, canceled and a trial without card", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const res = await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.stringMatching(/^pl_/), url: expect.stringContaining(`/pay/${res.body.token}`), expires_at: expect.any(String), status: "open" });
    const sub = await subscription(t, id);
    void sub;
    expect(Object.keys(res.body).sort()).toEqual(["expires_at", "status", "token", "url"]);

    const pix = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const pending = await post(`/v1/subscriptions/${pix.subscription_id}/payment-method-link`, t.writeKey);
    expect(pending.status).toBe(409);
    expect(pending.body.status).toBe("pending_first_payment");

    const trialOffer = await makeOffer(t, { trialDays: 7 });
    const trial = await subscribe(trialOffer, {}, { pix: true });
    const noCard = await post(`/v1/subscriptions/${trial.subscription_id}/payment-method-link`, t.writeKey);
    expect(noCard.status).toBe(409);
    expect(noCard.body.error).toContain("trial without card");

    // A pending Pix checkout expires after 24 h and is canceled.
    await advanceClock(t, new Date(Date.now() + 2 * 86_400_000).toISOString());
    const canceled = await post(`/v1/subscriptions/${pix.subscription_id}/payment-method-link`, t.writeKey);
    expect(canceled.status).toBe(409);
    expect(canceled.body.status).toBe("canceled");
  });

  it("renewal-link: 201 with the default price (coupon applied) or price_cents; 400 for bad price_cents or unknown offer; 422 for another offer", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const res = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.stringMatching(/^pl_/), url: expect.any(String), price_cents: 4990, expires_at: expect.any(String), status: "active" });
    const expires = new Date(res.body.expires_at).getTime() - Date.now();
    expect(Math.abs(expires - 7 * 86_400_000)).toBeLessThan(60_000);

    const priced = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { price_cents: 1234, offer_id: t.monthlyOfferId });
    expect(priced.status).toBe(201);
    expect(priced.body.price_cents).toBe(1234);
    const form = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { price_cents: "777" }, { as: "form" });
    expect(form.status).toBe(201);
    expect(form.body.price_cents).toBe(777);

    for (const bad of [0, -5, 1.5, "abc", true]) {
      const r = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { price_cents: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const unknownOffer = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { offer_id: "offer_01JABCDEFGHJKMNPQRSTVWXYZ0" });
    expect(unknownOffer.status).toBe(400);
    expect(unknownOffer.body.code).toBe("invalid_id");
    const other = await newTenant();
    const foreign = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { offer_id: other.monthlyOfferId });
    expect(foreign.text).toBe(unknownOffer.text);
    const different = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { offer_id: t.yearlyOfferId });
    expect(different.status).toBe(422);
  });

  it("renewal-link: the default price is the next cycle with the active coupon", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "HALF", percentOff: 50, cycles: 3) { id } }`, { t: t.tenantId });
    const { subscription_id: id } = await subscribe(t.monthlyOfferId, { coupon: "HALF" });
    const sub = await subscription(t, id);
    const res = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey);
    expect(res.status).toBe(201);
    expect(res.body.price_cents).toBe(sub.next_charge_amount_cents);
    expect(res.body.price_cents).toBe(2495);
  });
});
