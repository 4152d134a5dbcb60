// Stripe's own decline (the dunning story every provider walks is the contract suite's:
// test/gateways/contract/decline.test.ts): a saved card whose issuer starts asking for 3-D Secure fails
// the off-session renewal as a decline, never a PaymentIntent left waiting, and the customer gets the
// open invoice's /pay link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { startStripeTestbed } from "../helpers/stripe.ts";
import { testService } from "../helpers/service.ts";
import { paymentsOf, savedCard, stripeSideOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

describe("Stripe: 3-D Secure at renewal", () => {
  it("authentication_required off-session: a decline (never a PaymentIntent left waiting), past_due, and the /pay link for the customer", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.setCardBehaviour((await savedCard(s.subscriptionId)).pm, "authentication_required");
    const summary = await advanceClock(s.t, due);
    expect(summary).toMatchObject({ renewed: 0, pastDue: 1, unknown: 0 });
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("past_due");
    const charge = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").at(-1);
    expect(charge).toMatchObject({ outcome: "declined", detail_code: "authentication_required" });
    const attempt = (await paymentsOf(s.subscriptionId)).at(-1)!;
    expect(attempt).toMatchObject({ status: "FAILED", failureCode: "authentication_required" });
    // Stripe never holds a PaymentIntent that could complete behind our back.
    const side = stripeSideOf(fake, attempt.idempotencyKey);
    expect(side.charges).toBe(0);
    expect(side.status.every((st) => st === "requires_payment_method" || st === "canceled")).toBe(true);
    // The customer gets a /pay link to the open invoice.
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/\/pay\/pl_/);
    const page = await fetch(link.body.url.replace(/^https?:\/\/[^/]+/, (await testService()).baseUrl));
    expect(page.status).toBe(200);
  });
});
