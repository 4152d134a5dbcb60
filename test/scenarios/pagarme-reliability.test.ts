// Pagar.me scenarios (issue 19 item 5): a notice Pagar.me sent that never arrived, and a Pagar.me outage
// (5xx, timeout) during a billing pass. Each is settled by asking Pagar.me (the reconcile job: the order
// whose code is our key), never by charging again: the fake counts one paid charge per key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBillingPass } from "../../core/billing/run-billing-pass.ts";
import { reconcilePayments } from "../../jobs/reconcile-payments.job.ts";
import type { FakePagarme, FaultKind } from "../fakes/pagarme/fake-pagarme.ts";
import { advanceClock, gatewayEvents } from "../helpers/billing.ts";
import { setTenantClock } from "../helpers/factories.ts";
import { deliverNotice, eventsOf, pagarmeSideOf, pagarmeSubscription, paymentsOf, startPagarmeTestbed, subscriptionOf } from "../helpers/pagarme.ts";
import type { TestService } from "../helpers/service.ts";

let fake: FakePagarme;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const prisma = () => svc.runtime.db.prisma;
/** The in-flight window has passed for these payments: the reconcile job may ask about them. */
const pastInFlightWindow = (ids: string[]) => prisma().payment.updateMany({ where: { id: { in: ids } }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });

/** A card subscription at Pagar.me, its clock at the due date, and a billing pass with the next POST /orders meeting `fault`. */
async function renewalMeeting(fault: FaultKind) {
  const s = await pagarmeSubscription(fake, { card: "4000000000000010" });
  const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
  await setTenantClock(s.t, new Date(due));
  fake.failNext(fault, { method: "POST", path: /^\/orders$/ });
  const summary = await runBillingPass(svc.runtime, { tenantId: s.t.tenantId });
  return { s, due, summary };
}

describe("Pagar.me: lost notices and unknown outcomes", () => {
  it("a Pix paid at Pagar.me whose notice never arrives: the reconcile job asks Pagar.me and settles it; the late notice changes nothing", async () => {
    const s = await pagarmeSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    fake.payPix(pix!.gatewayChargeId); // the notice is lost: nothing delivered
    await pastInFlightWindow([pix!.id]);
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "fetch_status:approved"]);
    expect(await deliverNotice(s.accountId, fake.lastEvent("charge.paid", pix!.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });

  it("Pagar.me answers 500 after charging during the billing pass: unknown, then the reconcile job settles it paid; one charge", async () => {
    const { s, due, summary } = await renewalMeeting("500_after");
    expect(summary).toMatchObject({ unknown: 1, renewed: 0 });
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(renewal.status).toBe("UNKNOWN");
    expect(await subscriptionOf(s.t.readKey, s.subscriptionId)).toMatchObject({ status: "active", current_period_end: due });
    await reconcilePayments(svc.runtime);
    const after = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(due).getTime());
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).toMatchObject({ status: "PAID" });
    expect(pagarmeSideOf(fake, renewal.idempotencyKey)).toEqual({ orders: 1, status: ["paid"], charges: 1 });
    expect(await paymentsOf(s.subscriptionId)).toHaveLength(2);
    // The notice Pagar.me sent then arrives late: nothing more.
    const charge = fake.ordersFor(renewal.idempotencyKey)[0]!.charges[0].id;
    expect((await deliverNotice(s.accountId, fake.lastEvent("charge.paid", charge)!)).body.result).toBe("ignored");
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.paid"))).toHaveLength(2);
  });

  it("Pagar.me answers 500 having done nothing: reconciliation hears not found, the attempt fails and the retry charges once under a new key", async () => {
    const { s, due, summary } = await renewalMeeting("500");
    expect(summary.unknown).toBe(1);
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(pagarmeSideOf(fake, renewal.idempotencyKey)).toEqual({ orders: 0, status: [], charges: 0 });
    await reconcilePayments(svc.runtime);
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).status).toBe("FAILED");
    await advanceClock(s.t, new Date(new Date(due).getTime() + 86_400_000).toISOString());
    const payments = await paymentsOf(s.subscriptionId);
    const paid = payments.filter((p) => p.status === "PAID");
    expect(paid).toHaveLength(2);
    expect(pagarmeSideOf(fake, paid[1]!.idempotencyKey)).toEqual({ orders: 1, status: ["paid"], charges: 1 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(payments.reduce((n, p) => n + fake.chargesFor(p.idempotencyKey), 0)).toBe(2); // the checkout and one renewal
  });

  it("a Pagar.me timeout during the billing pass: unknown (timeout), the reconcile job settles it from Pagar.me's record; one charge", async () => {
    // The shared service's adapter waits 30 s; a short timeout for this test (restored after), clients rebuilt with it.
    const adapter = svc.runtime.gateways.adapter("pagarme") as unknown as { opts: { timeoutMs?: number }; clients: Map<string, unknown> };
    const saved = adapter.opts.timeoutMs;
    adapter.opts.timeoutMs = 400;
    adapter.clients.clear();
    try {
      const { s, summary } = await renewalMeeting("hang");
      expect(summary.unknown).toBe(1);
      const renewal = (await paymentsOf(s.subscriptionId))[1]!;
      expect(renewal.status).toBe("UNKNOWN");
      const unknowns = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card" && e.outcome === "unknown");
      expect(unknowns.map((e) => e.detail_code)).toEqual(["timeout"]);
      await reconcilePayments(svc.runtime);
      expect((await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).status).toBe("PAID");
      expect(pagarmeSideOf(fake, renewal.idempotencyKey)).toEqual({ orders: 1, status: ["paid"], charges: 1 });
      expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.paid"))).toHaveLength(2);
    } finally {
      adapter.opts.timeoutMs = saved;
      adapter.clients.clear();
    }
  });
});
