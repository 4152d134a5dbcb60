// markInvoiceOverdue (the billing run's past_due / suspended duty for an invoice with no card to
// retry) racing an immediate cancel, many rounds: whoever commits first, the subscription ends
// canceled and no event after subscription.canceled shows it alive. Before the transition tables the duty asserted
// its move on a row read without the lock and then wrote past_due unconditionally, so a cancel that
// committed in between came back as past_due. Meant for PostgreSQL (DATABASE_URL), where the two
// really run at once; on the embedded database they interleave statement by statement.
import { describe, expect, it } from "vitest";
import { processDueSubscription } from "../../../core/billing/process-due-subscription.ts";
import { cancelSubscription } from "../../../core/subscriptions/cancel-subscription.ts";
import { newId } from "../../../core/shared/ids.ts";
import { makeCustomer } from "../../helpers/factories.ts";
import { testService } from "../../helpers/service.ts";
import { newTenant, type TestTenant } from "../../helpers/tenant.ts";
import { mulberry32 } from "../../helpers/prng.ts";

const NOW = new Date("2027-01-10T00:00:00Z");
const ROUNDS = process.env.DATABASE_URL ? 40 : 6;
const PER_ROUND = 12;

/** A Pix subscription whose duty at NOW is markInvoiceOverdue: active with the cycle due (-> past_due), or past_due past D+9 (-> suspended). */
async function overdue(t: TestTenant, customerId: string, kind: "active" | "past_due") {
  const prisma = (await testService()).runtime.db.prisma;
  const id = newId("subscription");
  const due = kind === "active" ? new Date("2027-01-01T00:00:00Z") : new Date("2026-12-25T00:00:00Z");
  await prisma.subscription.create({
    data: {
      id, tenantId: t.tenantId, customerId, offerId: t.monthlyOfferId, planId: t.planId, currency: "brl", anchorDay: due.getUTCDate(),
      status: kind === "active" ? "ACTIVE" : "PAST_DUE", collectionMethod: "PIX_MANUAL",
      currentPeriodStart: new Date(due.getTime() - 31 * 86_400_000), currentPeriodEnd: due, nextBillingAt: new Date("2027-01-05T00:00:00Z"),
    },
  });
  if (kind === "past_due") {
    await prisma.invoice.create({
      data: { id: newId("invoice"), tenantId: t.tenantId, subscriptionId: id, kind: "CYCLE", periodStart: due, periodEnd: new Date("2027-01-25T00:00:00Z"), dueAt: due, amountCents: 4990, currency: "brl" },
    });
  }
  return id;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("markInvoiceOverdue racing a cancel", () => {
  it(`no canceled subscription ever reappears (${ROUNDS} rounds of ${PER_ROUND})`, async () => {
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    const t = await newTenant();
    const customer = await makeCustomer(t);
    const problems: string[] = [];
    const duties: Record<string, number> = {};
    const seed = Number(process.env.DUTY_SEED ?? Date.now() % 1_000_000);
    const random = mulberry32(seed);
    for (let round = 0; round < ROUNDS; round++) {
      const ids = await Promise.all(Array.from({ length: PER_ROUND }, (_, i) => overdue(t, customer.id, i % 3 === 0 ? "past_due" : "active")));
      await Promise.all(
        ids.flatMap((id) => [
          pause(Math.floor(random() * 4)).then(() => processDueSubscription(runtime, { tenantId: t.tenantId, subscriptionId: id, now: NOW })).then(
            (outcome) => void (duties[outcome] = (duties[outcome] ?? 0) + 1),
            (err: Error) => void problems.push(`${id} duty: ${err.message}`),
          ),
          // Random starts (seeded) so the cancel lands before, inside and after the duty's window.
          pause(Math.floor(random() * 60)).then(() =>
            cancelSubscription(runtime, { tenantId: t.tenantId, subscriptionId: id, reason: null, atPeriodEnd: false, now: NOW }).catch(
              (err: Error) => void problems.push(`${id} cancel: ${err.message}`),
            ),
          ),
        ]),
      );
      const subs = await prisma.subscription.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, nextBillingAt: true } });
      for (const s of subs) if (s.status !== "CANCELED" || s.nextBillingAt) problems.push(`${s.id} ended ${s.status}, next ${s.nextBillingAt?.toISOString()}`);
      const events = await prisma.event.findMany({ where: { tenantId: t.tenantId, createdAt: NOW }, orderBy: { id: "asc" }, select: { type: true, data: true } });
      for (const id of ids) {
        const mine = events.filter((e) => (e.data as { subscription_id?: string }).subscription_id === id);
        const end = mine.findIndex((e) => e.type === "subscription.canceled");
        if (end < 0) problems.push(`${id}: no subscription.canceled`);
        for (const e of mine.slice(end + 1)) problems.push(`${id}: ${e.type} (${(e.data as { status: string }).status}) after subscription.canceled`);
      }
    }
    if (process.env.DUTY_LOG) console.log(JSON.stringify(duties));
    expect(problems, `seed ${seed} (DUTY_SEED replays it)`).toEqual([]);
    expect(Object.values(duties).reduce((a, b) => a + b, 0)).toBe(ROUNDS * PER_ROUND);
  }, 300_000);
});
