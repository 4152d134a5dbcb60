// Stripe's own refunds (the refund and dispute stories every provider walks are the contract suite's:
// test/gateways/contract/refunds-dispute.test.ts): a refund Stripe leaves pending stays in flight on /v1
// until its signed refund.updated notice finishes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { get, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { startStripeTestbed } from "../helpers/stripe.ts";
import { deliver, eventAbout, paymentsOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

describe("Stripe: a pending refund", () => {
  it("card: a partial refund Stripe leaves pending is in flight until refund.updated finishes it, under our key", async () => {
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
    const pending = await (await testService()).runtime.db.prisma.refund.findFirstOrThrow({ where: { paymentId: payment!.id } });
    expect(pending.status).toBe("PENDING");
    const theirs = [...fake.refunds.values()].filter((x) => x.payment_intent === pi);
    expect(theirs).toEqual([expect.objectContaining({ id: expect.stringMatching(/^re_/), amount: 1000, status: "pending", metadata: expect.objectContaining({ idempotency_key: pending.idempotencyKey }) })]);
    expect(fake.requests.find((q) => q.path === "/v1/refunds" && q.method === "POST" && q.params.metadata?.idempotency_key === pending.idempotencyKey)?.idempotencyKey).toBe(pending.idempotencyKey);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 0, refund_in_flight: true });

    fake.settleRefund(theirs[0]!.id, "succeeded");
    expect(await deliver(fake, s.accountId, eventAbout(fake, "refund.updated", pi))).toMatchObject({ status: 200, body: { result: "applied" } });
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 1000, refund_in_flight: false });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
  });
});
