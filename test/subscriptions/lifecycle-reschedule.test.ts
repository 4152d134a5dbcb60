// POST /v1/subscriptions/{id}/reschedule and .../remove-coupon: status codes, bodies, events, and
// the billing run following the new date (the cadence moves with it) or the removed discount.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, EventLog, events, gatewayEvents, makeOffer, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { setReadOnly, UNKNOWN_SUB } from "./lifecycle-helpers.ts";

const reschedule = (id: string, key: string, body?: unknown) => post(`/v1/subscriptions/${id}/reschedule`, key, body);
const removeCoupon = (id: string, key: string) => post(`/v1/subscriptions/${id}/remove-coupon`, key);

describe("POST /v1/subscriptions/{id}/reschedule", () => {
  it("moves the next charge: 200 {subscription, next_billing_at}, subscription.updated; the charge lands on the new date and the next one a cycle later", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-01-31T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    const log = new EventLog(t);
    const r = await reschedule(sub.subscription_id, t.writeKey, { next_billing_at: "2027-02-10T09:00:00-03:00" });
    expect(r.status).toBe(200);
    expect(r.body.next_billing_at).toBe("2027-02-10T12:00:00.000Z");
    expect(r.body.subscription).toMatchObject({ subscription_id: sub.subscription_id, status: "active", current_period_end: "2027-02-10T12:00:00.000Z" });
    await log.collect();
    const updated = log.seen.filter((e) => e.type === "subscription.updated");
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data.current_period_end).toBe("2027-02-10T12:00:00.000Z");

    const early = await log.advance("2027-02-10T11:59:00.000Z");
    expect(early.renewed).toBe(0);
    const passed = await log.advance("2027-03-11T00:00:00.000Z");
    expect(passed.renewed).toBe(2);
    const charges = (await gatewayEvents(t, sub.subscription_id)).filter((e) => e.kind === "charge_card").map((e) => e.created_at);
    expect(charges).toEqual(["2027-01-31T12:00:00.000Z", "2027-02-10T12:00:00.000Z", "2027-03-10T12:00:00.000Z"]);
    expect((await subscription(t, sub.subscription_id)).current_period_end).toBe("2027-04-10T12:00:00.000Z");
  });

  it("moves a trial's end: the first charge runs there and the cadence follows", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-05-01T08:00:00.000Z");
    const offerId = await makeOffer(t, { trialDays: 14 });
    const sub = await subscribe(offerId);
    const r = await reschedule(sub.subscription_id, t.writeKey, { next_billing_at: "2027-05-20T08:00:00Z" });
    expect(r.status).toBe(200);
    expect(r.body.subscription).toMatchObject({ status: "trialing", current_period_end: null });
    expect(r.body.next_billing_at).toBe("2027-05-20T08:00:00.000Z");
    const passed = await advanceClock(t, "2027-05-25T00:00:00.000Z");
    expect(passed.renewed).toBe(1);
    expect(await subscription(t, sub.subscription_id)).toMatchObject({ status: "active", current_period_end: "2027-06-20T08:00:00.000Z" });
  });

  it("400 data_invalida and data_passada", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    for (const body of [{}, { next_billing_at: "" }, { next_billing_at: "amanhã" }, { next_billing_at: "2027-02-30T10:00:00Z" }, { next_billing_at: "2027-04-01T10:00:00" }, { next_billing_at: 1800000000 }]) {
      const r = await reschedule(sub.subscription_id, t.writeKey, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ code: "data_invalida" });
      expect(typeof r.body.error).toBe("string");
    }
    // Past on the tenant's clock (2027), even though it is in the wall clock's future.
    for (const when of ["2027-03-10T10:00:00Z", "2027-03-01T00:00:00Z"]) {
      const r = await reschedule(sub.subscription_id, t.writeKey, { next_billing_at: when });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "data_passada" });
    }
    expect((await events(t, "subscription.updated")).length).toBe(0);
  });

  it("422 code status for statuses other than active and trialing", async () => {
    const t = await newTenant();
    const pending = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const r = await reschedule(pending.subscription_id, t.writeKey, { next_billing_at: "2099-01-01T00:00:00Z" });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: "status", status: "pending_first_payment" });

    const active = await subscribe(t.monthlyOfferId);
    await post(`/v1/subscriptions/${active.subscription_id}/cancel`, t.writeKey);
    const c = await reschedule(active.subscription_id, t.writeKey, { next_billing_at: "2099-01-01T00:00:00Z" });
    expect(c.status).toBe(422);
    expect(c.body).toMatchObject({ code: "status", status: "canceled" });
  });

  it("409 fatura_em_voo while the cycle's Pix QR is open; allowed again once paid", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    await advanceClock(t, "2027-04-28T12:00:00.000Z");
    const r = await reschedule(sub.subscription_id, t.writeKey, { next_billing_at: "2027-05-10T12:00:00Z" });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "fatura_em_voo" });
    const open = await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey);
    await payPix(open.body.pix.copy_paste);
    const ok = await reschedule(sub.subscription_id, t.writeKey, { next_billing_at: "2027-06-10T12:00:00Z" });
    expect(ok.status).toBe(200);
    // Pix: the QR comes 3 days before the new date.
    const passed = await advanceClock(t, "2027-06-07T12:00:00.000Z");
    expect(passed.pixIssued).toBe(1);
  });

  it("403 for a read key and account_locked in read-only mode; 404 identical", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const body = { next_billing_at: "2099-01-01T00:00:00Z" };
    expect((await reschedule(sub.subscription_id, t.readKey, body)).body.code).toBe("insufficient_scope");
    const foreign = await reschedule(sub.subscription_id, other.writeKey, body);
    expect(foreign.status).toBe(404);
    expect((await reschedule(UNKNOWN_SUB, other.writeKey, body)).text).toBe(foreign.text);
    expect((await reschedule("sub_x", other.writeKey, body)).text).toBe(foreign.text);
    await setReadOnly(t, true);
    const locked = await reschedule(sub.subscription_id, t.writeKey, body);
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe("account_locked");
    await setReadOnly(t, false);
  });
});

