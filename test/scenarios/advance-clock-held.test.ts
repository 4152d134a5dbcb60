// advanceClock runs every duty due up to `to` before it returns (service contract §2), also when
// another worker claimed one first: the background billing run of this or another instance holds
// the subscription's billing lease while it renews it. The call waits for that worker to let go
// rather than return with the renewal still running (the Stripe crash scenario met this on CI: the
// restarted child's billing job claimed the due renewal first, and the test read the old period).
import { describe, expect, it } from "vitest";
import { processDueSubscription } from "../../core/billing/process-due-subscription.ts";
import { advanceClock, subscribe, subscription } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { testService } from "../helpers/service.ts";

describe("advanceClock and a duty another worker holds", () => {
  it("waits for the holder to finish the renewal, then returns with it done and charged once", async () => {
    const { runtime } = await testService();
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    const due = (await subscription(t, sub.subscription_id)).current_period_end as string;
    expect(due).toBe("2027-04-10T12:00:00.000Z");

    // Another worker's claim, as claimDueSubscriptions makes it: the billing lease, on the wall clock.
    const prisma = runtime.db.prisma;
    await prisma.subscription.update({ where: { id: sub.subscription_id }, data: { billingLeaseUntil: new Date(Date.now() + 10_000) } });
    let returned = false;
    const call = op(
      `mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { renewed held errors } }`,
      { t: t.tenantId, to: "2027-04-10T13:00:00.000Z" },
    ).then((d) => {
      returned = true;
      return d.advanceClock as { renewed: number; held: number; errors: number };
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(returned).toBe(false);

    // The holder runs the duty on the tenant's clock (now moved to `to`) and lets go of the lease.
    const tenant = await prisma.tenant.findUniqueOrThrow({ where: { id: t.tenantId } });
    expect(await processDueSubscription(runtime, { tenantId: t.tenantId, subscriptionId: sub.subscription_id, now: tenant.clockAt! })).toBe("renewed");
    const summary = await call;
    expect(summary).toEqual({ renewed: 0, held: 1, errors: 0 });

    const after = await subscription(t, sub.subscription_id);
    expect(after.current_period_end).toBe("2027-05-10T12:00:00.000Z");
    const payments = await get(`/v1/customers/${encodeURIComponent(after.customer.external_id)}/payments`, t.readKey);
    expect(payments.body.results.map((p: any) => p.status)).toEqual(["paid", "paid"]);
  });

  it("runs the duty itself when the holder lets go without running it (its lease released, or expired)", async () => {
    const { runtime } = await testService();
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    const prisma = runtime.db.prisma;
    await prisma.subscription.update({ where: { id: sub.subscription_id }, data: { billingLeaseUntil: new Date(Date.now() + 300) } });
    const summary = await advanceClock(t, "2027-04-10T13:00:00.000Z");
    expect(summary.renewed).toBe(1);
    expect((await subscription(t, sub.subscription_id)).current_period_end).toBe("2027-05-10T12:00:00.000Z");
  });
});
