// Sandbox: advanceClock performs the deliveries that fall due at each stop, synchronously, so the
// retry schedule runs on the tenant's clock. Rows a background dispatcher holds are waited for: their
// outcome (and next retry) must be known before the clock moves on.
import type { Runtime } from "../runtime.ts";
import { attemptDelivery } from "./attempt-delivery.ts";
import { claimDueDeliveries } from "./claim-deliveries.ts";
import { storeOutcomes } from "./dispatcher.ts";

const WAIT_FOR_HELD_MS = 15_000;

/**
 * Attempts every delivery of the tenant due on its clock; returns how many attempts were made on the
 * way, counting those of a background dispatcher it waited for (the count advanceClock reports).
 */
export async function deliverDueNow(runtime: Runtime, tenantId: string): Promise<number> {
  const prisma = runtime.db.prisma;
  const wall = () => runtime.wallClock.now().getTime();
  const deadline = wall() + WAIT_FOR_HELD_MS;
  /** Rows seen held by another dispatcher, with their attempt count then. */
  const held = new Map<string, number>();
  let attempts = 0;
  for (;;) {
    const claimed = await claimDueDeliveries(prisma, {
      limit: 50,
      now: runtime.wallClock.now(),
      leaseMs: runtime.leases.webhookMs,
      perEndpoint: 50,
      tenantId,
    });
    if (claimed.length > 0) {
      for (const d of claimed) attempts += madeSince(held, d.id, d.attempt_count);
      const outcomes = await Promise.all(
        claimed.map(async (d) => {
          const outcome = await attemptDelivery(d, runtime.wallClock);
          runtime.faults?.("after-webhook-post");
          return outcome;
        }),
      );
      await storeOutcomes(runtime, outcomes);
      attempts += claimed.length;
      continue;
    }
    const holding = await prisma.$queryRaw<{ id: string; attempt_count: number }[]>`
      SELECT d.id, d.attempt_count FROM webhook_deliveries d JOIN tenants t ON t.id = d.tenant_id
      WHERE d.tenant_id = ${tenantId} AND d.status = 'PENDING' AND d.next_attempt_at <= t.clock_at
        AND d.lease_until >= ${runtime.wallClock.now().toISOString()}::timestamp(3)`;
    for (const r of holding) if (!held.has(r.id)) held.set(r.id, r.attempt_count);
    if (holding.length === 0 || wall() > deadline) return attempts + (await madeByOthers(runtime, tenantId, held));
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Attempts another holder made on a row since it was seen held (0 for a row never seen held). */
function madeSince(held: Map<string, number>, id: string, attemptCount: number): number {
  const seen = held.get(id);
  if (seen === undefined) return 0;
  held.delete(id);
  return Math.max(0, attemptCount - seen);
}

async function madeByOthers(runtime: Runtime, tenantId: string, held: Map<string, number>): Promise<number> {
  if (held.size === 0) return 0;
  const rows = await runtime.db.prisma.webhookDelivery.findMany({ where: { tenantId, id: { in: [...held.keys()] } }, select: { id: true, attemptCount: true } });
  return rows.reduce((n, r) => n + madeSince(held, r.id, r.attemptCount), 0);
}

/** The earliest pending retry of the tenant after `after`, for advanceClock's stops. */
export async function nextDeliveryDueAfter(runtime: Runtime, tenantId: string, after: Date): Promise<Date | null> {
  const row = await runtime.db.prisma.webhookDelivery.findFirst({
    where: { tenantId, status: "PENDING", nextAttemptAt: { gt: after } },
    orderBy: { nextAttemptAt: "asc" },
    select: { nextAttemptAt: true },
  });
  return row?.nextAttemptAt ?? null;
}
