// Plan-change stories on a sandbox clock: exact prorations, scheduled changes applied by the billing
// run, interval changes, Pix, the gateway minimum, another gateway, concurrency and declines.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, EventLog, gatewayEvents, makeOffer, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { cancelPlanChange, changePlan, gatewayAccount, offerOn } from "./plan-change-helpers.ts";

const START = "2027-03-01T00:00:00.000Z";
const PERIOD_END = "2027-04-01T00:00:00.000Z";
/** 10.25 days into a 31-day period: 20.75 days = 1,792,800 s left of 2,678,400 s. */
const MID = "2027-03-11T06:00:00.000Z";
const LEFT = 1_792_800;
const TOTAL = 2_678_400;
const halfUp = (cents: number) => Math.floor((2 * cents * LEFT + TOTAL) / (2 * TOTAL));

async function midCycle(fields: Record<string, string> = {}, offerId?: (t: TestTenant) => Promise<string>) {
  const t = await newTenant();
  await advanceClock(t, START);
  const sub = await subscribe(offerId ? await offerId(t) : t.monthlyOfferId, fields);
  await advanceClock(t, MID);
  return { t, subId: sub.subscription_id };
}

const chargeCount = async (t: TestTenant, subId: string) => (await gatewayEvents(t, subId)).filter((e) => e.kind === "charge_card").length;
const eventTypes = async (t: TestTenant, subId: string) =>
  (await get(`/v1/events?limit=500`, t.readKey)).body.results.filter((e: any) => e.data?.subscription_id === subId).map((e: any) => e.type);

