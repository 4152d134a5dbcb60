// Pagar.me scenario: the card change by link (the payment-method /pay link). Pagar.me saves a card without
// a charge (capturesCardOnlyOnPaymentPage false), so the link's page takes a tokenizecard.js token, the
// card is saved to the SAME Pagar.me customer (found by its code, our cus_ id), and nothing is charged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { post } from "../helpers/http.ts";
import { pagarmeSubscription, savedCardOf, startPagarmeTestbed } from "../helpers/pagarme.ts";
import { CARD, payJson, tokenOf } from "../links/pay-helpers.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

describe("Pagar.me: card change by link", () => {
  it("the payment-method link takes a Pagar.me token (a typed card refused unread), saves it to the same customer, charges nothing", async () => {
    const s = await pagarmeSubscription(fake, { card: "4000000000000010" });
    const before = await savedCardOf(s.subscriptionId);
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    expect(link.status).toBe(201);
    const token = tokenOf(link.body.url);
    const calls = fake.requests.length;
    const refused = await payJson(token, CARD("5555555555554444"));
    expect(refused).toMatchObject({ status: 422, body: { field: "card_number" } });
    expect((await payJson(token, { pagarme_token: "5555555555554444" })).body.field).toBe("pagarme_token");
    expect(fake.requests.length).toBe(calls);

    const orders = fake.orders.size;
    const r = await payJson(token, { pagarme_token: fake.tokenFor("5555555555554444") });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "card_updated", card: { brand: "mastercard", last4: "4444" } });
    const after = await savedCardOf(s.subscriptionId);
    expect(after.customer).toBe(before.customer);
    expect(after.card).not.toBe(before.card);
    expect(fake.cards.get(after.card)!.customer.id).toBe(before.customer);
    expect(fake.orders.size).toBe(orders);
    expect((await payJson(token, { pagarme_token: fake.tokenFor() })).status).toBe(410);
  });
});
