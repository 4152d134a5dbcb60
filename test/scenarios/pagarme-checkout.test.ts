// Pagar.me at the hosted checkout, what only Pagar.me shows (the stories every provider walks, checkout
// and renewal included, are the contract suite's: test/gateways/contract/): a posted card number never
// reaches Pagar.me, a refused card is checked when saved and gets no order, and the order.paid notice
// Pagar.me sends beside charge.paid changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { call } from "../helpers/http.ts";
import { deliverNotice, eventsOf, pagarmeCheckout, pagarmeOffer, pagarmeSubscription, paymentsOf, startPagarmeTestbed } from "../helpers/pagarme.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

describe("Pagar.me: checkout", () => {
  it("checkout by card refuses a posted card number (422, nothing sent to Pagar.me) and a card the issuer refuses (no order made)", async () => {
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

  it("a Pix paid: beside charge.paid Pagar.me sends order.paid, which changes nothing", async () => {
    const s = await pagarmeSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    fake.payPix(s.answer.pix.copy_paste);
    expect(await deliverNotice(s.accountId, fake.lastEvent("charge.paid", pix!.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await deliverNotice(s.accountId, fake.lastEvent("order.paid", pix!.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect(fake.chargesFor(pix!.idempotencyKey)).toBe(1);
  });
});
