// /pay/{token} for a subscription at Stripe (issue 18 item 2, PCI SAQ A): until /pay loads Stripe.js
// as the checkout does, its pages show no card form for a Stripe account (Pix still works) and a
// posted card number is refused unread: no card data reaches our server through /pay either.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { call, post } from "../helpers/http.ts";
import type { TestService } from "../helpers/service.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { startStripeTestbed, stripeOffer, type StripeOffer } from "../helpers/stripe.ts";

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

/** An active subscription of the Stripe offer, its card saved at the fake through the checkout. */
async function stripeSubscription(): Promise<StripeOffer & { subscriptionId: string }> {
  const s = await stripeOffer(fake);
  const r = await call("POST", `/checkout/${s.offerId}`, {
    as: "json",
    headers: { accept: "application/json" },
    body: { name: "Maria Silva", email: `stripe-pay-${Date.now()}@example.com`, phone: "11987654321", doc: "52998224725", method: "card", payment_method_id: "pm_card_visa" },
  });
  expect(r.status).toBe(201);
  return { ...s, subscriptionId: r.body.subscription_id };
}

describe("/pay for a Stripe subscription (PCI SAQ A)", () => {
  it("a payment-method link shows no card form and refuses a posted card number unread", async () => {
    const s = await stripeSubscription();
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    expect(link.status).toBe(201);
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="card_number"');
    expect(page.text).toContain("A troca de cartão por link ainda não está disponível");

    const events = () => svc.runtime.db.prisma.gatewayEvent.count({ where: { tenantId: s.t.tenantId } });
    const before = { events: await events(), calls: fake.requests.length };
    const r = await payJson(token, CARD("4242424242424242"));
    expect(r.status).toBe(422);
    expect(r.body.field).toBe("card_number");
    expect(r.body.error).toMatch(/dados do cartão não podem ser enviados/);
    expect(await events()).toBe(before.events);
    expect(fake.requests.length).toBe(before.calls);
  });

  it("a renewal link offers Pix only and refuses card data", async () => {
    const s = await stripeSubscription();
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/renewal-link`, s.t.writeKey, {});
    expect(link.status).toBe(201);
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="card_number"');
    expect(page.text).toContain('value="pix"');
    const r = await payJson(token, { method: "card", ...CARD("4242424242424242") });
    expect(r.status).toBe(422);
    expect(r.body.field).toBe("card_number");
    const card = await payJson(token, { method: "card" });
    expect(card.status).toBe(422);
    expect(card.body.field).toBe("method");
  });
});
