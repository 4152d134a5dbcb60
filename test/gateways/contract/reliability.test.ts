// The adapter contract: reliability, written once for every provider's driver. A notice the provider
// sent that never arrived, an outage (a 5xx after or before the charge, a timeout) during a billing pass,
// and a crash between the provider's approval and our commit (renewal and checkout) are settled by asking
// the provider (the reconcile job, or the billing run's own look before any new try), never by charging
// again: the provider holds one charge per key.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runBillingPass } from "../../../core/billing/run-billing-pass.ts";
import { reconcilePayments } from "../../../jobs/reconcile-payments.job.ts";
import { advanceClock, gatewayEvents } from "../../helpers/billing.ts";
import { setTenantClock } from "../../helpers/factories.ts";
import { testService, type TestService } from "../../helpers/service.ts";
import { eventsOf, expectResult, paymentsOf, subscribeWith, subscriptionOf, type ContractOffer, type Outage, type ProviderDriver } from "./driver.ts";
import { DRIVERS } from "./drivers/index.ts";

let svc: TestService;
beforeAll(async () => void (svc = await testService()));
afterEach(() => void (svc.runtime.faults = undefined));

const prisma = () => svc.runtime.db.prisma;
/** The in-flight window (PAYMENT_IN_FLIGHT_MS) has passed for these rows: the reconcile job may ask about them. */
const pastInFlightWindow = (ids: string[]) => prisma().payment.updateMany({ where: { id: { in: ids } }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });
const invoicesPaid = async (s: ContractOffer, id: string) => (await eventsOf(s, id)).filter((e) => e.startsWith("invoice.paid")).length;

/** A card subscription, its clock at the due date, and the billing run's pass over it (as the cron runs it) with the next charge meeting `fault`. */
async function renewalMeeting(d: ProviderDriver, fault: Outage) {
  const s = await subscribeWith(d, "card");
  const due = (await subscriptionOf(s, s.subscriptionId)).current_period_end as string;
  await setTenantClock(s.t, new Date(due));
  await d.failNextCharge(s, fault);
  const summary = await runBillingPass(svc.runtime, { tenantId: s.t.tenantId });
  return { s, due, summary };
}

