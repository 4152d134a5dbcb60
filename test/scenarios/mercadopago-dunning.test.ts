// Mercado Pago scenarios (issue 19): decline and dunning on the fake Mercado Pago, and what its capability
// "card captured only on a payment page" means for the customer. A card on file that starts refusing fails
// the renewal: past_due, retries D+1/3/5/9 (a payment and key each), suspended, and the open invoice paid
// by Pix at Mercado Pago reactivates. An account without Automatic Payments cannot charge a saved card
// without its CVV: the renewal is the decline security_code_required, and the customer pays the open
// invoice on /pay with the card typed in MercadoPago.js (saved with that payment). Without an open
// invoice a card change by link is refused: at Mercado Pago a card is registered only with a payment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock, EventLog, gatewayEvents } from "../helpers/billing.ts";
import { get, post } from "../helpers/http.ts";
import { deliverNotice, mercadopagoSideOf, mercadopagoSubscription, paymentsOf, savedCardOf, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import { payJson, payPage, tokenOf } from "../links/pay-helpers.ts";

let fake: FakeMercadoPago;
beforeAll(async () => void ({ fake } = await startMercadoPagoTestbed({ automaticPayments: true })));
afterAll(() => fake?.close());

const DAY = 86_400_000;
const at = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();

describe("Mercado Pago: decline and dunning", () => {
  it("a card on file refused: past_due, retries D+1/3/5/9 each a payment under a new key, suspended; the open invoice paid by Pix reactivates", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.setCardBehaviour((await savedCardOf(fake, s.subscriptionId)).card, "insufficient_amount");
    const log = new EventLog(s.t);
    await log.advance(due);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("past_due");
    await log.advance(at(due, 9));
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("suspended");
    expect(log.of(s.subscriptionId)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "invoice.payment_failed:past_due",
      "subscription.past_due:past_due",
      "invoice.payment_failed:past_due",
      "invoice.payment_failed:past_due",
      "invoice.payment_failed:past_due",
      "invoice.payment_failed:suspended",
      "subscription.suspended:suspended",
    ]);
    const charges = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card");
    expect(charges.map((e) => `${e.created_at}:${e.outcome}:${e.detail_code}`).slice(1)).toEqual([0, 1, 3, 5, 9].map((d) => `${at(due, d)}:declined:cc_rejected_insufficient_amount`));
    const attempts = (await paymentsOf(s.subscriptionId)).slice(1);
    expect(attempts.map((p) => p.status)).toEqual(["FAILED", "FAILED", "FAILED", "FAILED", "FAILED"]);
    expect(new Set(attempts.map((p) => p.idempotencyKey)).size).toBe(5);
    for (const p of attempts) expect(mercadopagoSideOf(fake, p.idempotencyKey)).toEqual({ payments: 1, status: ["rejected"], charges: 0 });
    expect((await log.advance(at(due, 20))).renewed).toBe(0);

    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link).toMatchObject({ status: 200, body: { status: "open", amount_cents: 4990 } });
    const pix = fake.payPix(link.body.pix.copy_paste);
    expect((await deliverNotice(fake, s.accountId, pix.id)).body).toMatchObject({ result: "applied" });
    await log.collect();
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(log.of(s.subscriptionId).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });

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
