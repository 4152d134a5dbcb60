// "Your trial ends in 3 days": queued when the tenant's clock reaches three days before the trial end
// (advanceClock stops at that instant on a long move), with the first charge's amount and method;
// once per trial end, however many passes or instances run.
import { describe, expect, it } from "vitest";
import { queueTrialReminders } from "../../core/subscriptions/queue-trial-reminders.ts";
import { billingRun } from "../../jobs/billing-run.job.ts";
import { advanceClock, makeOffer, subscribe, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { emailRows } from "./email-rows.ts";

describe("trial_ending", { timeout: 120_000 }, () => {
  it("a long move over the reminder instant stops there, queues one e-mail with the first charge, then the trial is charged", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 14, priceCents: 4990 });
    await advanceClock(t, "2027-10-01T10:00:00.000Z");
    const sub = await subscribe(offerId);
    expect(sub.status).toBe("trialing");

    const early = await op(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { trialReminders } }`, { t: t.tenantId, to: "2027-10-12T09:59:59.000Z" });
    expect(early.advanceClock.trialReminders).toBe(0);
    expect(await emailRows(t.tenantId, "trial_ending")).toEqual([]);

    const moved = await op(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { trialReminders renewed } }`, { t: t.tenantId, to: "2027-10-20T00:00:00.000Z" });
    expect(moved.advanceClock).toEqual({ trialReminders: 1, renewed: 1 });
    const rows = await emailRows(t.tenantId, "trial_ending");
    expect(rows).toHaveLength(1);
    const [row] = rows;
    // Queued at the instant 3 days before the end, not at the end of the move.
    expect(row!.createdAt.toISOString()).toBe("2027-10-12T10:00:00.000Z");
    expect(row!.sourceKey).toBe(`${sub.subscription_id}:2027-10-15T10:00:00.000Z`);
    const customer = await (await testService()).runtime.db.prisma.customer.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(row).toMatchObject({ to: customer.email, customerId: customer.id, status: "PENDING", subject: expect.stringMatching(/^\[TESTE\] Seu período de teste do plano Pro termina em 3 dias \(t-[a-z0-9]+\)$/) });
    expect(row!.params).toEqual({
      planName: "Pro",
      trialEndsAt: "2027-10-15T10:00:00.000Z",
      amountCents: 4990,
      currency: expect.stringMatching(/^brl$/i),
      method: { kind: "card", brand: "visa", last4: "4242" },
    });
    expect((await subscription(t, sub.subscription_id)).status).toBe("active");
  });

  it("the first charge is the price less the coupon; passes run by several instances queue it once", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 7, priceCents: 10000 });
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "METADE", percentOff: 50, cycles: 1) { id } }`, { t: t.tenantId });
    await advanceClock(t, "2027-01-01T00:00:00.000Z");
    const sub = await subscribe(offerId, { coupon: "METADE" });
    expect(sub.status).toBe("trialing");
    // The clock reaches the window without advanceClock's own pass: the background job's passes queue it.
    await (await testService()).runtime.db.prisma.tenant.update({ where: { id: t.tenantId }, data: { clockAt: new Date("2027-01-05T00:00:00.000Z") } });
    const { runtime } = await testService();
    const passes = await Promise.all([1, 2, 3].map(() => queueTrialReminders(runtime, { tenantId: t.tenantId })));
    expect(passes.reduce((n, p) => n + p.queued, 0)).toBe(1);
    await billingRun(runtime);
    const rows = await emailRows(t.tenantId, "trial_ending");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.params).toMatchObject({ amountCents: 5000, trialEndsAt: "2027-01-08T00:00:00.000Z" });
  });

  it("no reminder for a trial whose cancellation is scheduled or that lasts 3 days or less; a Pix trial names Pix as the method", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 10 });
    await advanceClock(t, "2027-04-01T00:00:00.000Z");
    const canceled = await subscribe(offerId);
    expect((await post(`/v1/subscriptions/${canceled.subscription_id}/cancel`, t.writeKey, { at_period_end: true })).status).toBe(200);
    const short = await subscribe(await makeOffer(t, { trialDays: 3 })); // began inside the 3-day window: no reminder
    expect(short.status).toBe("trialing");
    await advanceClock(t, "2027-04-01T01:00:00.000Z"); // a pass while it is inside its last 3 days
    const pix = await subscribe(offerId, {}, { pix: true });
    expect(pix.status).toBe("trialing");
    await advanceClock(t, "2027-04-09T00:00:00.000Z");
    const rows = await emailRows(t.tenantId, "trial_ending");
    expect(rows.map((r) => r.sourceKey)).toEqual([`${pix.subscription_id}:2027-04-11T01:00:00.000Z`]);
    expect(rows[0]!.params).toMatchObject({ method: { kind: "pix" } });
  });
});
