// Contract of POST .../change-plan and .../cancel-plan-change: every documented status and body.
import { describe, expect, it } from "vitest";
import { advanceClock, makeOffer, subscribe } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { cancelPlanChange, changePlan } from "./plan-change-helpers.ts";

const UNKNOWN_SUB = "sub_01JABCDEFGHJKMNPQRSTVWXYZ0";
const UNKNOWN_OFFER = "offer_01JABCDEFGHJKMNPQRSTVWXYZ0";

async function activeSub() {
  const t = await newTenant();
  await advanceClock(t, "2027-03-01T00:00:00.000Z");
  const sub = await subscribe(t.monthlyOfferId);
  return { t, subId: sub.subscription_id };
}

describe("POST /v1/subscriptions/{id}/change-plan (contract)", () => {
  it("400 when offer_id is missing or keep_coupon is not a boolean", async () => {
    const { t, subId } = await activeSub();
    const missing = await changePlan(t, subId, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "offer_id is required", code: "invalid_body" });
    const wrongType = await changePlan(t, subId, { offer_id: t.yearlyOfferId, keep_coupon: "yes" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe("invalid_body");
  });

  it("403 for a read key and for a read-only account", async () => {
    const { t, subId } = await activeSub();
    const offer = await makeOffer(t, { priceCents: 9990 });
    const read = await changePlan(t, subId, { offer_id: offer }, t.readKey);
    expect(read.status).toBe(403);
    expect(read.body).toEqual({ error: expect.any(String), code: "insufficient_scope" });
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: t.tenantId });
    const locked = await changePlan(t, subId, { offer_id: offer });
    expect(locked.status).toBe(403);
    expect(locked.body).toEqual({ error: expect.any(String), code: "account_locked" });
    const lockedCancel = await cancelPlanChange(t, subId);
    expect(lockedCancel.status).toBe(403);
    expect(lockedCancel.body.code).toBe("account_locked");
  });

  it("404, byte-identical, for an unknown, foreign or malformed subscription, and for an unknown or foreign offer", async () => {
    const { t, subId } = await activeSub();
    const other = await activeSub();
    const reference = await get(`/v1/subscriptions/${UNKNOWN_SUB}`, t.readKey);
    for (const id of [UNKNOWN_SUB, other.subId, "sub_bad"]) {
      const r = await changePlan(t, id, { offer_id: t.yearlyOfferId });
      expect(r.status).toBe(404);
      expect(r.text).toBe(reference.text);
      const c = await cancelPlanChange(t, id);
      expect(c.status).toBe(404);
      expect(c.text).toBe(reference.text);
    }
    const offer404 = await changePlan(t, subId, { offer_id: UNKNOWN_OFFER });
    expect(offer404.status).toBe(404);
    for (const offerId of [other.t.yearlyOfferId, "offer_bad"]) {
      const r = await changePlan(t, subId, { offer_id: offerId });
      expect(r.status).toBe(404);
      expect(r.text).toBe(offer404.text);
    }
  });

  it("422 {error} for the same offer, a one-time offer and a subscription that is not active or trialing", async () => {
    const { t, subId } = await activeSub();
    const same = await changePlan(t, subId, { offer_id: t.monthlyOfferId });
    expect(same.status).toBe(422);
    expect(same.body.error).toBe("the subscription is already on this offer");
    const oneTime = await op(
      `mutation($t: ID!, $p: ID!) { createOneTimeOffer(tenantId: $t, planId: $p, name: "Pack", unitPriceCents: 1000, currency: "brl", gateway: "sandbox", grantDays: 30) { id } }`,
      { t: t.tenantId, p: t.planId },
    );
    const r = await changePlan(t, subId, { offer_id: oneTime.createOneTimeOffer.id });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("the offer is not a recurring offer");
    const pending = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const notActive = await changePlan(t, pending.subscription_id, { offer_id: t.yearlyOfferId });
    expect(notActive.status).toBe(422);
    expect(notActive.body.error).toBe("a pending_first_payment subscription cannot change plan");
  });

  it("200 {subscription, plan_change} with the contract's keys", async () => {
    const { t, subId } = await activeSub();
    const offer = await makeOffer(t, { priceCents: 4990 });
    const r = await changePlan(t, subId, { offer_id: offer, keep_coupon: false });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["plan_change", "subscription"]);
    expect(r.body.plan_change).toEqual({ kind: "crossgrade", effect: "immediate", charge_cents: 0, applies_at: "2027-03-01T00:00:00.000Z" });
    expect(r.body.subscription).toMatchObject({ subscription_id: subId, status: "active", pending_offer: null });
  });
});

describe("POST /v1/subscriptions/{id}/cancel-plan-change (contract)", () => {
  it("422 {error} when nothing is scheduled, 403 for a read key", async () => {
    const { t, subId } = await activeSub();
    const r = await cancelPlanChange(t, subId);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: "no plan change is scheduled", code: "invalid_argument" });
    const read = await cancelPlanChange(t, subId, t.readKey);
    expect(read.status).toBe(403);
    expect(read.body.code).toBe("insufficient_scope");
  });

  it("200 {subscription without pending_offer, plan_change} and subscription.plan_change_canceled", async () => {
    const { t, subId } = await activeSub();
    const cheaper = await makeOffer(t, { priceCents: 2990 });
    const scheduled = await changePlan(t, subId, { offer_id: cheaper });
    expect(scheduled.body.subscription.pending_offer).toMatchObject({ offer_id: cheaper, amount_cents: 2990, effective_at: "2027-04-01T00:00:00.000Z" });
    const r = await cancelPlanChange(t, subId);
    expect(r.status).toBe(200);
    expect(r.body.subscription.pending_offer).toBeNull();
    expect(r.body.subscription.next_charge_amount_cents).toBe(4990);
    expect(r.body.plan_change).toEqual({ kind: "downgrade", effect: "scheduled", charge_cents: 0, applies_at: "2027-04-01T00:00:00.000Z" });
    const evts = (await get(`/v1/events?type=subscription.plan_change_canceled`, t.readKey)).body.results;
    expect(evts).toHaveLength(1);
    expect(evts[0].data).toMatchObject({ subscription_id: subId, status: "active", pending_offer: null });
    const again = await cancelPlanChange(t, subId);
    expect(again.status).toBe(422);
  });
});