describe("change-plan scenarios", () => {
  it("upgrades mid-cycle at once, charging the exact proration on the saved card", async () => {
    const { t, subId } = await midCycle();
    const pro = await makeOffer(t, { priceCents: 9990 });
    const r = await changePlan(t, subId, { offer_id: pro });
    expect(halfUp(5000)).toBe(3347); // 5000 × 1,792,800 / 2,678,400 = 3346.77
    expect(r.status).toBe(200);
    expect(r.body.plan_change).toEqual({ kind: "upgrade", effect: "immediate", charge_cents: 3347, applies_at: MID });
    expect(r.body.subscription).toMatchObject({ status: "active", current_period_end: PERIOD_END, next_charge_amount_cents: 9990, pending_offer: null });
    expect(r.body.subscription.last_payment).toMatchObject({ status: "paid", amount_cents: 3347, paid_at: MID });
    expect(await chargeCount(t, subId)).toBe(2);
    expect(await eventTypes(t, subId)).toEqual(["subscription.activated", "invoice.paid", "subscription.plan_changed", "invoice.paid"]);
    const payment = await get(`/v1/payments/${r.body.subscription.last_payment.payment_id}`, t.readKey);
    expect(payment.body.items).toEqual([expect.objectContaining({ kind: "proration", amount_cents: 3347 })]);
    // The next renewal is at the new price.
    expect((await advanceClock(t, "2027-04-01T00:00:01.000Z")).renewed).toBe(1);
    expect((await subscription(t, subId)).last_payment).toMatchObject({ amount_cents: 9990, paid_at: PERIOD_END });
  });

  it("schedules a downgrade for the period end; the billing run applies it and charges the new price", async () => {
    const { t, subId } = await midCycle();
    const lite = await makeOffer(t, { priceCents: 2990 });
    const r = await changePlan(t, subId, { offer_id: lite });
    expect(r.body.plan_change).toEqual({ kind: "downgrade", effect: "scheduled", charge_cents: 0, applies_at: PERIOD_END });
    expect(r.body.subscription.pending_offer).toEqual({
      offer_id: lite, plan_id: t.planId, plan_name: "Pro", interval: "month", amount_cents: 2990, effective_at: PERIOD_END,
    });
    expect(r.body.subscription.next_charge_amount_cents).toBe(2990);
    const log = new EventLog(t);
    const summary = await log.advance("2027-04-02T00:00:00.000Z");
    expect(summary.renewed).toBe(1);
    const after = await subscription(t, subId);
    expect(after).toMatchObject({ status: "active", pending_offer: null, current_period_end: "2027-05-01T00:00:00.000Z", next_charge_amount_cents: 2990 });
    expect(after.last_payment).toMatchObject({ amount_cents: 2990, paid_at: PERIOD_END });
    expect(log.of(subId).slice(-3)).toEqual(["subscription.plan_change_scheduled:active", "subscription.plan_changed:active", "invoice.paid:active"]);
  });

  it("monthly to yearly: charges the yearly price less the unused credit and starts a yearly period now", async () => {
    const { t, subId } = await midCycle();
    const yearly = await makeOffer(t, { interval: "YEAR", priceCents: 69900 }); // 69,900 > 12 × 4,990: a rise
    const credit = halfUp(4990); // 4990 × 1,792,800 / 2,678,400 = 3340.08
    expect(credit).toBe(3340);
    const r = await changePlan(t, subId, { offer_id: yearly });
    expect(r.body.plan_change).toEqual({ kind: "interval_change", effect: "immediate", charge_cents: 69900 - 3340, applies_at: MID });
    expect(r.body.subscription).toMatchObject({ interval: "year", current_period_end: "2028-03-11T06:00:00.000Z", next_charge_amount_cents: 69900 });
    expect(r.body.subscription.last_payment.amount_cents).toBe(66560);
  });

  it("monthly to a yearly offer worth less than 12 months is scheduled", async () => {
    const { t, subId } = await midCycle();
    const r = await changePlan(t, subId, { offer_id: t.yearlyOfferId }); // 49,900 < 59,880
    expect(r.body.plan_change).toEqual({ kind: "interval_change", effect: "scheduled", charge_cents: 0, applies_at: PERIOD_END });
  });

  it("yearly to monthly: scheduled when the annualized value falls, credit time when it rises", async () => {
    const t = await newTenant();
    await advanceClock(t, START);
    const sub = await subscribe(t.yearlyOfferId);
    const cheaper = await makeOffer(t, { priceCents: 3990 }); // 47,880 < 49,900
    const falls = await changePlan(t, sub.subscription_id, { offer_id: cheaper });
    expect(falls.body.plan_change).toEqual({ kind: "interval_change", effect: "scheduled", charge_cents: 0, applies_at: "2028-03-01T00:00:00.000Z" });
    // 59,880 > 49,900: the whole unused year (49,900 credit) buys 49,900 / 4,990 = 10 months of 31 days = 310 days.
    const rises = await changePlan(t, sub.subscription_id, { offer_id: t.monthlyOfferId });
    expect(rises.body.plan_change).toEqual({ kind: "interval_change", effect: "immediate", charge_cents: 0, applies_at: START });
    expect(rises.body.subscription).toMatchObject({ interval: "month", current_period_end: "2028-01-05T00:00:00.000Z", pending_offer: null });
  });

  it("cancel-plan-change keeps the old price at renewal", async () => {
    const { t, subId } = await midCycle();
    const lite = await makeOffer(t, { priceCents: 2990 });
    await changePlan(t, subId, { offer_id: lite });
    expect((await cancelPlanChange(t, subId)).status).toBe(200);
    await advanceClock(t, "2027-04-02T00:00:00.000Z");
    expect((await subscription(t, subId)).last_payment.amount_cents).toBe(4990);
  });

  it("schedules an upgrade of a Pix subscription (a change that charges needs a saved card)", async () => {
    const t = await newTenant();
    await advanceClock(t, START);
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    await advanceClock(t, MID);
    const pro = await makeOffer(t, { priceCents: 9990 });
    const r = await changePlan(t, sub.subscription_id, { offer_id: pro });
    expect(r.status).toBe(200);
    expect(r.body.plan_change).toEqual({ kind: "upgrade", effect: "scheduled", charge_cents: 0, applies_at: PERIOD_END });
    expect(r.body.subscription.pending_offer.offer_id).toBe(pro);
  });

  it("applies a proration below the gateway's minimumChargeCents at once, without charge", async () => {
    const t = await newTenant();
    const gwa = await gatewayAccount(t, "high-minimum", { minimumChargeCents: 1000 });
    await advanceClock(t, START);
    const base = await offerOn(t, gwa, 4990);
    const plus = await offerOn(t, gwa, 5990);
    const sub = await subscribe(base);
    await advanceClock(t, MID);
    const r = await changePlan(t, sub.subscription_id, { offer_id: plus });
    expect(halfUp(1000)).toBe(669);
    expect(r.body.plan_change).toEqual({ kind: "upgrade", effect: "immediate", charge_cents: 0, applies_at: MID });
    expect(r.body.subscription.next_charge_amount_cents).toBe(5990);
    expect(await chargeCount(t, sub.subscription_id)).toBe(1);
  });

  it("an offer of another gateway gives a payment link and subscription.migration_link_issued; paying it moves the subscription", async () => {
    const { t, subId } = await midCycle();
    const gwa = await gatewayAccount(t, "other-gateway");
    const there = await offerOn(t, gwa, 5990);
    const r = await changePlan(t, subId, { offer_id: there });
    expect(r.status).toBe(200);
    expect(r.body.plan_change).toMatchObject({ kind: "gateway_migration", effect: "payment_link", charge_cents: 0, applies_at: null });
    const link = r.body.plan_change.payment_link;
    expect(link).toEqual({ url: expect.stringMatching(/^http:\/\/localhost\/pay\/pl_[0-9A-Za-z]{32}$/), offer_id: there, expires_at: "2027-03-18T06:00:00.000Z" });
    expect(r.body.subscription).toMatchObject({ next_charge_amount_cents: 4990, pending_offer: null });
    const issued = (await get(`/v1/events?type=subscription.migration_link_issued`, t.readKey)).body.results;
    expect(issued).toHaveLength(1);
    expect(issued[0].data).toMatchObject({ subscription_id: subId, migration_link: link });

    // The customer pays it on the hosted /pay page with a card for the new gateway.
    const token = tokenOf(link.url);
    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="card_number"');
    const paid = await payJson(token, CARD(CARDS.ok));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", subscription_status: "active", card: { last4: "4242" } });
    const after = await subscription(t, subId);
    expect(after).toMatchObject({ status: "active", current_period_end: "2027-04-11T06:00:00.000Z", next_charge_amount_cents: 5990 });
    expect(after.last_payment).toMatchObject({ amount_cents: 5990 - halfUp(4990), status: "paid" }); // new price less the unused credit
    const types = (await get(`/v1/events`, t.readKey)).body.results.map((e: { type: string }) => e.type);
    expect(types.slice(-2)).toEqual(["subscription.plan_changed", "invoice.paid"]);
    const again = await payJson(token, CARD(CARDS.ok));
    expect(again.status).toBe(410);
  });

  it("cancel-plan-change also withdraws an open migration link", async () => {
    const { t, subId } = await midCycle();
    const there = await offerOn(t, await gatewayAccount(t, "elsewhere"), 5990);
    await changePlan(t, subId, { offer_id: there });
    const r = await cancelPlanChange(t, subId);
    expect(r.status).toBe(200);
    expect(r.body.plan_change).toMatchObject({ kind: "gateway_migration", effect: "payment_link" });
    expect((await cancelPlanChange(t, subId)).status).toBe(422);
  });

  it("keep_coupon carries the coupon to the new offer; without it the coupon is dropped", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "HALF", percentOff: 50) { id } }`, { t: t.tenantId });
    await advanceClock(t, START);
    const sub = await subscribe(t.monthlyOfferId, { coupon: "HALF" });
    expect((await subscription(t, sub.subscription_id)).next_charge_amount_cents).toBe(2495);
    const a = await makeOffer(t, { priceCents: 4990 });
    const kept = await changePlan(t, sub.subscription_id, { offer_id: a, keep_coupon: true });
    expect(kept.body.subscription.next_charge_amount_cents).toBe(2495);
    const dropped = await changePlan(t, sub.subscription_id, { offer_id: t.monthlyOfferId });
    expect(dropped.body.subscription.next_charge_amount_cents).toBe(4990);
  });

  it("a trial changes at once and free, staying in its trial", async () => {
    const t = await newTenant();
    await advanceClock(t, START);
    const trialOffer = await makeOffer(t, { priceCents: 4990, trialDays: 7 });
    const sub = await subscribe(trialOffer);
    expect(sub.status).toBe("trialing");
    const r = await changePlan(t, sub.subscription_id, { offer_id: t.yearlyOfferId });
    expect(r.body.plan_change).toEqual({ kind: "interval_change", effect: "immediate", charge_cents: 0, applies_at: START });
    expect(r.body.subscription).toMatchObject({ status: "trialing", interval: "year", next_charge_amount_cents: 49900 });
  });

  it("a declined proration answers 422 and changes nothing", async () => {
    const { t, subId } = await midCycle({ card_number: CARDS.laterDeclines });
    const before = await subscription(t, subId);
    const pro = await makeOffer(t, { priceCents: 9990 });
    const r = await changePlan(t, subId, { offer_id: pro });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("the proration charge was declined (insufficient_funds); the plan was not changed");
    expect(await subscription(t, subId)).toEqual(before);
    expect(await eventTypes(t, subId)).toEqual(["subscription.activated", "invoice.paid"]);
    // The voided proration blocks nothing: a retry at the same instant is charged (and declined) again.
    const retry = await changePlan(t, subId, { offer_id: pro });
    expect(retry.status).toBe(422);
    expect(await chargeCount(t, subId)).toBe(3);
  });

  it("two concurrent upgrades end in one change and one proration charge", async () => {
    const { t, subId } = await midCycle();
    const pro = await makeOffer(t, { priceCents: 9990 });
    const answers = await Promise.all([changePlan(t, subId, { offer_id: pro }), changePlan(t, subId, { offer_id: pro })]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    expect([409, 422]).toContain(statuses[1]);
    expect(await chargeCount(t, subId)).toBe(2); // checkout + one proration
    expect((await eventTypes(t, subId)).filter((e: string) => e === "subscription.plan_changed")).toHaveLength(1);
    expect((await subscription(t, subId)).next_charge_amount_cents).toBe(9990);
  });

  it("a cancel during an upgrade ends in one consistent state", async () => {
    const { t, subId } = await midCycle();
    const pro = await makeOffer(t, { priceCents: 9990 });
    const [change, cancel] = await Promise.all([changePlan(t, subId, { offer_id: pro }), post(`/v1/subscriptions/${subId}/cancel`, t.writeKey, {})]);
    expect(cancel.status).toBe(200);
    const after = await subscription(t, subId);
    expect(after.status).toBe("canceled");
    const changed = (await eventTypes(t, subId)).filter((e: string) => e === "subscription.plan_changed").length;
    if (change.status === 200) {
      // The change won the lock: it was applied (and charged once) before the cancel.
      expect(changed).toBe(1);
      expect(after.next_charge_amount_cents).toBe(9990);
    } else {
      expect([409, 422]).toContain(change.status);
      expect(changed).toBe(0);
    }
    expect(await chargeCount(t, subId)).toBeLessThanOrEqual(2);
  });
});
