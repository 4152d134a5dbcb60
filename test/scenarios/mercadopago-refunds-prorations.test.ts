// Mercado Pago scenarios (issue 19): refunds and the capability-dependent contract behaviours on the fake
// Mercado Pago. Refunds go through POST /v1/payments/{id}/refund; at Mercado Pago each is a refund of the
// payment (POST /v1/payments/{id}/refunds with the amount) under our refund's X-Idempotency-Key. Mercado Pago
// sums partial refunds, so a second partial refund is allowed; a Pix is refunded in full only (the contract);
// a proration under Mercado Pago's minimum charge (R$1.00) applies the change without a charge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADAPTER_DEFAULTS } from "../../core/gateways/capabilities.ts";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { deliverNotice, eventsOf, mercadopagoSideOf, mercadopagoSubscription, paymentsOf, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";

let fake: FakeMercadoPago;
beforeAll(async () => void ({ fake } = await startMercadoPagoTestbed({ automaticPayments: true })));
afterAll(() => fake?.close());

const prisma = async () => (await testService()).runtime.db.prisma;

/** Mercado Pago's refunds of a payment, with the key of the request that made each. */
function mercadopagoRefunds(paymentId: string) {
  return (fake.payments.get(paymentId)?.refunds ?? []).map((r: any) => ({
    amount: r.amount,
    status: r.status,
    key: fake.requests.find((q) => q.method === "POST" && q.path === `/v1/payments/${paymentId}/refunds` && q.status === 201 && !q.replayed && q.body.amount === r.amount)?.idempotencyKey,
  }));
}

describe("Mercado Pago: refunds", () => {
  it("card: a partial refund, a second partial refund (Mercado Pago sums them), then the rest: refunded, the subscription ends", async () => {
    expect(ADAPTER_DEFAULTS.mercadopago!.sumsPartialRefunds).toBe(true);
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const [payment] = await paymentsOf(s.subscriptionId);
    const mpId = payment!.gatewayChargeId;

    expect((await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "cobrança a mais", revoke: "none" })).status).toBeLessThan(300);
    expect((await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 990, reason: "desconto combinado", revoke: "none" })).status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 1990, refund_in_flight: false });
    expect(fake.payments.get(mpId)).toMatchObject({ status: "approved", transaction_amount_refunded: 19.9 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");

    const rest = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 3000, reason: "desistência" });
    expect(rest.status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    expect(fake.payments.get(mpId)).toMatchObject({ status: "refunded", transaction_amount_refunded: 49.9 });
    const ours = await (await prisma()).refund.findMany({ where: { paymentId: payment!.id }, orderBy: { id: "asc" } });
    expect(mercadopagoRefunds(mpId)).toEqual(ours.map((o) => ({ amount: o.amountCents / 100, status: "approved", key: o.idempotencyKey })));
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "payment.refunded:active",
      "payment.refunded:active",
      "payment.refunded:canceled",
      "subscription.canceled:canceled",
    ]);
    // Asking again refunds nothing more at Mercado Pago.
    expect((await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1, reason: "de novo" })).status).toBeGreaterThanOrEqual(400);
    expect(mercadopagoRefunds(mpId)).toHaveLength(3);
    // Mercado Pago's own notice about the refunded payment afterwards changes nothing more.
    expect((await deliverNotice(fake, s.accountId, mpId)).status).toBe(200);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body.refunded_amount_cents).toBe(4990);
  });

  it("Pix: a partial refund is refused before Mercado Pago is asked; the total one is made under our key", async () => {
    const s = await mercadopagoSubscription(fake, "pix");
    const [payment] = await paymentsOf(s.subscriptionId);
    fake.payPix(payment!.gatewayChargeId);
    expect((await deliverNotice(fake, s.accountId, payment!.gatewayChargeId)).body).toMatchObject({ result: "applied" });
    const calls = fake.requests.length;
    expect((await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "parcial", revoke: "none" })).status).toBe(422);
    expect(fake.requests.length).toBe(calls);
    expect((await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 4990, reason: "total" })).status).toBeLessThan(300);
    expect(fake.payments.get(payment!.gatewayChargeId)).toMatchObject({ status: "refunded" });
    const [ours] = await (await prisma()).refund.findMany({ where: { paymentId: payment!.id } });
    expect(mercadopagoRefunds(payment!.gatewayChargeId)).toEqual([{ amount: 49.9, status: "approved", key: ours!.idempotencyKey }]);
  });
});

describe("Mercado Pago: prorations and the minimum charge", () => {
  async function offerAtSameAccount(accountId: string, tenantId: string, planId: string, priceCents: number) {
    const { createOffer } = await op(
      `mutation($t: ID!, $p: ID!, $g: String!, $c: Int!) { createOffer(tenantId: $t, planId: $p, name: "Pro+", interval: MONTH, priceCents: $c, currency: "BRL",
         gateway: $g, collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
      { t: tenantId, p: planId, g: accountId, c: priceCents },
    );
    return createOffer.id as string;
  }

  it("an upgrade whose proration is under R$1.00 applies with no charge; a larger one is charged at Mercado Pago under our key", async () => {
    expect(ADAPTER_DEFAULTS.mercadopago!.minimumChargeCents).toBe(100);
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    const start = new Date(new Date(sub.current_period_end).getTime() - 30 * 86_400_000);
    // Half-way through the month: R$1.50 more a month is about R$0.75 prorated: under Mercado Pago's R$1.00 (over Stripe's R$0.50).
    await advanceClock(s.t, new Date((start.getTime() + new Date(sub.current_period_end).getTime()) / 2).toISOString());
    const small = await offerAtSameAccount(s.accountId, s.t.tenantId, s.t.planId, 5140);
    const charges = fake.totalCharges;
    const r = await changePlan(s.t, s.subscriptionId, { offer_id: small });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    expect(r.body.plan_change).toMatchObject({ kind: "upgrade", effect: "immediate", charge_cents: 0 });
    expect(fake.totalCharges).toBe(charges);
    expect((await paymentsOf(s.subscriptionId))).toHaveLength(1);

    const big = await offerAtSameAccount(s.accountId, s.t.tenantId, s.t.planId, 9990);
    const r2 = await changePlan(s.t, s.subscriptionId, { offer_id: big });
    expect(r2.status, JSON.stringify(r2.body)).toBeLessThan(300);
    expect(r2.body.plan_change.charge_cents).toBeGreaterThanOrEqual(100);
    const proration = (await paymentsOf(s.subscriptionId)).at(-1)!;
    expect(proration).toMatchObject({ status: "PAID", amountCents: r2.body.plan_change.charge_cents });
    expect(mercadopagoSideOf(fake, proration.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
  });
});

describe("Mercado Pago: chargebacks", () => {
  it("a payment charged back at Mercado Pago: its signed notice, the payment re-fetched, is a chargeback; access revoked once", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const [payment] = await paymentsOf(s.subscriptionId);
    fake.chargeback(payment!.gatewayChargeId);
    const n = await deliverNotice(fake, s.accountId, payment!.gatewayChargeId);
    expect(n).toMatchObject({ status: 200, body: { result: "applied" } });
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body.status).toBe("chargedback");
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    const events = await eventsOf(s.t.readKey, s.subscriptionId);
    expect(events.slice(-1)).toEqual(["subscription.canceled:canceled"]);
    expect((await deliverNotice(fake, s.accountId, payment!.gatewayChargeId)).body.result).toBe("ignored");
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(events);
  });
});
