// Money safety of the billing run on the sandbox: its timeout card, its scheduled chargeback, and two job
// instances on one PostgreSQL never charging twice. (A crash between the charge and our commit is the
// contract suite's, for every provider: test/gateways/contract/reliability.test.ts.)
import { afterEach, describe, expect, it } from "vitest";
import { reconcileUnknownPayments } from "../../core/billing/reconcile-unknown-payments.ts";
import { runBillingPass } from "../../core/billing/run-billing-pass.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { openDb } from "../../prisma/client.ts";
import { buildService } from "../../server/service.ts";
import { advanceClock, CARDS, gatewayEvents, subscribe, subscription } from "../helpers/billing.ts";
import { setTenantClock } from "../helpers/factories.ts";
import { get } from "../helpers/http.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const charges = async (t: Awaited<ReturnType<typeof newTenant>>, id: string) =>
  (await gatewayEvents(t, id)).filter((e) => e.kind === "charge_card");

describe("billing run reliability", () => {
  afterEach(async () => {
    (await testService()).runtime.faults = undefined;
  });

  it("a gateway timeout leaves the attempt unknown (processing) until reconciliation settles it", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T09:00:00.000Z");
    // At checkout the timeout is settled on the spot by asking the gateway.
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.timeout });
    expect(sub.status).toBe("active");
    const svc = await testService();
    // The cron's run on this tenant hits the timeout; the attempt stays unknown.
    await setTenantClock(t, new Date("2027-05-01T09:00:00.000Z"));
    const pass = await runBillingPass(svc.runtime, { tenantId: t.tenantId });
    expect(pass.unknown).toBe(1);
    const current = await subscription(t, sub.subscription_id);
    const payments = await get(`/v1/customers/${encodeURIComponent(current.customer.external_id)}/payments`, t.readKey);
    expect(payments.body.results.map((p: any) => p.status)).toEqual(["paid", "processing"]);
    expect(current.status).toBe("active");

    const swept = await reconcileUnknownPayments(svc.runtime, { olderThanMs: 0 });
    expect(swept.paid).toBeGreaterThanOrEqual(1);
    const after = await get(`/v1/customers/${encodeURIComponent(current.customer.external_id)}/payments`, t.readKey);
    expect(after.body.results.map((p: any) => p.status)).toEqual(["paid", "paid"]);
    expect((await subscription(t, sub.subscription_id)).current_period_end).toBe("2027-06-01T09:00:00.000Z");
    const renewalCharges = (await charges(t, sub.subscription_id)).filter((e) => e.created_at.startsWith("2027-05-01"));
    expect(renewalCharges.map((e) => e.outcome)).toEqual(["unknown"]);
  });

  it("card 4000000000000259 is charged back by the sandbox one day after the charge", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T09:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.chargeback });
    const summary = await advanceClock(t, "2027-04-02T09:00:00.000Z");
    expect(summary.chargebacks).toBe(1);
    const now = await subscription(t, sub.subscription_id);
    expect(now.last_payment.status).toBe("chargedback");
    expect((await gatewayEvents(t, sub.subscription_id)).map((e) => e.kind)).toContain("chargeback");
  });

  it.skipIf(!process.env.DATABASE_URL)("two job instances on one PostgreSQL never bill a subscription twice", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T09:00:00.000Z");
    const subs: string[] = [];
    for (let i = 0; i < 40; i++) subs.push((await subscribe(t.monthlyOfferId)).subscription_id);
    await setTenantClock(t, new Date("2027-05-01T09:00:00.000Z"));

    const other = await buildService(await openDb({ url: process.env.DATABASE_URL, migrate: false }), createLogger("silent"), {
      adminToken: ADMIN_TOKEN,
      publicUrl: "http://localhost",
    });
    try {
      // Scoped to this tenant: other test files share the database, and their due rows (some built to
      // fail) are not this test's business. The claim, lease and charge paths are the job's own.
      const pass = (runtime: typeof other.runtime) => runBillingPass(runtime, { tenantId: t.tenantId });
      const [a, b] = await Promise.all([pass((await testService()).runtime), pass(other.runtime)]);
      expect(a.renewed + b.renewed).toBe(40);
      expect(a.errors + b.errors).toBe(0);
    } finally {
      await other.runtime.db.close();
    }
    for (const id of subs) {
      expect((await charges(t, id)).length).toBe(2);
      expect((await subscription(t, id)).current_period_end).toBe("2027-06-01T09:00:00.000Z");
    }
  });
});
