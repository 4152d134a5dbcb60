// Sandbox: advanceClock performs the deliveries that fall due at each stop, synchronously, so the
// retry schedule runs on the tenant's clock. Rows a background dispatcher holds are waited for: their
// outcome (and next retry) must be known before the clock moves on.
import type { Runtime } from "../runtime.ts";
import { attemptDelivery } from "./attempt-delivery.ts";
import { claimDueDeliveries } from "./claim-deliveries.ts";
import { storeOutcomes } from "./dispatcher.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

const WAIT_FOR_HELD_MS = 15_000;

/**
 * Attempts every delivery of the tenant due on its clock, then waits for those a background
 * dispatcher holds. Who made an attempt does not matter to the caller: it counts attempts from the
 * delivery rows (attemptsMade), since another dispatcher may claim, attempt and store a row between
 * two of our queries without ever being seen holding it.
 */
export async function deliverDueNow(runtime: Runtime, tenantId: string): Promise<void> {
  const prisma = runtime.db.prisma;
  const deadline = runtime.wallClock.now().getTime() + WAIT_FOR_HELD_MS;
  for (;;) {
    const claimed = await claimDueDeliveries(prisma, {
      limit: 50,
      now: runtime.wallClock.now(),
      leaseMs: runtime.leases.webhookMs,
      perEndpoint: 50,
      tenantId,
    });
    if (claimed.length > 0) {
      const outcomes = await Promise.all(
        claimed.map(async (d) => {
          const outcome = await attemptDelivery(d, runtime.wallClock);
          runtime.faults?.("after-webhook-post");
          return outcome;
        }),
      );
      await storeOutcomes(runtime, outcomes);
      continue;
    }
    const [holding] = await sqlQuery<{ n: number }>(prisma, Prisma.sql`
      SELECT count(*)::int AS n FROM webhook_deliveries d JOIN tenants t ON t.id = d.tenant_id
      WHERE d.tenant_id = ${tenantId} AND d.status = 'PENDING' AND d.next_attempt_at <= t.clock_at
        AND d.lease_until >= ${runtime.wallClock.now().toISOString()}::timestamp(3)`);
    if (!holding || holding.n === 0 || runtime.wallClock.now().getTime() > deadline) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Attempts stored so far on the tenant's deliveries, by any dispatcher (attempt counts only grow). */
export async function attemptsMade(runtime: Runtime, tenantId: string): Promise<number> {
  const [row] = await sqlQuery<{ n: number }>(runtime.db.prisma, `SELECT COALESCE(sum(attempt_count), 0)::int AS n FROM webhook_deliveries WHERE tenant_id = $1`, [tenantId]);
  return row?.n ?? 0;
}

