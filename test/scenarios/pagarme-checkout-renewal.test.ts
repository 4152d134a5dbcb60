// Pagar.me scenarios (issue 19 item 5), the checkout and renewal stories walked on the fake Pagar.me
// through the public surfaces: the hosted checkout's JSON post (the token tokenizecard.js made, or Pix),
// Pagar.me's unsigned notices to POST /gateways/{id}/webhooks, the billing run through advanceClock,
// and /v1 reads of what the vendor sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { call, get } from "../helpers/http.ts";
import { deliverNotice, eventsOf, pagarmeCheckout, pagarmeOffer, pagarmeSideOf, pagarmeSubscription, paymentsOf, savedCardOf, startPagarmeTestbed, subscriptionOf } from "../helpers/pagarme.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

describe("Pagar.me: checkout and renewal", () => {
  it("checkout by card: the token saved as a card of a Pagar.me customer, one order under our key, active, invoice.paid; the renewal charges off-session once", async () => {
    const s = await pagarmeSubscription(fake, { card: "4000000000000010" });
    expect(s.answer.status).toBe("active");
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", collection_method: "card_auto", payment_method: { brand: "visa", last4: "0010" } });
    expect(sub.last_payment).toMatchObject({ status: "paid", amount_cents: 4990, method: "card" });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);

    // At Pagar.me: a customer whose code is our cus_ id, the card from the token, one paid order under our key.
    const card = await savedCardOf(s.subscriptionId);
    expect(fake.customers.get(card.customer)!.code).toMatch(/^cus_/);
    expect(fake.cards.get(card.card)!.customer.id).toBe(card.customer);
    const [first] = await paymentsOf(s.subscriptionId);
    expect(first).toMatchObject({ status: "PAID", provider: "pagarme" });
    expect(pagarmeSideOf(fake, first!.idempotencyKey)).toEqual({ orders: 1, status: ["paid"], charges: 1 });
    expect(fake.charges.get(first!.gatewayChargeId)).toMatchObject({ amount: 4990, status: "paid", recurrency_cycle: "first" });

    // The renewal: the billing run charges the saved card, a "subsequent" card-on-file use, once.
    const summary = await advanceClock(s.t, sub.current_period_end);
    expect(summary).toMatchObject({ renewed: 1, chargeFailed: 0, unknown: 0, errors: 0 });
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    const renewal = payments[1]!;
    expect(pagarmeSideOf(fake, renewal.idempotencyKey)).toEqual({ orders: 1, status: ["paid"], charges: 1 });
    const request = fake.requests.find((q) => q.method === "POST" && q.path === "/orders" && q.idempotencyKey === renewal.idempotencyKey)!;
    expect(request.body).toMatchObject({ code: renewal.idempotencyKey, customer_id: card.customer, payments: [{ payment_method: "credit_card", amount: 4990, credit_card: { card_id: card.card, recurrence: true, recurrency_cycle: "subsequent" } }] });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active", "invoice.paid:active"]);
    const charges = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").map((e) => `${e.outcome}:${e.gateway_id}`);
    expect(charges).toEqual([`approved:${first!.gatewayChargeId}`, `approved:${renewal.gatewayChargeId}`]);
  });

  it("checkout by card refuses a posted card number (422, nothing sent to Pagar.me) and a card the issuer refuses", async () => {
    const s = await pagarmeOffer(fake);
    const before = fake.requests.length;
    const typed = await call("POST", `/checkout/${s.offerId}`, {
      body: { name: "Maria Silva", email: "typed@example.com", phone: "11987654321", doc: "52998224725", method: "card", card_number: "4000000000000010", card_cvc: "123", card_exp: "12/40" },
      as: "json",
      headers: { accept: "application/json" },
    });
    expect(typed.status).toBe(422);
    expect(fake.requests.length).toBe(before);
    const refused = await pagarmeCheckout(s, { token: fake.tokenFor("4000000000000028") });
    expect(refused).toMatchObject({ status: 422, body: { field: "card_number" } });
    // The refused card was checked when saved; no order was made for it.
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path.replace(/_[A-Za-z0-9]+/g, "_x")}`)).not.toContain("POST /orders");
  });

  it("checkout by Pix: the BR Code of a Pagar.me Pix order on our answer, pending until charge.paid is re-read, then active once", async () => {
    const s = await pagarmeSubscription(fake, "pix");
    expect(s.answer).toMatchObject({ status: "pending_first_payment" });
    const [pix] = await paymentsOf(s.subscriptionId);
    expect(pix).toMatchObject({ method: "PIX", status: "PROCESSING" });
    const charge = fake.charges.get(pix!.gatewayChargeId)!;
    expect(charge).toMatchObject({ status: "pending", payment_method: "pix", amount: 4990, customer: { document: "52998224725", name: "Maria Silva" } });
    expect(s.answer.pix.copy_paste).toBe(charge.last_transaction.qr_code);
    // The expiry Pagar.me was given is the checkout's (one day), as a duration.
    expect(fake.requests.find((r) => r.method === "POST" && r.path === "/orders" && r.idempotencyKey === pix!.idempotencyKey)!.body.payments[0].pix.expires_in).toBe(86_400);
    expect(pagarmeSideOf(fake, pix!.idempotencyKey)).toEqual({ orders: 1, status: ["pending"], charges: 0 });

    fake.payPix(s.answer.pix.copy_paste);
    const paid = fake.lastEvent("charge.paid", pix!.gatewayChargeId)!;
    expect(await deliverNotice(s.accountId, paid)).toMatchObject({ status: 200, body: { result: "applied" } });
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", collection_method: "pix_manual" });
    expect(sub.last_payment).toMatchObject({ method: "pix", status: "paid", paid_amount_cents: 4990 });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "pix_paid:approved"]);
    // Pagar.me delivers again and sends order.paid too: nothing twice.
    expect(await deliverNotice(s.accountId, paid)).toMatchObject({ status: 200, body: { result: "duplicate" } });
    expect(await deliverNotice(s.accountId, fake.lastEvent("order.paid", pix!.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "ignored" } });
    const payments = await get(`/v1/customers/${encodeURIComponent(sub.customer.external_id)}/payments`, s.t.readKey);
    expect(payments.body.results.map((p: any) => p.status)).toEqual(["paid"]);
    expect(fake.chargesFor(pix!.idempotencyKey)).toBe(1);
  });
});
