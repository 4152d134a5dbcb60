// Stripe scenarios (issue 18 item 5): the sandbox's reliability stories on the fake Stripe. A notice
// Stripe sent that never arrived, a 5xx or a timeout from Stripe during a billing pass, and a crash
// between Stripe's approval and our commit (renewal and checkout) are settled by asking Stripe (the
// reconcile job, or the billing run's own look before any new try), never by charging again: Stripe
// holds one PaymentIntent per key and the fake counts one successful charge per key.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reconcilePayments } from "../../jobs/reconcile-payments.job.ts";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { runBillingPass } from "../../core/billing/run-billing-pass.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { setTenantClock } from "../helpers/factories.ts";
import type { TestService } from "../helpers/service.ts";
import { startStripeTestbed, stripeOffer } from "../helpers/stripe.ts";
import { deliver, eventAbout, eventsOf, paymentsOf, stripeCheckout, stripeSideOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());
afterEach(() => void (svc.runtime.faults = undefined));

const prisma = () => svc.runtime.db.prisma;
/** The in-flight window (PAYMENT_IN_FLIGHT_MS) has passed for these payments: the reconcile job may ask about them. */
const pastInFlightWindow = (ids: string[]) => prisma().payment.updateMany({ where: { id: { in: ids } }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });

/**
 * A card subscription at Stripe, its clock at the due date, and the billing run's pass over it (as the
 * cron runs it) with the next POST /v1/payment_intents meeting `fault`.
 */
async function renewalMeeting(fault: Parameters<FakeStripe["failNext"]>[0]) {
  const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
  const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
  await setTenantClock(s.t, new Date(due));
  fake.failNext(fault, { method: "POST", path: /^\/v1\/payment_intents$/ });
  const summary = await runBillingPass(svc.runtime, { tenantId: s.t.tenantId });
  return { s, due, summary };
}

describe("Stripe: lost notices and unknown outcomes", () => {
  it("a Pix paid at Stripe whose notice never arrives: the reconcile job asks Stripe and settles it; the late notice changes nothing", async () => {
    const s = await stripeSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    fake.payPix(pix!.gatewayChargeId); // the notice is lost: nothing delivered
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("pending_first_payment"); // within the in-flight window the notice gets its chance
    await pastInFlightWindow([pix!.id]);
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "fetch_status:approved"]);
    expect(await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", pix!.gatewayChargeId))).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });

  it("Stripe answers 500 after charging during the billing pass: unknown, then the reconcile job settles it paid; one charge", async () => {
    const { s, due, summary } = await renewalMeeting("500_after");
    expect(summary).toMatchObject({ unknown: 1, renewed: 0, past_due: 0 });
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(renewal.status).toBe("UNKNOWN");
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId))).toMatchObject({ status: "active", current_period_end: due });
    await reconcilePayments(svc.runtime);
    const after = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(after.status).toBe("active");
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(due).getTime());
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).toMatchObject({ status: "PAID" });
    expect(stripeSideOf(fake, renewal.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });
    expect(await paymentsOf(s.subscriptionId)).toHaveLength(2);
    // The notice Stripe sent then arrives late: nothing more.
    expect((await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", fake.intentsFor(renewal.idempotencyKey)[0]!.id))).body.result).toBe("ignored");
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.paid"))).toHaveLength(2);
  });

  it("Stripe answers 500 having done nothing: reconciliation hears not found, the attempt fails and the retry charges once under a new key", async () => {
    const { s, due, summary } = await renewalMeeting("500");
    expect(summary.unknown).toBe(1);
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(stripeSideOf(fake, renewal.idempotencyKey)).toEqual({ intents: 0, status: [], charges: 0 });
    await reconcilePayments(svc.runtime);
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).toMatchObject({ status: "FAILED", failureCode: "not_received_by_gateway" });
    // Not the customer's decline: no dunning step, still active, nothing announced.
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.payment_failed"))).toEqual([]);
    // The next attempt of the schedule charges the card, once, under its own key.
    await advanceClock(s.t, new Date(new Date(due).getTime() + 86_400_000).toISOString());
    const payments = await paymentsOf(s.subscriptionId);
    const paid = payments.filter((p) => p.status === "PAID");
    expect(paid).toHaveLength(2);
    expect(stripeSideOf(fake, paid[1]!.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    const charged = payments.reduce((n, p) => n + fake.chargesFor(p.idempotencyKey), 0);
    expect(charged).toBe(2); // the checkout and one renewal
  });

  it("a Stripe timeout during the billing pass: unknown, the reconcile job settles it from Stripe's record; one charge", async () => {
    // The shared service's adapter waits 30 s; a short timeout for this test (restored after), clients rebuilt with it.
    const adapter = svc.runtime.gateways.adapter("stripe") as unknown as { opts: { timeoutMs?: number }; clients: Map<string, unknown> };
    const saved = adapter.opts.timeoutMs;
    adapter.opts.timeoutMs = 400;
    adapter.clients.clear();
    try {
      const { s, summary } = await renewalMeeting("hang");
      expect(summary.unknown).toBe(1);
      const renewal = (await paymentsOf(s.subscriptionId))[1]!;
      expect(renewal.status).toBe("UNKNOWN");
      const timeouts = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card" && e.outcome === "unknown");
      expect(timeouts.map((e) => e.detail_code)).toEqual(["timeout"]);
      await reconcilePayments(svc.runtime);
      expect((await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).status).toBe("PAID");
      expect(stripeSideOf(fake, renewal.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });
      expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.paid"))).toHaveLength(2);
    } finally {
      adapter.opts.timeoutMs = saved;
      adapter.clients.clear();
    }
  });
});

