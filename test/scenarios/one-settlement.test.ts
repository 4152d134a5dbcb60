// One settlement for every verdict (core/billing/settle-payment.ts): the card batch, a plan change's
// proration heard late, and any other path record the verdict the same way, so the cases one path
// used to miss are now the same for all:
// - the card batch's approved renewal of a subscription canceled while its card was being charged is
//   a surplus (refunded), never a resurrected subscription;
// - a proration declined but heard only by reconciliation voids its invoice, so the next plan change
//   is decided (and charged), not refused as "another plan change in progress" forever.
import { afterEach, describe, expect, it } from "vitest";
import { reconcileUnknownPayments } from "../../core/billing/reconcile-unknown-payments.ts";
import type { GatewayAccountRef } from "../../core/gateways/adapter.ts";
import { cancelSubscription } from "../../core/subscriptions/cancel-subscription.ts";
import { advanceClock, CARDS, subscribe, subscription } from "../helpers/billing.ts";
import { op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";

describe("one settlement for every verdict", () => {
  afterEach(async () => {
    const svc = await testService();
    svc.runtime.faults = undefined;
    delete (svc.runtime.gateways.sandbox as unknown as Record<string, unknown>).chargeToken; // back to the prototype's
  });

  it("a batch renewal approved after its subscription was canceled mid-charge is refunded as a surplus, and the subscription stays canceled", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T09:00:00.000Z");
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const svc = await testService();
    const prisma = svc.runtime.db.prisma;
    const sandbox = svc.runtime.gateways.sandbox;
    const charge = sandbox.chargeToken.bind(sandbox);
    // The renewal's charge is approved at the gateway while a cancel commits (the batch holds no lock then).
    sandbox.chargeToken = async (account: GatewayAccountRef, req, now) => {
      const result = await charge(account, req, now);
      if (account.tenantId === t.tenantId) await cancelSubscription(svc.runtime, { tenantId: t.tenantId, subscriptionId: id, reason: null, atPeriodEnd: false, now });
      return result;
    };
    const run = await advanceClock(t, "2027-05-01T10:00:00.000Z");
    expect(run.errors).toBe(0);
    expect(await subscription(t, id)).toMatchObject({ status: "canceled" });
    const renewal = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: id, kind: "CYCLE" } });
    expect(renewal.status).toBe("VOID");
    const payment = await prisma.payment.findFirstOrThrow({ where: { invoiceId: renewal.id } });
    expect(payment).toMatchObject({ status: "REFUNDED", paidInvoiceId: null, refundedAmountCents: payment.amountCents });
    const gateway = await prisma.sandboxCharge.findFirstOrThrow({ where: { tenantId: t.tenantId, idempotencyKey: payment.idempotencyKey } });
    expect(gateway.refundedCents).toBe(gateway.amountCents);
  });

  it("a proration declined but heard only by reconciliation voids its invoice: the next plan change is charged, not refused as in progress", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T09:00:00.000Z");
    // Accepted at checkout, declined on every later (off-session) charge: the proration declines.
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    await advanceClock(t, "2027-04-11T09:00:00.000Z");
    const svc = await testService();
    const prisma = svc.runtime.db.prisma;
    const plan = (await prisma.offer.findUniqueOrThrow({ where: { id: t.monthlyOfferId } })).planId;
    const { createOffer } = await op(
      `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Max", interval: MONTH, priceCents: 9990, currency: "BRL", gateway: "sandbox",
         collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
      { t: t.tenantId, p: plan },
    );
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge") {
        svc.runtime.faults = undefined;
        throw new Error("simulated crash after the proration charge");
      }
    };
    // Raw fetch: the crash's 500 is not a documented answer (the helper checks the OpenAPI document).
    const crashed = await fetch(`${svc.baseUrl}/v1/subscriptions/${sub.subscription_id}/change-plan`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.writeKey}`, "content-type": "application/json" },
      body: JSON.stringify({ offer_id: createOffer.id }),
    });
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    await reconcileUnknownPayments(svc.runtime, { olderThanMs: 0 });
    const invoice = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: sub.subscription_id, kind: "PRORATION" } });
    expect(invoice.status).toBe("VOID");
    expect(await prisma.payment.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({ status: "FAILED" });
    const again = await changePlan(t, sub.subscription_id, { offer_id: createOffer.id });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/declined/);
    expect(await subscription(t, sub.subscription_id)).toMatchObject({ status: "active" });
  });
});
