// Mercado Pago scenarios (issue 19): a notice Mercado Pago sent that never arrived, and a provider outage
// (5xx after or before the charge, a timeout) during a billing pass, are settled by asking Mercado Pago
// (a payments search on external_reference = our key, from the reconcile job), never by charging again:
// Mercado Pago keeps one payment per X-Idempotency-Key and the fake counts the approved ones per key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBillingPass } from "../../core/billing/run-billing-pass.ts";
import { reconcilePayments } from "../../jobs/reconcile-payments.job.ts";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { setTenantClock } from "../helpers/factories.ts";
import { deliverNotice, eventsOf, mercadopagoSideOf, mercadopagoSubscription, paymentsOf, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import type { TestService } from "../helpers/service.ts";

let fake: FakeMercadoPago;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startMercadoPagoTestbed()));
afterAll(() => fake?.close());

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