describe("Stripe: a crash between Stripe's approval and our commit", () => {
  it("renewal: the process dies after Stripe charged; the re-run settles from Stripe's record, no second charge", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    let crashes = 0;
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge" && crashes++ === 0) throw new Error("simulated crash after Stripe approved the renewal");
    };
    const summary = await advanceClock(s.t, due);
    expect(crashes).toBeGreaterThanOrEqual(1);
    expect(summary.errors).toBe(1);
    expect(summary.renewed).toBe(1); // the re-run asked Stripe (fetchStatus) instead of charging again
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    expect(stripeSideOf(fake, payments[1]!.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });
    expect((await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "fetch_status").map((e) => e.outcome)).toEqual(["approved"]);
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.paid"))).toHaveLength(2);
  });

  it("checkout: the process dies after Stripe charged the first payment; the reconcile job gives the money back at Stripe, once", async () => {
    const s = await stripeOffer(fake);
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge") throw new Error("simulated crash after Stripe approved the checkout charge");
    };
    const r = await stripeCheckout(s, { pm: "pm_card_visa" });
    svc.runtime.faults = undefined;
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(await prisma().payment.count({ where: { tenantId: s.t.tenantId } })).toBe(0); // money taken, nothing recorded
    const intent = await prisma().checkoutChargeIntent.findFirstOrThrow({ where: { tenantId: s.t.tenantId } });
    expect(stripeSideOf(fake, intent.idempotencyKey)).toEqual({ intents: 1, status: ["succeeded"], charges: 1 });

    await prisma().checkoutChargeIntent.updateMany({ where: { id: intent.id }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });
    await reconcilePayments(svc.runtime);
    await reconcilePayments(svc.runtime);
    const pi = fake.intentsFor(intent.idempotencyKey)[0]!;
    const refunds = [...fake.refunds.values()].filter((x) => x.payment_intent === pi.id);
    expect(refunds.map((x) => [x.amount, x.status])).toEqual([[4990, "succeeded"]]);
    expect(await prisma().checkoutChargeIntent.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    expect(await prisma().subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    expect(fake.chargesFor(intent.idempotencyKey)).toBe(1);
  });
});
