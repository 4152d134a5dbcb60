// Pagar.me's minimum charge (R$1.00) in plan changes: a proration below it applies at once, free, with no
// order at Pagar.me; one above it is charged there. (Refunds are the contract suite's:
// test/gateways/contract/refunds-dispute.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { pagarmeSubscription, startPagarmeTestbed } from "../helpers/pagarme.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const prisma = async () => (await testService()).runtime.db.prisma;

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
