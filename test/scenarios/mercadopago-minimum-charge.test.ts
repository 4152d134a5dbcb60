// Mercado Pago's minimum charge (R$1.00) in plan changes: a proration under it applies the change without a
// charge; a larger one is charged at Mercado Pago under our key. (Refunds and chargebacks are the contract
// suite's: test/gateways/contract/refunds-dispute.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADAPTER_DEFAULTS } from "../../core/gateways/capabilities.ts";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock } from "../helpers/billing.ts";
import { op } from "../helpers/http.ts";
import { mercadopagoSideOf, mercadopagoSubscription, paymentsOf, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";

let fake: FakeMercadoPago;
beforeAll(async () => void ({ fake } = await startMercadoPagoTestbed({ automaticPayments: true })));
afterAll(() => fake?.close());

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
