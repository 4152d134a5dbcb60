// Mercado Pago scenarios (issue 19), the sandbox's checkout and renewal stories walked on the fake Mercado
// Pago through the public surfaces: the hosted checkout's JSON post (card_token from MercadoPago.js, or
// Pix), Mercado Pago's signed notices to POST /gateways/{id}/webhooks?data.id=…&type=payment, the billing
// run through advanceClock, and /v1 reads of what the vendor sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { get, gql } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import {
  ACCESS_TOKEN,
  deliverNotice,
  eventsOf,
  mercadopagoCheckout,
  mercadopagoOffer,
  mercadopagoSideOf,
  mercadopagoSubscription,
  paymentsOf,
  PUBLIC_KEY,
  savedCardOf,
  startMercadoPagoTestbed,
  subscriptionOf,
} from "../helpers/mercadopago.ts";

let fake: FakeMercadoPago;
beforeAll(async () => void ({ fake } = await startMercadoPagoTestbed({ automaticPayments: true })));
afterAll(() => fake?.close());

describe("Mercado Pago: checkout and renewal", () => {
  it("checkout by card: the card saved to a customer, the first payment with MercadoPago.js' token under our key, active; the renewal charges the card on file once", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    expect(s.answer.status).toBe("active");
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", collection_method: "card_auto", payment_method: { brand: "master", last4: "6351" } });
    expect(sub.last_payment).toMatchObject({ status: "paid", amount_cents: 4990, method: "card", gateway_provider: "mercadopago" });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);

    // At Mercado Pago: a customer of the e-mail with our cus_ id, the card saved, one payment under our key.
    const card = await savedCardOf(fake, s.subscriptionId);
    expect(fake.customers.get(card.customer)).toMatchObject({ email: sub.customer.email, description: expect.stringMatching(/^cus_/) });
    expect(fake.cards.get(card.card)).toMatchObject({ customer_id: card.customer });
    const [first] = await paymentsOf(s.subscriptionId);
    expect(first).toMatchObject({ status: "PAID", provider: "mercadopago" });
    expect(mercadopagoSideOf(fake, first!.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    const firstReq = fake.requests.find((q) => q.path === "/v1/payments" && q.idempotencyKey === first!.idempotencyKey)!;
    expect(firstReq.body).toMatchObject({ transaction_amount: 49.9, external_reference: first!.idempotencyKey, point_of_interaction: { transaction_data: { first_time_use: true } } });
    // The recurring-charges guide's order with a single-use token: MercadoPago.js' token pays first, then saves the card.
    const saveReq = fake.requests.find((q) => q.method === "POST" && q.path === `/v1/customers/${card.customer}/cards`)!;
    expect(saveReq.body.token).toBe(firstReq.body.token);
    expect(fake.requests.indexOf(saveReq)).toBeGreaterThan(fake.requests.indexOf(firstReq));
    expect([firstReq.status, saveReq.status]).toEqual([201, 201]);

    // The renewal at the period's end: a card token from the saved card, charged as a card on file, once.
    const summary = await advanceClock(s.t, sub.current_period_end);
    expect(summary).toMatchObject({ renewed: 1, chargeFailed: 0, unknown: 0, errors: 0 });
    const renewed = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(renewed.status).toBe("active");
    expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(new Date(sub.current_period_end).getTime());
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    const renewal = payments[1]!;
    expect(mercadopagoSideOf(fake, renewal.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    const renewalReq = fake.requests.find((q) => q.path === "/v1/payments" && q.idempotencyKey === renewal.idempotencyKey)!;
    expect(renewalReq.body).toMatchObject({ payer: { type: "customer", id: card.customer }, payment_method_id: "master", point_of_interaction: { type: "SUBSCRIPTIONS", transaction_data: { first_time_use: false } } });
    // Subscription messaging as documented for a later payment: our subscription, its second cycle, its period,
    // the payer away, and the sequence's first payment.
    expect(renewalReq.body.point_of_interaction.transaction_data).toMatchObject({
      subscription_id: s.subscriptionId,
      subscription_sequence: { number: 2 },
      invoice_period: { type: "monthly", period: 1 },
      payment_reference: { id: first!.gatewayChargeId },
      user_present: false,
      billing_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(fake.requests.find((q) => q.path === "/v1/card_tokens" && q.idempotencyKey === `${renewal.idempotencyKey}:card_token`)?.body).toEqual({ card_id: card.card, customer_id: card.customer });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active", "invoice.paid:active"]);
    const charges = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").map((e) => `${e.outcome}:${e.gateway_id}`);
    expect(charges).toEqual([`approved:${first!.gatewayChargeId}`, `approved:${renewal.gatewayChargeId}`]);
  });

  it("a posted card number is refused before anything reaches Mercado Pago; a card the issuer refuses at checkout writes nothing", async () => {
    const s = await mercadopagoOffer(fake);
    const before = fake.requests.length;
    const posted = await mercadopagoCheckout(s, { cardToken: fake.browserToken() }, { card_number: "5031433215406351", card_cvc: "123" });
    expect(posted).toMatchObject({ status: 422, body: { field: "card_number" } });
    expect(fake.requests.length).toBe(before);
    const bad = await mercadopagoCheckout(s, { cardToken: "not a token" });
    expect(bad).toMatchObject({ status: 422, body: { field: "mercadopago_token" } });

    const refused = await mercadopagoCheckout(s, { cardToken: fake.browserToken({ holder: "FUND" }) });
    expect(refused).toMatchObject({ status: 422, body: { field: "card_number", error: expect.stringContaining("pagamento não aprovado") } });
    const subs = await get(`/v1/subscriptions?limit=10`, s.t.readKey);
    expect(subs.body.results).toEqual([]);
  });

  it("checkout by Pix: the QR of Mercado Pago's point_of_interaction on our page; paid when the signed notice arrives, once", async () => {
    const s = await mercadopagoSubscription(fake, "pix");
    expect(s.answer).toMatchObject({ status: "pending_first_payment" });
    const [pix] = await paymentsOf(s.subscriptionId);
    expect(pix).toMatchObject({ method: "PIX", status: "PROCESSING" });
    const mp = fake.payments.get(pix!.gatewayChargeId)!;
    expect(mp).toMatchObject({ status: "pending", payment_method_id: "pix", transaction_amount: 49.9, external_reference: pix!.idempotencyKey });
    expect(s.answer.pix.copy_paste).toBe(mp.point_of_interaction.transaction_data.qr_code);
    expect(mp.payer.email).toMatch(/@example\.com$/);
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual([]);

    fake.payPix(s.answer.pix.copy_paste);
    const notice = await deliverNotice(fake, s.accountId, pix!.gatewayChargeId, { requestId: "req-pix-1", ts: Math.floor(Date.now() / 1000) });
    expect(notice).toMatchObject({ status: 200, body: { result: "applied" } });
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", collection_method: "pix_manual" });
    expect(sub.last_payment).toMatchObject({ method: "pix", status: "paid", paid_amount_cents: 4990 });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "pix_paid:approved"]);

    // Another notice about the same payment (Mercado Pago's retry): nothing happens twice.
    expect((await deliverNotice(fake, s.accountId, pix!.gatewayChargeId)).status).toBe(200);
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect(fake.chargesFor(pix!.idempotencyKey)).toBe(1);
  });

  it("connecting an account: a wrong access token or mixed-mode keys are refused at createGatewayAccount with Mercado Pago's reason, never the token; good ones get Mercado Pago's capabilities", async () => {
    const t = await newTenant();
    const CREATE = `mutation($t: ID!, $c: JSON, $u: String) { createGatewayAccount(tenantId: $t, provider: MERCADOPAGO, name: "mp", credentials: $c, apiBaseUrl: $u) { id capabilities credentialHints } }`;
    const wrong = `TEST-${"9".repeat(16)}-112233-${"ab".repeat(16)}-1`;
    const refused = await gql(CREATE, { t: t.tenantId, c: { accessToken: wrong }, u: fake.url });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "gateway_credentials_invalid" });
    expect(refused.errors?.[0]?.message).toMatch(/does not recognize the access token/);
    expect(JSON.stringify(refused)).not.toContain(wrong.slice(5));
    const mixed = await gql(CREATE, { t: t.tenantId, c: { accessToken: ACCESS_TOKEN, publicKey: `APP_USR-${PUBLIC_KEY.slice(5)}` }, u: fake.url });
    expect(mixed.errors?.[0]?.message).toMatch(/different modes/);
    const ok = await gql(CREATE, { t: t.tenantId, c: { accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY }, u: fake.url });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.createGatewayAccount.capabilities).toMatchObject({ capturesCardOnlyOnPaymentPage: true, sumsPartialRefunds: true, minimumChargeCents: 100, supportsPix: true });
    expect(JSON.stringify(ok)).not.toContain(ACCESS_TOKEN);
  });
});
