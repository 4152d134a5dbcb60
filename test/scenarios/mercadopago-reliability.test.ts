// Mercado Pago scenarios (issue 19): a notice Mercado Pago sent that never arrived, and a provider outage
// (5xx after or before the charge, a timeout) during a billing pass, are settled by asking Mercado Pago
// (a payments search on external_reference = our key, from the reconcile job), never by charging again:
// Mercado Pago keeps one payment per X-Idempotency-Key and the fake counts the approved ones per key.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runBillingPass } from "../../core/billing/run-billing-pass.ts";
import { reconcilePayments } from "../../jobs/reconcile-payments.job.ts";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { setTenantClock } from "../helpers/factories.ts";
import { deliverNotice, eventsOf, mercadopagoCheckout, mercadopagoOffer, mercadopagoSideOf, mercadopagoSubscription, paymentsOf, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import type { TestService } from "../helpers/service.ts";

let fake: FakeMercadoPago;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startMercadoPagoTestbed({ automaticPayments: true })));
afterAll(() => fake?.close());
afterEach(() => void (svc.runtime.faults = undefined));

const prisma = () => svc.runtime.db.prisma;
/** The in-flight window (PAYMENT_IN_FLIGHT_MS) has passed for these payments: the reconcile job may ask about them. */
const pastInFlightWindow = (ids: string[]) => prisma().payment.updateMany({ where: { id: { in: ids } }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });
const invoicesPaid = async (readKey: string, id: string) => (await eventsOf(readKey, id)).filter((e) => e.startsWith("invoice.paid")).length;

/** A card subscription at Mercado Pago, its clock at the due date, and the billing pass with the next POST /v1/payments meeting `fault`. */
async function renewalMeeting(fault: Parameters<FakeMercadoPago["failNext"]>[0]) {
  const s = await mercadopagoSubscription(fake, { holder: "APRO" });
  const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
  await setTenantClock(s.t, new Date(due));
  fake.failNext(fault, { method: "POST", path: /^\/v1\/payments$/ });
  const summary = await runBillingPass(svc.runtime, { tenantId: s.t.tenantId });
  return { s, due, summary };
}