describe.each(DRIVERS.filter((d) => d.sendsNotices))("$name: notices lost or settling an unknown outcome", (d) => {
  beforeAll(() => d.start());
  afterAll(() => d.stop());

  it("a Pix paid whose notice never arrives: the reconcile job asks the provider and settles it; the late notice changes nothing", async () => {
    const s = await subscribeWith(d, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    const notice = await d.payPix(s, s.answer.pix.copy_paste); // lost: not delivered
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("pending_first_payment"); // within the in-flight window the notice gets its chance
    await pastInFlightWindow([pix!.id]);
    await reconcilePayments(svc.runtime);
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("active");
    expect(await eventsOf(s, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "fetch_status:approved"]);
    await d.hooks?.pixReconciled?.(pix!);
    expectResult(await notice.deliver(), "ignored");
    expect(await eventsOf(s, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });

  it("a renewal left unknown (500 after the charge) is settled by the provider's notice: paid once; the next pass charges nothing", async () => {
    const { s, summary } = await renewalMeeting(d, "500_after");
    expect(summary.unknown).toBe(1);
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(renewal.status).toBe("UNKNOWN");
    expectResult(await d.chargeNotice(s, renewal.idempotencyKey)!.deliver(), "applied");
    const paid = await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } });
    expect(paid.status).toBe("PAID");
    expect(paid.gatewayChargeId).not.toBe("");
    expect(await invoicesPaid(s, s.subscriptionId)).toBe(2);
    expect((await runBillingPass(svc.runtime, { tenantId: s.t.tenantId })).renewed).toBe(0);
    expect(await d.side(renewal.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
    expect(await paymentsOf(s.subscriptionId)).toHaveLength(2);
  });
});

describe.each(DRIVERS)("$name: outages and crashes", (d) => {
  beforeAll(() => d.start());
  afterAll(() => d.stop());

  it("the provider answers 500 after charging during the billing pass: unknown, then the reconcile job settles it paid; one charge", async () => {
    const { s, due, summary } = await renewalMeeting(d, "500_after");
    expect(summary).toMatchObject({ unknown: 1, renewed: 0 });
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(renewal.status).toBe("UNKNOWN");
    expect(await subscriptionOf(s, s.subscriptionId)).toMatchObject({ status: "active", current_period_end: due });
    await reconcilePayments(svc.runtime);
    const after = await subscriptionOf(s, s.subscriptionId);
    expect(after.status).toBe("active");
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(due).getTime());
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).toMatchObject({ status: "PAID" });
    expect(await d.side(renewal.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
    expect(await paymentsOf(s.subscriptionId)).toHaveLength(2);
    // The notice the provider sent then arrives late: nothing more.
    const late = d.chargeNotice(s, renewal.idempotencyKey);
    if (late) expectResult(await late.deliver(), "ignored");
    expect(await invoicesPaid(s, s.subscriptionId)).toBe(2);
  });

  it("the provider answers 500 having done nothing: reconciliation hears not found, the attempt fails and the retry charges once under a new key", async () => {
    const { s, due, summary } = await renewalMeeting(d, "500");
    expect(summary.unknown).toBe(1);
    const renewal = (await paymentsOf(s.subscriptionId))[1]!;
    expect(await d.side(renewal.idempotencyKey)).toEqual({ made: 0, charged: 0, refunded: 0 });
    await reconcilePayments(svc.runtime);
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).toMatchObject({ status: "FAILED", failureCode: "not_received_by_gateway" });
    // Not the customer's decline: no dunning step, still active, nothing announced.
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("active");
    expect((await eventsOf(s, s.subscriptionId)).filter((e) => e.startsWith("invoice.payment_failed"))).toEqual([]);
    // The next attempt of the schedule charges the card, once, under its own key.
    await advanceClock(s.t, new Date(new Date(due).getTime() + 86_400_000).toISOString());
    const payments = await paymentsOf(s.subscriptionId);
    const paid = payments.filter((p) => p.status === "PAID");
    expect(paid).toHaveLength(2);
    expect(await d.side(paid[1]!.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("active");
    let charged = 0;
    for (const p of payments) charged += (await d.side(p.idempotencyKey)).charged;
    expect(charged).toBe(2); // the checkout and one renewal
  });

  it("a timeout during the billing pass: unknown (timeout), the reconcile job settles it from the provider's record; one charge", async () => {
    await d.withShortTimeout(async () => {
      const { s, summary } = await renewalMeeting(d, "hang");
      expect(summary.unknown).toBe(1);
      const renewal = (await paymentsOf(s.subscriptionId))[1]!;
      expect(renewal.status).toBe("UNKNOWN");
      const unknowns = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card" && e.outcome === "unknown");
      expect(unknowns.map((e) => e.detail_code)).toEqual(["timeout"]);
      await reconcilePayments(svc.runtime);
      expect((await prisma().payment.findUniqueOrThrow({ where: { id: renewal.id } })).status).toBe("PAID");
      expect(await d.side(renewal.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
      expect(await invoicesPaid(s, s.subscriptionId)).toBe(2);
    });
  });

  it("a crash after the provider approved the renewal: the re-run settles from the provider's record, no second charge", async () => {
    const s = await subscribeWith(d, "card");
    const due = (await subscriptionOf(s, s.subscriptionId)).current_period_end as string;
    let crashes = 0;
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge" && crashes++ === 0) throw new Error("simulated crash after the provider approved the renewal");
    };
    const summary = await advanceClock(s.t, due);
    expect(crashes).toBeGreaterThanOrEqual(1);
    expect(summary).toMatchObject({ errors: 1, renewed: 1 }); // the re-run asked the provider (fetchStatus) instead of charging again
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    expect(await d.side(payments[1]!.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
    expect((await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "fetch_status").map((e) => e.outcome)).toEqual(["approved"]);
    expect(await invoicesPaid(s, s.subscriptionId)).toBe(2);
  });

  it("a crash after the provider approved the checkout's charge: the reconcile job gives the money back at the provider, once", async () => {
    const o = await d.offer();
    svc.runtime.faults = (point) => {
      if (point === "after-gateway-charge") throw new Error("simulated crash after the provider approved the checkout charge");
    };
    const r = await d.checkout(o, "card");
    svc.runtime.faults = undefined;
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(await prisma().payment.count({ where: { tenantId: o.t.tenantId } })).toBe(0); // money taken, nothing recorded
    const intent = await prisma().checkoutChargeIntent.findFirstOrThrow({ where: { tenantId: o.t.tenantId } });
    expect(await d.side(intent.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });

    await prisma().checkoutChargeIntent.updateMany({ where: { id: intent.id }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });
    await reconcilePayments(svc.runtime);
    await reconcilePayments(svc.runtime);
    expect(await d.side(intent.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 4990 });
    expect(await prisma().checkoutChargeIntent.count({ where: { tenantId: o.t.tenantId } })).toBe(0);
    expect(await prisma().subscription.count({ where: { tenantId: o.t.tenantId } })).toBe(0);
  });
});
