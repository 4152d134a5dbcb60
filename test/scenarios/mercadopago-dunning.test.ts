// What Mercado Pago's capability "card captured only on a payment page" means for the customer (the dunning
// story every provider walks is the contract suite's: test/gateways/contract/decline.test.ts). An account
// without Automatic Payments cannot charge a saved card without its CVV: the renewal is the decline
// security_code_required, and the customer pays the open invoice on /pay with the card typed in
// MercadoPago.js (saved with that payment). Without an open invoice a card change by link is refused: at
// Mercado Pago a card is registered only with a payment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock } from "../helpers/billing.ts";
import { post } from "../helpers/http.ts";
import { mercadopagoSideOf, mercadopagoSubscription, paymentsOf, savedCardOf, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import { payJson, payPage, tokenOf } from "../links/pay-helpers.ts";

let fake: FakeMercadoPago;
beforeAll(async () => void ({ fake } = await startMercadoPagoTestbed({ automaticPayments: true })));
afterAll(() => fake?.close());

describe("Mercado Pago: a card captured only on a payment page", () => {
  it("no Automatic Payments on the account: the renewal is the decline security_code_required; the customer pays the open invoice on /pay with a card typed in MercadoPago.js, which becomes the card on file", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.automaticPayments = false;
    try {
      expect(await advanceClock(s.t, due)).toMatchObject({ renewed: 0, pastDue: 1, unknown: 0 });
      expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("past_due");
      const attempt = (await paymentsOf(s.subscriptionId)).at(-1)!;
      expect(attempt).toMatchObject({ status: "FAILED", failureCode: "security_code_required" });
      expect(mercadopagoSideOf(fake, attempt.idempotencyKey)).toEqual({ payments: 0, status: [], charges: 0 });

      // The payment-method link: on a page-only gateway it pays the open invoice with the new card.
      const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
      expect(link.status).toBe(201);
      const token = tokenOf(link.body.url);
      const page = await payPage(token);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`${fake.url}/js/v2`);
      expect(page.text).toContain('name="mercadopago_token"');
      expect(page.text).not.toContain('name="card_number"');
      const paid = await payJson(token, { mercadopago_token: fake.browserToken({ number: "4235647728025682", holder: "APRO" }) });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
      expect(sub).toMatchObject({ status: "active", payment_method: { brand: "visa", last4: "5682" } });
      const last = (await paymentsOf(s.subscriptionId)).at(-1)!;
      expect(last.status).toBe("PAID");
      // Paid with MercadoPago.js' token (its CVV fresh), not a CVV-less token of the saved card.
      const req = fake.requests.find((q) => q.path === "/v1/payments" && q.idempotencyKey === last.idempotencyKey)!;
      expect(req.body.point_of_interaction.transaction_data.first_time_use).toBe(true);
      expect(mercadopagoSideOf(fake, last.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
      expect((await savedCardOf(fake, s.subscriptionId)).brand).toBe("visa");
    } finally {
      fake.automaticPayments = true;
    }
  });

  it("card change by link without an open invoice: the page says the card is registered only with a payment; a post is refused (422), changes nothing and reaches no gateway", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const before = await savedCardOf(fake, s.subscriptionId);
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.text).toContain("só é registrado junto com um pagamento");
    const calls = fake.requests.length;
    const r = await payJson(token, { mercadopago_token: fake.browserToken({ number: "4235647728025682" }) });
    expect(r.status).toBe(422);
    expect(fake.requests.length).toBe(calls);
    expect(await savedCardOf(fake, s.subscriptionId)).toEqual(before);
  });
});