describe("Mercado Pago: lost notices and unknown outcomes", () => {
  it("a Pix paid whose notice never arrives: the reconcile job asks Mercado Pago and settles it; the late notice changes nothing", async () => {
    const s = await mercadopagoSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    fake.payPix(pix!.gatewayChargeId); // the notice is lost
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("pending_first_payment");
    await pastInFlightWindow([pix!.id]);
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "fetch_status:approved"]);
    expect(fake.requests.some((q) => q.path === "/v1/payments/search" && q.query.external_reference === pix!.idempotencyKey)).toBe(true);
    expect(await deliverNotice(fake, s.accountId, pix!.gatewayChargeId)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });

  it("Mercado Pago answers 500 after charging during the billing pass: unknown, then the reconcile job settles it paid; one charge", async () => {
    const { s, due, summary } = await renewalMeeting("500_after");
    expect(summary).toMatchObject({ unknown: 1, renewed: 0 });
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(renewal.status).toBe("UNKNOWN");
    expect(await subscriptionOf(s.t.readKey, s.subscriptionId)).toMatchObject({ status: "active", current_period_end: due });
    await reconcilePayments(svc.runtime);
    const after = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(due).getTime());
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).toMatchObject({ status: "PAID" });
    expect(mercadopagoSideOf(fake, renewal.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    expect(await paymentsOf(s.subscriptionId)).toHaveLength(2);
    // Mercado Pago's notice about it arrives late: nothing more.
    expect((await deliverNotice(fake, s.accountId, fake.paymentsFor(renewal.idempotencyKey)[0]!.id)).body.result).toBe("ignored");
    expect(await invoicesPaid(s.t.readKey, s.subscriptionId)).toBe(2);
  });

  it("Mercado Pago answers 500 having done nothing: reconciliation hears not found, the attempt fails and the retry charges once under a new key", async () => {
    const { s, due, summary } = await renewalMeeting("500");
    expect(summary.unknown).toBe(1);
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(mercadopagoSideOf(fake, renewal.idempotencyKey)).toEqual({ payments: 0, status: [], charges: 0 });
    await reconcilePayments(svc.runtime);
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).status).toBe("FAILED");
    await advanceClock(s.t, new Date(new Date(due).getTime() + 86_400_000).toISOString());
    const payments = await paymentsOf(s.subscriptionId);
    const paid = payments.filter((p) => p.status === "PAID");
    expect(paid).toHaveLength(2);
    expect(mercadopagoSideOf(fake, paid[1]!.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(payments.reduce((n, p) => n + fake.chargesFor(p.idempotencyKey), 0)).toBe(2); // the checkout and one renewal
  });

  it("a Mercado Pago timeout during the billing pass: unknown (timeout), the reconcile job settles it from Mercado Pago's record; one charge", async () => {
    // The shared service's adapter waits 30 s; a short timeout for this test (restored after).
    const adapter = svc.runtime.gateways.adapter("mercadopago") as unknown as { opts: { timeoutMs?: number } };
    const saved = adapter.opts.timeoutMs;
    adapter.opts.timeoutMs = 400;
    try {
      const { s, summary } = await renewalMeeting("hang");
      expect(summary.unknown).toBe(1);
      const renewal = (await paymentsOf(s.subscriptionId))[1]!;
      expect(renewal.status).toBe("UNKNOWN");
      expect((await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card" && e.outcome === "unknown").map((e) => e.detail_code)).toEqual(["timeout"]);
      await reconcilePayments(svc.runtime);
      expect((await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).status).toBe("PAID");
      expect(mercadopagoSideOf(fake, renewal.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
      expect(await invoicesPaid(s.t.readKey, s.subscriptionId)).toBe(2);
    } finally {
      adapter.opts.timeoutMs = saved;
    }
  });
});

describe("Mercado Pago: a crash between Mercado Pago's approval and our commit", () => {
  it("renewal: the process dies after Mercado Pago approved; the re-run settles from Mercado Pago's record, no second payment", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    let crashes = 0;
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge" && crashes++ === 0) throw new Error("simulated crash after Mercado Pago approved the renewal");
    };
    const summary = await advanceClock(s.t, due);
    expect(crashes).toBeGreaterThanOrEqual(1);
    expect(summary).toMatchObject({ errors: 1, renewed: 1 });
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    expect(mercadopagoSideOf(fake, payments[1]!.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    expect((await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "fetch_status").map((e) => e.outcome)).toEqual(["approved"]);
    expect(await invoicesPaid(s.t.readKey, s.subscriptionId)).toBe(2);
  });

  it("checkout: the process dies after Mercado Pago approved the first payment; the reconcile job refunds it at Mercado Pago, once", async () => {
    const s = await mercadopagoOffer(fake);
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge") throw new Error("simulated crash after Mercado Pago approved the checkout payment");
    };
    const r = await mercadopagoCheckout(s, { cardToken: fake.browserToken() });
    svc.runtime.faults = undefined;
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(await prisma().payment.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    const intent = await prisma().checkoutChargeIntent.findFirstOrThrow({ where: { tenantId: s.t.tenantId } });
    expect(mercadopagoSideOf(fake, intent.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    await prisma().checkoutChargeIntent.updateMany({ where: { id: intent.id }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });
    await reconcilePayments(svc.runtime);
    await reconcilePayments(svc.runtime);
    const [mp] = fake.paymentsFor(intent.idempotencyKey);
    expect(mp).toMatchObject({ status: "refunded", transaction_amount_refunded: 49.9 });
    expect(mp!.refunds).toHaveLength(1);
    expect(await prisma().checkoutChargeIntent.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    expect(await prisma().subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
  });
});