describe("POST /v1/subscriptions/{id}/remove-coupon", () => {
  async function couponTenant() {
    const t = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "OFF20", percentOff: 20) { id } }`, { t: t.tenantId });
    return t;
  }

  it("{removed: n} with subscription.updated; the next charge and later renewals are not discounted", async () => {
    const t = await couponTenant();
    await advanceClock(t, "2027-01-10T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { coupon: "OFF20" });
    expect((await subscription(t, sub.subscription_id)).next_charge_amount_cents).toBe(3992);
    const r = await removeCoupon(sub.subscription_id, t.writeKey);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ removed: 1 });
    expect((await subscription(t, sub.subscription_id)).next_charge_amount_cents).toBe(4990);
    const updated = (await events(t, "subscription.updated")).filter((e) => e.data.subscription_id === sub.subscription_id);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data.next_charge_amount_cents).toBe(4990);

    // Nothing left to remove: {removed: 0} and no event.
    expect((await removeCoupon(sub.subscription_id, t.writeKey)).body).toEqual({ removed: 0 });
    expect((await events(t, "subscription.updated")).length).toBe(1);

    const log = new EventLog(t);
    await log.advance("2027-03-11T00:00:00.000Z");
    const paid = log.seen.filter((e) => e.type === "invoice.paid").map((e) => e.data.last_payment.amount_cents);
    expect(paid).toEqual([3992, 4990, 4990]); // the checkout was discounted; the renewals after removal are not
  });

  it("403 read key, account_locked in read-only mode, 404 identical", async () => {
    const t = await couponTenant();
    const other = await newTenant();
    const sub = await subscribe(t.monthlyOfferId, { coupon: "OFF20", card_number: CARDS.ok });
    expect((await removeCoupon(sub.subscription_id, t.readKey)).body.code).toBe("insufficient_scope");
    const foreign = await removeCoupon(sub.subscription_id, other.writeKey);
    expect(foreign.status).toBe(404);
    expect((await removeCoupon(UNKNOWN_SUB, other.writeKey)).text).toBe(foreign.text);
    expect((await removeCoupon("nope", other.writeKey)).text).toBe(foreign.text);
    await setReadOnly(t, true);
    const locked = await removeCoupon(sub.subscription_id, t.writeKey);
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe("account_locked");
    await setReadOnly(t, false);
    expect((await removeCoupon(sub.subscription_id, t.writeKey)).body).toEqual({ removed: 1 });
  });
});
