// Stripe scenarios (issue 18 item 5): the sandbox's refund and chargeback stories on the fake Stripe.
// Refunds go through POST /v1/payments/{id}/refund; at Stripe each is a Refund created under our refund's
// idempotency key, and one Stripe leaves pending is finished by its signed refund.updated notice. A Pix
// is refunded in full only. A dispute (charge.dispute.created) is a chargeback: access revoked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { gatewayEvents } from "../helpers/billing.ts";
import { get, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { startStripeTestbed } from "../helpers/stripe.ts";
import { deliver, eventAbout, eventsOf, paymentsOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

const prisma = async () => (await testService()).runtime.db.prisma;

/** The Stripe refunds made for a PaymentIntent, with the Idempotency-Key of the request that made each. */
function stripeRefunds(pi: string) {
  return [...fake.refunds.values()]
    .filter((r) => r.payment_intent === pi)
    .map((r) => ({ id: r.id, amount: r.amount, status: r.status, metadataKey: r.metadata?.idempotency_key, requestKey: fake.requests.find((q) => q.path === "/v1/refunds" && q.method === "POST" && q.status === 200 && q.params.metadata?.idempotency_key === r.metadata?.idempotency_key)?.idempotencyKey }));
}

describe("Stripe: refunds", () => {
  it("card: a partial refund Stripe leaves pending is finished by refund.updated; then the rest, total, cancels the subscription", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    const [payment] = await paymentsOf(s.subscriptionId);
    const pi = payment!.gatewayChargeId;

    fake.nextRefundStatus = "pending";
    let r;
    try {
      r = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "cobrança a mais", revoke: "none" });
    } finally {
      fake.nextRefundStatus = "succeeded";
    }
    expect(r.status).toBeLessThan(300);
    const pending = await (await prisma()).refund.findFirstOrThrow({ where: { paymentId: payment!.id } });
    expect(pending.status).toBe("PENDING");
    let theirs = stripeRefunds(pi);
    expect(theirs).toEqual([{ id: expect.stringMatching(/^re_/), amount: 1000, status: "pending", metadataKey: pending.idempotencyKey, requestKey: pending.idempotencyKey }]);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 0, refund_in_flight: true });

    fake.settleRefund(theirs[0]!.id, "succeeded");
    expect(await deliver(fake, s.accountId, eventAbout(fake, "refund.updated", pi))).toMatchObject({ status: 200, body: { result: "applied" } });
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 1000, refund_in_flight: false });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");

    // The rest, with the default revoke: total, the subscription ends.
    const rest = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 3990, reason: "desistência" });
    expect(rest.status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990, refund_in_flight: false });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    const ours = await (await prisma()).refund.findMany({ where: { paymentId: payment!.id }, orderBy: { id: "asc" } });
    theirs = stripeRefunds(pi);
    expect(theirs.map((x) => [x.amount, x.status, x.metadataKey, x.requestKey])).toEqual(ours.map((o) => [o.amountCents, "succeeded", o.idempotencyKey, o.idempotencyKey]));
    expect(fake.charges.get(fake.paymentIntents.get(pi)!.latest_charge)).toMatchObject({ amount_refunded: 4990, refunded: true });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "payment.refunded:active",
      "payment.refunded:canceled",
      "subscription.canceled:canceled",
    ]);
    // Asking again refunds nothing more at Stripe.
    const again = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1, reason: "de novo" });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(stripeRefunds(pi)).toHaveLength(2);
  });

  it("Pix: a partial refund is refused before Stripe is asked; the total one is made under our key", async () => {
    const s = await stripeSubscription(fake, "pix");
    const [payment] = await paymentsOf(s.subscriptionId);
    fake.payPix(payment!.gatewayChargeId);
    expect((await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", payment!.gatewayChargeId))).status).toBe(200);
    const calls = fake.requests.length;
    const partial = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "parcial", revoke: "none" });
    expect(partial.status).toBe(422);
    expect(JSON.stringify(partial.body)).toMatch(/Pix aceita apenas o reembolso total/);
    expect(fake.requests.slice(calls).filter((q) => q.path === "/v1/refunds" && q.method === "POST")).toHaveLength(0);

    const total = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 4990, reason: "total" });
    expect(total.status).toBeLessThan(300);
    const ours = await (await prisma()).refund.findFirstOrThrow({ where: { paymentId: payment!.id } });
    expect(stripeRefunds(payment!.gatewayChargeId)).toEqual([{ id: ours.gatewayRefundId, amount: 4990, status: "succeeded", metadataKey: ours.idempotencyKey, requestKey: ours.idempotencyKey }]);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990 });
  });
});

describe("Stripe: dispute", () => {
  it("charge.dispute.created: the payment is charged back, the subscription ends and access is revoked", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_createDispute" });
    const [payment] = await paymentsOf(s.subscriptionId);
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    const entitlements = () => get(`/v1/entitlements?external_id=${encodeURIComponent(sub.customer.external_id)}`, s.t.readKey);
    expect((await entitlements()).body.merged_entitlements).toEqual({ seats: 5, reports: true });

    const dispute = eventAbout(fake, "charge.dispute.created", payment!.gatewayChargeId);
    expect(await deliver(fake, s.accountId, dispute)).toMatchObject({ status: 200, body: { result: "applied" } });
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body.status).toBe("chargedback");
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    expect((await entitlements()).body.merged_entitlements).toEqual({});
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => e.kind)).toContain("chargeback");
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toContain("subscription.canceled:canceled");
    // Stripe delivers the same dispute again: a 200 duplicate, no second effect.
    const events = (await eventsOf(s.t.readKey, s.subscriptionId)).length;
    expect(await deliver(fake, s.accountId, dispute)).toMatchObject({ status: 200, body: { result: "duplicate" } });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toHaveLength(events);
  });
});
