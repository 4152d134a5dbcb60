// The contract suite's Mercado Pago: the fake Mercado Pago (test/fakes/mercadopago/) with Automatic Payments
// (a saved card charged without its CVV), MercadoPago.js' card tokens at the hosted checkout, and Mercado
// Pago's signed notices (x-signature; the payment re-fetched) to POST /gateways/{id}/webhooks.
import { expect } from "vitest";
import { startFakeMercadoPago, type FakeMercadoPago } from "../../../fakes/mercadopago/fake-mercadopago.ts";
import { ACCESS_TOKEN, mercadopagoCardOf, mercadopagoOffer, PUBLIC_KEY, WEBHOOK_SECRET } from "../../../helpers/mercadopago.ts";
import { get } from "../../../helpers/http.ts";
import { postNotice } from "../../../helpers/provider-notice.ts";
import { testService } from "../../../helpers/service.ts";
import { postCheckout, savedToken, type Notice, type ProviderDriver } from "../driver.ts";

let fake: FakeMercadoPago;

const toCents = (reais: number) => Math.round(reais * 100);

/** Mercado Pago's notice about a payment, signed once: delivering it again is the same delivery. */
function notice(accountId: string, paymentId: string | number): Notice {
  const n = fake.signedNotice(paymentId);
  return {
    deliver: async () => {
      const { baseUrl } = await testService();
      return (await postNotice(`${baseUrl}/gateways/${accountId}/webhooks?${n.query}`, n.headers, n.rawBody)).body?.result ?? null;
    },
  };
}

