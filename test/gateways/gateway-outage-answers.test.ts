// A provider that answers 5xx or times out while a request waits on it is a 503 `unavailable` with
// Retry-After (documented on every /v1 route), never a 500; asked again once the provider is back, the
// same request succeeds, and nothing was made twice at the provider (issue 18, "Bad input").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { EventLog } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { startStripeTestbed, stripeOffer } from "../helpers/stripe.ts";
import { paymentsOf, savedCard, stripeCheckout, stripeSideOf, stripeSubscription, subscriptionOf } from "../scenarios/stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

describe("a payment gateway down while a request waits on it", () => {
  it("the open invoice's payment link is 503 unavailable with Retry-After, then 200 once Stripe answers; one Pix per key", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.setCardBehaviour((await savedCard(s.subscriptionId)).pm, "insufficient_funds");
    await new EventLog(s.t).advance(due);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("past_due");

    fake.failNext("500", { method: "POST", path: /^\/v1\/payment_intents$/ });
    const down = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(down.status, JSON.stringify(down.body)).toBe(503);
    expect(down.body).toEqual({ error: "payment gateway temporarily unavailable; retry shortly", code: "unavailable" });
    expect(down.headers.get("retry-after")).toBe("1");

    const back = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const pix = (await paymentsOf(s.subscriptionId)).filter((p) => p.method === "PIX");
    for (const p of pix) expect(stripeSideOf(fake, p.idempotencyKey).intents).toBeLessThanOrEqual(1);
  });
});

describe("a payment gateway down during the hosted checkout", () => {
  it("a Pix checkout while Stripe answers 500 is 503 unavailable with Retry-After (no sale recorded twice), then succeeds", async () => {
    const s = await stripeOffer(fake);
    fake.failNext("500", { method: "POST", path: /^\/v1\/payment_intents$/ });
    const down = await stripeCheckout(s, "pix");
    expect(down.status, JSON.stringify(down.body)).toBe(503);
    expect(down.body.code).toBe("unavailable");
    expect(down.headers.get("retry-after")).toBe("1");
    const back = await stripeCheckout(s, "pix");
    expect(back.status, JSON.stringify(back.body)).toBe(201);
  });
});
