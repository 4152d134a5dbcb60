// Pagar.me scenarios (issue 19 items 3 and 5): refunds and the contract behaviours that depend on
// Pagar.me's capabilities. Refunds go through POST /v1/payments/{id}/refund and are DELETE
// /charges/{id} with an amount at Pagar.me, under our refund's key; partial refunds add up there
// (sumsPartialRefunds), so a second partial refund is accepted; a Pix is refunded in full only. A plan
// change whose proration is below Pagar.me's minimum charge (R$1.00) applies at once, free.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { deliverNotice, eventsOf, pagarmeSubscription, paymentsOf, startPagarmeTestbed, subscriptionOf } from "../helpers/pagarme.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const prisma = async () => (await testService()).runtime.db.prisma;
const cancels = (chargeId: string) => fake.requests.filter((r) => r.method === "DELETE" && r.path === `/charges/${chargeId}` && r.status === 200);

describe("Pagar.me: refunds", () => {
  it("card: two partial refunds add up (Pagar.me sums them), then the rest, total, cancels the subscription", async () => {
    const s = await pagarmeSubscription(fake, { card: "4000000000000010" });
    const [payment] = await paymentsOf(s.subscriptionId);
    const ch = payment!.gatewayChargeId;
    const r1 = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "cobrança a mais", revoke: "none" });
    expect(r1.status).toBeLessThan(300);
    const r2 = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 500, reason: "desconto combinado", revoke: "none" });
    expect(r2.status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 1500, refund_in_flight: false });
    expect(fake.charges.get(ch)).toMatchObject({ status: "paid", canceled_amount: 1500 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");

    const rest = await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 3490, reason: "desistência" });
    expect(rest.status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    expect(fake.charges.get(ch)).toMatchObject({ status: "canceled", canceled_amount: 4990 });
    // At Pagar.me: one DELETE per refund of ours, each under that refund's key, amount and operation_reference.
    const ours = await (await prisma()).refund.findMany({ where: { paymentId: payment!.id }, orderBy: { id: "asc" } });
    expect(cancels(ch).map((r) => [r.body.amount, r.idempotencyKey, r.body.operation_reference])).toEqual(ours.map((o) => [o.amountCents, o.idempotencyKey, o.idempotencyKey]));
    // Pagar.me's charge.refunded notice, re-read: the refunds are already finished, nothing more.
    expect(await deliverNotice(s.accountId, fake.lastEvent("charge.refunded", ch)!)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("payment.refunded"))).toHaveLength(3);
    // Past the balance: refused by us before any call.
    const before = fake.requests.length;
    expect((await post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents: 1, reason: "de novo" })).status).toBe(422);
    expect(fake.requests.length).toBe(before);
  });

  it("Pix: a partial refund is refused (422, nothing at Pagar.me); the total refund is DELETE /charges/{id} for the whole amount", async () => {
    const s = await pagarmeSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    fake.payPix(pix!.gatewayChargeId);
    expect((await deliverNotice(s.accountId, fake.lastEvent("charge.paid", pix!.gatewayChargeId)!)).status).toBe(200);
    const partial = await post(`/v1/payments/${pix!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "parcial", revoke: "none" });
    expect(partial.status).toBe(422);
    expect(cancels(pix!.gatewayChargeId)).toHaveLength(0);
    const total = await post(`/v1/payments/${pix!.id}/refund`, s.t.writeKey, { amount_cents: 4990, reason: "desistência" });
    expect(total.status).toBeLessThan(300);
    expect(cancels(pix!.gatewayChargeId).map((r) => r.body.amount)).toEqual([4990]);
    expect(fake.charges.get(pix!.gatewayChargeId)).toMatchObject({ status: "canceled", canceled_amount: 4990 });
    expect((await get(`/v1/payments/${pix!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990 });
  });
});

describe("Pagar.me: the gateway minimum in plan changes", () => {
  it("an upgrade whose proration is below R$1.00 applies at once, free, with no order at Pagar.me; one above it is charged there", async () => {
    const s = await pagarmeSubscription(fake, { card: "4000000000000010" });
    const row = await (await prisma()).subscription.findUniqueOrThrow({ where: { id: s.subscriptionId } });
    const start = row.currentPeriodStart!.getTime();
    const end = row.currentPeriodEnd!.getTime();
    await advanceClock(s.t, new Date(start + Math.floor((end - start) / 2 / 86_400_000) * 86_400_000).toISOString());
    const offer = async (priceCents: number) =>
      (
        await op(
          `mutation($t: ID!, $p: ID!, $g: String!, $c: Int!) { createOffer(tenantId: $t, planId: $p, name: "Pro+", interval: MONTH, priceCents: $c, currency: "BRL",
             gateway: $g, collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
          { t: s.t.tenantId, p: s.t.planId, g: s.accountId, c: priceCents },
        )
      ).createOffer.id as string;
    const orders = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/orders").length;
    const before = orders();
    // +R$1.50 for about half a period: about 75 cents, under Pagar.me's R$1.00 (it would be charged at Stripe, R$0.50).
    const small = await post(`/v1/subscriptions/${s.subscriptionId}/change-plan`, s.t.writeKey, { offer_id: await offer(4990 + 150) });
    expect(small.status).toBe(200);
    expect(small.body.plan_change).toMatchObject({ kind: "upgrade", effect: "immediate", charge_cents: 0 });
    expect(small.body.subscription.next_charge_amount_cents).toBe(5140);
    expect(orders()).toBe(before);
    // +R$10.00 more: about R$5.00, charged now at Pagar.me, once.
    const big = await post(`/v1/subscriptions/${s.subscriptionId}/change-plan`, s.t.writeKey, { offer_id: await offer(5140 + 1000) });
    expect(big.status).toBe(200);
    expect(big.body.plan_change).toMatchObject({ kind: "upgrade", effect: "immediate" });
    expect(big.body.plan_change.charge_cents).toBeGreaterThanOrEqual(100);
    expect(orders()).toBe(before + 1);
    const last = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").at(-1);
    expect(last).toMatchObject({ outcome: "approved", amount_cents: big.body.plan_change.charge_cents });
  });
});
