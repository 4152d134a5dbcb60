// Locks the byte layout of the /v1 bodies (key order, nesting, value kinds) while the facade builds
// them from typed GraphQL selections: every body of a billing story is reduced to its
// shape signature and compared with the committed snapshot taken before the typed graph existed.
import { describe, expect, it } from "vitest";
import { CARDS, advanceClock, checkout, subscribe } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

/** Keys in order and the JSON kind of each value; array elements are listed one by one. */
function shape(v: unknown): unknown {
  if (v === null) return "null";
  if (Array.isArray(v)) return v.map(shape);
  if (typeof v === "object") return Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, shape(x)]);
  return typeof v;
}

describe("/v1 body layout", () => {
  it("keeps every route's body layout byte for byte (keys, order, kinds)", async () => {
    const t = await newTenant();
    const tracking = { utm_source: "news", utm_campaign: "nov", gclid: "g-1", landing_url: "https://shop.example/p?x=1", referrer: "https://ref.example/" };
    const sub = await subscribe(t.monthlyOfferId, tracking);
    const sid = sub.subscription_id;
    const ext = (await get(`/v1/subscriptions/${sid}`, t.readKey)).body.customer.external_id as string;
    const seen: Record<string, unknown> = {};
    const read = async (name: string, path: string, key = t.readKey) => {
      const r = await get(path, key);
      expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
      seen[name] = shape(r.body);
      return r.body;
    };
    const write = async (name: string, path: string, body: unknown = {}) => {
      const r = await post(path, t.writeKey, body);
      expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
      seen[name] = shape(r.body);
      return r.body;
    };

    await read("subscription", `/v1/subscriptions/${sid}`);
    await read("subscriptions", `/v1/subscriptions?limit=5`);
    await read("customerSubscriptions", `/v1/customers/${ext}/subscriptions`);
    const payments = await read("customerPayments", `/v1/customers/${ext}/payments`);
    await read("payment", `/v1/payments/${payments.results[0].payment_id}`);
    await read("gatewayEvents", `/v1/subscriptions/${sid}/gateway-events`);
    await read("entitlements", `/v1/entitlements?external_id=${ext}`);
    await read("referralLinkInactive", `/v1/referrals/link?external_id=${ext}`);
    await op(`mutation($t: ID!) { createReferralProgram(tenantId: $t, reward: {kind: "percent_next", value: 10, cycles: 1}, qualifyAfterPaidCycles: 1) { id } }`, { t: t.tenantId });
    const referral = await read("referralLink", `/v1/referrals/link?external_id=${ext}`);
    await subscribe(t.monthlyOfferId, { ref: referral.code });

    await write("updateCustomer", `/v1/customers/${ext}`, { name: "Maria S." });
    await write("updateCustomerEmail", `/v1/customers/${ext}/email`, { email: `${ext}-2@example.com` });
    await write("cancelAtPeriodEnd", `/v1/subscriptions/${sid}/cancel`, { at_period_end: true });
    await write("undoCancel", `/v1/subscriptions/${sid}/cancel/undo`);
    await write("changePlan", `/v1/subscriptions/${sid}/change-plan`, { offer_id: t.yearlyOfferId });
    await write("cancelPlanChange", `/v1/subscriptions/${sid}/cancel-plan-change`);
    await write("removeCoupon", `/v1/subscriptions/${sid}/remove-coupon`);
    await write("chargeNow", `/v1/subscriptions/${sid}/charge-now`);
    await write("paymentMethodLink", `/v1/subscriptions/${sid}/payment-method-link`);
    await write("renewalLink", `/v1/subscriptions/${sid}/renewal-link`);
    const paymentId = payments.results[0].payment_id as string;
    await write("refund", `/v1/payments/${paymentId}/refund`, { amount_cents: 100, reason: "goodwill" });
    await read("paymentRefunded", `/v1/payments/${paymentId}`);

    // A Pix subscription with a due renewal: the open invoice's payment link.
    const pix = await subscribe(t.monthlyOfferId, {}, { pix: true });
    expect(pix.pix).not.toBeNull();
    // One-time order by Pix left pending: its payment link.
    const { createOneTimeOffer } = await op(
      `mutation($t: ID!, $p: ID!) { createOneTimeOffer(tenantId: $t, planId: $p, name: "Pack", unitPriceCents: 990, currency: "brl", gateway: "sandbox", grantDays: 30, renewsSubscription: false) { id } }`,
      { t: t.tenantId, p: t.planId },
    );
    const order = await checkout(createOneTimeOffer.id, {}, { pix: true });
    expect(order.body.order_id).toBeTruthy();
    await read("orderPaymentLink", `/v1/orders/${order.body.order_id}/payment-link`);
    // A paid one-time order (order.paid event data) and a declined renewal (invoice.payment_failed).
    await checkout(createOneTimeOffer.id, {});
    const byType = new Map<string, unknown>();
    const readEvents = async () => {
      let after: string | null = null;
      do {
        const page = await get(`/v1/events?limit=100${after ? `&after=${after}` : ""}`, t.readKey);
        for (const e of page.body.results as { type: string }[]) if (!byType.has(e.type)) byType.set(e.type, shape(e));
        after = page.body.next;
      } while (after);
    };
    await readEvents();
    const failing = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    await advanceClock(t, "2027-01-15T00:00:00Z");
    await read("failingSubscription", `/v1/subscriptions/${failing.subscription_id}`);
    await read("subscriptionPaymentLink", `/v1/subscriptions/${failing.subscription_id}/payment-link`);
    await write("reschedule", `/v1/subscriptions/${sid}/reschedule`, { next_billing_at: "2028-01-10T00:00:00Z" });

    const { createRenewalCampaign } = await op(
      `mutation($t: ID!, $o: ID!) { createRenewalCampaign(tenantId: $t, offerId: $o, priceCents: 3990, bonusCycles: 1, bonusUnit: "month") { id } }`,
      { t: t.tenantId, o: t.monthlyOfferId },
    );
    await read("campaignLink", `/v1/renewal-campaigns/${createRenewalCampaign.id}/link?external_id=${ext}`, t.writeKey);
    await read("campaignLinks", `/v1/renewal-campaigns/${createRenewalCampaign.id}/links`);

    // Every event type met in the story, one element each (the data layout per type).
    await readEvents();
    seen.events = [...byType.entries()].sort(([a], [b]) => a.localeCompare(b));
    expect(seen).toMatchSnapshot();
  }, 60_000);
});