export const mercadopago: ProviderDriver & { fake(): FakeMercadoPago } = {
  name: "Mercado Pago (fake)",
  provider: "mercadopago",
  sendsNotices: true,
  fake: () => fake,
  async start() {
    await testService();
    fake = await startFakeMercadoPago({ accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET, automaticPayments: true });
  },
  stop: async () => fake?.close(),
  offer: () => mercadopagoOffer(fake),
  async checkout(o, pay) {
    if (pay === "pix") return postCheckout(o.offerId, { method: "pix" });
    const r = await postCheckout(o.offerId, { method: "card", mercadopago_token: fake.browserToken({ holder: pay === "declined_card" ? "FUND" : "APRO" }) });
    if (pay === "card_declining_later" && r.status === 201) fake.setCardBehaviour(mercadopagoCardOf(fake, await savedToken(r.body.subscription_id))!.id, "insufficient_amount");
    return r;
  },
  card: { brand: "master", last4: "6351" },
  declineCode: "cc_rejected_insufficient_amount",
  async payPix(o, copyPaste) {
    return notice(o.accountId, fake.payPix(copyPaste).id);
  },
  async dispute(o, payment) {
    fake.chargeback(payment.gatewayChargeId);
    return notice(o.accountId, payment.gatewayChargeId);
  },
  chargeNotice: (o, key) => notice(o.accountId, fake.paymentsFor(key)[0]!.id),
  failNextCharge: async (_o, kind) => fake.failNext(kind, { method: "POST", path: /^\/v1\/payments$/ }),
  async withShortTimeout(fn) {
    const adapter = (await testService()).runtime.gateways.adapter("mercadopago") as unknown as { opts: { timeoutMs?: number } };
    const saved = adapter.opts.timeoutMs;
    adapter.opts.timeoutMs = 400;
    try {
      return await fn();
    } finally {
      adapter.opts.timeoutMs = saved;
    }
  },
  async side(key) {
    const payments = fake.paymentsFor(key);
    return { made: payments.length, charged: fake.chargesFor(key), refunded: payments.reduce((n, p) => n + toCents(p.transaction_amount_refunded ?? 0), 0) };
  },
  // A refund is POST /v1/payments/{id}/refunds with the amount, under our refund's X-Idempotency-Key.
  async refundsOf(paymentId) {
    return (fake.payments.get(paymentId)?.refunds ?? []).map((r: any) => ({
      amount: toCents(r.amount),
      key: fake.requests.find((q) => q.method === "POST" && q.path === `/v1/payments/${paymentId}/refunds` && q.status === 201 && !q.replayed && q.body.amount === r.amount)?.idempotencyKey ?? null,
    }));
  },
  hooks: {
    // The recurring-charges guide's order with a single-use token: MercadoPago.js' token pays first, then saves the card.
    async cardCheckout(s, first) {
      const token = await savedToken(s.subscriptionId);
      const customer = token.split("|")[0]!;
      const { email } = (await get(`/v1/subscriptions/${s.subscriptionId}`, s.t.readKey)).body.customer;
      expect(fake.customers.get(customer)).toMatchObject({ email, description: expect.stringMatching(/^cus_/) });
      expect(mercadopagoCardOf(fake, token)).toMatchObject({ customer_id: customer });
      const firstReq = fake.requests.find((q) => q.path === "/v1/payments" && q.idempotencyKey === first.idempotencyKey)!;
      expect(firstReq.body).toMatchObject({ transaction_amount: 49.9, external_reference: first.idempotencyKey, point_of_interaction: { transaction_data: { first_time_use: true } } });
      const saveReq = fake.requests.find((q) => q.method === "POST" && q.path === `/v1/customers/${customer}/cards`)!;
      expect(saveReq.body.token).toBe(firstReq.body.token);
      expect(fake.requests.indexOf(saveReq)).toBeGreaterThan(fake.requests.indexOf(firstReq));
      expect([firstReq.status, saveReq.status]).toEqual([201, 201]);
    },
    // The renewal: a card token from the saved card, charged as a card on file with subscription messaging.
    async renewal(s, first, renewal) {
      const token = await savedToken(s.subscriptionId);
      const customer = token.split("|")[0]!;
      const req = fake.requests.find((q) => q.path === "/v1/payments" && q.idempotencyKey === renewal.idempotencyKey)!;
      expect(req.body).toMatchObject({ payer: { type: "customer", id: customer }, payment_method_id: "master", point_of_interaction: { type: "SUBSCRIPTIONS", transaction_data: { first_time_use: false } } });
      expect(req.body.point_of_interaction.transaction_data).toMatchObject({
        subscription_id: s.subscriptionId,
        subscription_sequence: { number: 2 },
        invoice_period: { type: "monthly", period: 1 },
        payment_reference: { id: first.gatewayChargeId },
        user_present: false,
        billing_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      const cardToken = fake.requests.find((q) => q.path === "/v1/card_tokens" && q.idempotencyKey === `${renewal.idempotencyKey}:card_token`);
      expect(cardToken?.body).toEqual({ card_id: mercadopagoCardOf(fake, token)!.id, customer_id: customer });
    },
    async pixCheckout(_s, pix, answer) {
      const mp = fake.payments.get(pix.gatewayChargeId)!;
      expect(mp).toMatchObject({ status: "pending", payment_method_id: "pix", transaction_amount: 49.9, external_reference: pix.idempotencyKey });
      expect(answer.pix.copy_paste).toBe(mp.point_of_interaction.transaction_data.qr_code);
      expect(mp.payer.email).toMatch(/@example\.com$/);
    },
    // Refunded in full, the payment is refunded at Mercado Pago; its own notice afterwards changes nothing more.
    async refunded(s, payment) {
      expect(fake.payments.get(payment.gatewayChargeId)).toMatchObject({ status: "refunded", transaction_amount_refunded: 49.9 });
      expect(await notice(s.accountId, payment.gatewayChargeId).deliver()).not.toBeNull();
      expect((await get(`/v1/payments/${payment.id}`, s.t.readKey)).body.refunded_amount_cents).toBe(4990);
    },
    async declinedAttempt(attempt) {
      expect(fake.paymentsFor(attempt.idempotencyKey).map((p) => p.status)).toEqual(["rejected"]);
    },
    // Asked by a payments search on external_reference = our key.
    async pixReconciled(pix) {
      expect(fake.requests.some((q) => q.path === "/v1/payments/search" && q.query.external_reference === pix.idempotencyKey)).toBe(true);
    },
  },
};
