// Refund and chargeback stories: partial then total, a renewal-advance order refunded (its time
// taken back), a grant revoked, a courtesy refund, chargebacks, and 20 refunds racing.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, checkout, events, gatewayEvents, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, payJson, tokenOf } from "../links/pay-helpers.ts";
import { oneTimeOffer } from "../orders/order-helpers.ts";
import { paidSubscription, payment, refund } from "./refund-helpers.ts";

const T0 = "2027-03-01T12:00:00.000Z";
const REASON = "cliente pediu";
const grantsOf = async (t: { tenantId: string }, externalId: string) =>
  (await op(`query($t: ID!, $e: String!) { customerGrants(tenantId: $t, externalId: $e) { orderId revokedAt } }`, { t: t.tenantId, e: externalId })).customerGrants;

describe("refund scenarios", () => {
  it("a partial then a total refund on a gateway that sums refunds", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const { subscriptionId, paymentId } = await paidSubscription(t);

    const partial = await refund(t, paymentId, { amount_cents: 1000, reason: "desconto combinado" });
    expect(partial.body).toEqual({ level: "success", message: "reembolso de 1000 centavos confirmado" });
    expect(await payment(t, paymentId)).toMatchObject({ status: "paid", refunded_amount_cents: 1000, refund_in_flight: false, refund_reason: "desconto combinado" });
    expect((await subscription(t, subscriptionId)).status).toBe("active");
    const first = (await events(t, "payment.refunded"))[0]!;
    expect(first.data).toMatchObject({ subscription_id: subscriptionId, status: "active", last_payment: { payment_id: paymentId, status: "paid" } });

    const total = await refund(t, paymentId, { amount_cents: 3990, reason: REASON });
    expect(total.body.level).toBe("success");
    expect(total.body.message).toMatch(/assinatura foi cancelada/);
    const row = await payment(t, paymentId);
    expect(row).toMatchObject({ status: "refunded", refunded_amount_cents: 4990, refund_in_flight: false, refund_reason: REASON });
    expect(row.items).toEqual([expect.objectContaining({ kind: "plan", amount_cents: 4990, refunded_amount_cents: 4990, refunded: true })]);
    expect((await subscription(t, subscriptionId)).status).toBe("canceled");
    const types = (await events(t)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["payment.refunded", "payment.refunded", "subscription.canceled"]);
    const last = (await events(t, "payment.refunded"))[1]!;
    expect(last.data).toMatchObject({ status: "canceled", last_payment: { payment_id: paymentId, status: "refunded" } });
    const refunds = (await gatewayEvents(t, subscriptionId)).filter((e) => e.kind === "refund");
    expect(refunds.map((e) => [e.outcome, e.amount_cents])).toEqual([["refunded", 1000], ["refunded", 3990]]);
  });

  it("a courtesy refund (revoke none) returns everything and keeps the subscription", async () => {
    const t = await newTenant();
    const { subscriptionId, paymentId } = await paidSubscription(t);
    const res = await refund(t, paymentId, { amount_cents: 4990, reason: REASON, revoke: "none" });
    expect(res.body.level).toBe("success");
    expect((await payment(t, paymentId)).status).toBe("refunded");
    expect((await subscription(t, subscriptionId)).status).toBe("active");
    expect((await events(t)).map((e) => e.type).at(-1)).toBe("payment.refunded");
  });

  it("a total refund of a renewal-advance order takes back the cycle it added", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const { subscriptionId } = await paidSubscription(t);
    const link = await post(`/v1/subscriptions/${subscriptionId}/renewal-link`, t.writeKey, {});
    expect(link.status).toBe(201);
    const paid = await payJson(tokenOf(link.body.url), { ...CARD(CARDS.ok), method: "card" });
    expect(paid.body.status).toBe("paid");
    expect((await subscription(t, subscriptionId)).current_period_end).toBe("2027-05-01T12:00:00.000Z");
    const order = (await events(t, "order.paid"))[0]!.data;

    await advanceClock(t, "2027-03-10T12:00:00.000Z");
    const res = await refund(t, order.payment.payment_id, { amount_cents: order.amount_cents, reason: REASON });
    expect(res.body.level).toBe("success");
    const sub = await subscription(t, subscriptionId);
    expect(sub).toMatchObject({ status: "active", current_period_end: "2027-04-01T12:00:00.000Z" });
    const types = (await events(t)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["payment.refunded", "order.refunded", "subscription.updated"]);
    const refunded = (await events(t, "order.refunded"))[0]!;
    expect(refunded.data).toMatchObject({ order_id: order.order_id, status: "refunded", target_subscription_id: subscriptionId });
    // The renewal falls due again at the old period end and is charged there.
    const summary = await advanceClock(t, "2027-04-01T12:00:00.000Z");
    expect(summary.renewed).toBe(1);
    expect((await subscription(t, subscriptionId)).current_period_end).toBe("2027-05-01T12:00:00.000Z");
  });

  it("a total refund of a grant order revokes the grant; a partial one keeps it", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const offerId = await oneTimeOffer(t, { unitPriceCents: 1500, grantDays: 30 });
    const bought = await checkout(offerId, { quantity: "3", external_id: "buyer-1", email: "buyer-1@example.com" });
    expect(bought.status).toBe(201);
    const order = (await events(t, "order.paid"))[0]!.data;
    const paymentId = order.payment.payment_id;
    expect((await refund(t, paymentId, { amount_cents: 1500, reason: REASON })).status).toBe(200);
    expect((await grantsOf(t, "buyer-1"))[0].revokedAt).toBeNull();
    expect((await events(t, "payment.refunded"))[0]!.data).toMatchObject({ order_id: order.order_id, status: "paid" });

    const res = await refund(t, paymentId, { amount_cents: 3000, reason: REASON });
    expect(res.body.message).toMatch(/revogado/);
    expect((await grantsOf(t, "buyer-1"))[0].revokedAt).toBe(T0);
    const types = (await events(t)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["payment.refunded", "order.refunded"]);
    expect((await events(t, "order.refunded"))[0]!.data).toMatchObject({ status: "refunded", quantity: 3, grant_days: 30 });
  });

  it("20 concurrent refunds of the full amount: exactly one succeeds, the gateway refunds once", async () => {
    const t = await newTenant();
    const { subscriptionId, paymentId } = await paidSubscription(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(t, paymentId, { amount_cents: 4990, reason: REASON })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.level).toBe("error");
    expect(await payment(t, paymentId)).toMatchObject({ status: "refunded", refunded_amount_cents: 4990, refund_in_flight: false });
    expect((await gatewayEvents(t, subscriptionId)).filter((e) => e.kind === "refund")).toHaveLength(1);
    expect((await events(t, "payment.refunded"))).toHaveLength(1);
    expect((await events(t, "subscription.canceled"))).toHaveLength(1);
  });
});

