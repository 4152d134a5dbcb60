// Stripe scenarios (issue 18 item 5), the sandbox's checkout and renewal stories walked on the fake
// Stripe through the public surfaces: the hosted checkout's JSON post (payment_method_id from Stripe.js,
// or Pix), Stripe's signed notices to POST /gateways/{id}/webhooks, the billing run through advanceClock,
// and /v1 reads of what the vendor sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { startStripeTestbed, stripeOffer } from "../helpers/stripe.ts";
import { addEndpoint, Receiver } from "../helpers/webhook-receiver.ts";
import { deliver, eventAbout, eventsOf, paymentsOf, savedCard, stripeCheckout, stripeSideOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

describe("Stripe: checkout and renewal", () => {
  it("checkout by card: the card saved off-session, one charge under our key, active, invoice.paid; the renewal charges off-session once", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    expect(s.answer.status).toBe("active");
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", collection_method: "card_auto", payment_method: { brand: "visa", last4: "4242" } });
    expect(sub.last_payment).toMatchObject({ status: "paid", amount_cents: 4990, method: "card" });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);

    // At Stripe: a customer, a SetupIntent for off-session use, one PaymentIntent under our key, charged once.
    const card = await savedCard(s.subscriptionId);
    expect(fake.customers.get(card.customer)?.metadata).toBeDefined();
    const setup = fake.requests.find((q) => q.path === "/v1/setup_intents" && q.params.customer === card.customer)!;
    expect(setup.params).toMatchObject({ usage: "off_session", confirm: "true" });
    const [first] = await paymentsOf(s.subscriptionId);
    expect(first).toMatchObject({ status: "PAID", provider: "stripe" });
    expect(stripeSideOf(fake, first!.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });
    expect(fake.paymentIntents.get(first!.gatewayChargeId)).toMatchObject({ amount: 4990, currency: "brl", customer: card.customer });

    // The renewal at the period's end: the billing run charges the saved card off-session, once.
    const summary = await advanceClock(s.t, sub.current_period_end);
    expect(summary).toMatchObject({ renewed: 1, chargeFailed: 0, unknown: 0, errors: 0 });
    const renewed = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(renewed.status).toBe("active");
    expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(new Date(sub.current_period_end).getTime());
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    const renewal = payments[1]!;
    expect(stripeSideOf(fake, renewal.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });
    const request = fake.requests.find((q) => q.method === "POST" && q.path === "/v1/payment_intents" && q.idempotencyKey === renewal.idempotencyKey)!;
    expect(request.params).toMatchObject({ off_session: "true", confirm: "true", customer: card.customer, payment_method: card.pm, amount: "4990" });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active", "invoice.paid:active"]);
    const charges = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").map((e) => `${e.outcome}:${e.gateway_id}`);
    expect(charges).toEqual([`approved:${first!.gatewayChargeId}`, `approved:${renewal.gatewayChargeId}`]);
    // Moving on without a due date charges nothing more.
    const quiet = await advanceClock(s.t, new Date(new Date(sub.current_period_end).getTime() + 86_400_000).toISOString());
    expect(quiet.renewed).toBe(0);
    expect(fake.intentsFor(renewal.idempotencyKey)).toHaveLength(1);
  });

  it("checkout by Pix: pending until Stripe's payment_intent.succeeded arrives signed, then paid and active once; our webhooks go out", { timeout: 60_000 }, async () => {
    const offer = await stripeOffer(fake);
    const receiver = await Receiver.start();
    try {
      await addEndpoint(offer.t, receiver.url);
      const checkout = await stripeCheckout(offer, "pix");
      expect(checkout.status).toBe(201);
      const s = { ...offer, subscriptionId: checkout.body.subscription_id as string, answer: checkout.body };
      expect(s.answer).toMatchObject({ status: "pending_first_payment" });
      const [pix] = await paymentsOf(s.subscriptionId);
      expect(pix).toMatchObject({ method: "PIX", status: "PROCESSING" });
      const intent = fake.paymentIntents.get(pix!.gatewayChargeId)!;
      expect(intent).toMatchObject({ status: "requires_action", payment_method_types: ["pix"], amount: 4990 });
      expect(s.answer.pix.copy_paste).toBe(intent.next_action.pix_display_qr_code.data);
      expect(stripeSideOf(fake, pix!.idempotencyKey)).toEqual({ intents: 1, status: ["requires_action"], charges: 0 });
      expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual([]);

      // The payer's bank pays the copy-and-paste code; Stripe tells us.
      fake.payPix(s.answer.pix.copy_paste);
      const paid = eventAbout(fake, "payment_intent.succeeded", pix!.gatewayChargeId);
      expect(await deliver(fake, s.accountId, paid)).toMatchObject({ status: 200, body: { result: "applied" } });
      const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
      expect(sub).toMatchObject({ status: "active", collection_method: "pix_manual" });
      expect(sub.last_payment).toMatchObject({ method: "pix", status: "paid", paid_amount_cents: 4990 });
      expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
      const kinds = (await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`);
      expect(kinds).toEqual(["create_pix:pending", "pix_paid:approved"]);

      // Stripe delivers again (it retries until it hears a 2xx): a 200 duplicate, nothing twice.
      expect(await deliver(fake, s.accountId, paid)).toMatchObject({ status: 200, body: { result: "duplicate" } });
      expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
      const payments = await get(`/v1/customers/${encodeURIComponent(sub.customer.external_id)}/payments`, s.t.readKey);
      expect(payments.body.results.map((p: any) => p.status)).toEqual(["paid"]);
      expect(fake.chargesFor(pix!.idempotencyKey)).toBe(1);
      // The vendor's endpoint hears subscription.activated and invoice.paid, once each.
      const ours = (rs: typeof receiver.requests) => rs.filter((r) => r.body?.data?.subscription_id === s.subscriptionId).map((r) => r.body.type);
      await receiver.waitFor((rs) => ours(rs).length >= 2, 20_000);
      expect(ours(receiver.requests).sort()).toEqual(["invoice.paid", "subscription.activated"]);
    } finally {
      await receiver.stop();
    }
  });
});