describe("chargebacks", () => {
  it("a chargeback on a subscription payment cancels the subscription, as a total refund would", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const { subscriptionId, paymentId } = await paidSubscription(t, CARDS.chargeback);
    const summary = await advanceClock(t, "2027-03-02T12:00:00.000Z"); // the 0259 card is charged back a day later
    expect(summary.chargebacks).toBe(1);
    expect((await payment(t, paymentId)).status).toBe("chargedback");
    expect((await subscription(t, subscriptionId)).status).toBe("canceled");
    expect((await events(t)).map((e) => e.type).at(-1)).toBe("subscription.canceled");
    expect((await gatewayEvents(t, subscriptionId)).map((e) => `${e.kind}:${e.outcome}`).at(-1)).toBe("chargeback:refunded");
    // A charged-back payment cannot be refunded.
    expect((await refund(t, paymentId, { amount_cents: 4990, reason: REASON })).status).toBe(422);
  });

  it("a chargeback on an order payment revokes its grant (order.refunded)", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    await checkout(await oneTimeOffer(t), { external_id: "buyer-2", email: "buyer-2@example.com" });
    const order = (await events(t, "order.paid"))[0]!.data;
    const cb = await op(`mutation($p: ID!) { simulateChargeback(paymentId: $p) { id } }`, { p: order.payment.payment_id });
    expect(cb.simulateChargeback.id).toBe(order.payment.payment_id);
    expect((await payment(t, order.payment.payment_id)).status).toBe("chargedback");
    expect((await grantsOf(t, "buyer-2"))[0].revokedAt).toBe(T0);
    const refunded = (await events(t, "order.refunded"))[0]!;
    expect(refunded.data).toMatchObject({ order_id: order.order_id, status: "refunded", payment: { status: "chargedback" } });
  });
});
