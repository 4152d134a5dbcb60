// Claims a bounded batch of subscriptions whose next duty is due on their tenant's clock. The lease
// (billing_lease_until, wall clock) plus FOR UPDATE SKIP LOCKED means two instances never take the
// same row; a crashed holder's lease simply expires. Paused or suspended tenants are skipped.
import type { Db } from "../../prisma/client.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface ClaimedSubscription {
  id: string;
  tenantId: string;
  /** The tenant's business clock for this duty. */
  now: Date;
}

export async function claimDueSubscriptions(
  db: Db,
  input: { wallNow: Date; leaseMs: number; limit: number; tenantId?: string | null; skip?: string[] },
): Promise<ClaimedSubscription[]> {
  const leaseUntil = new Date(input.wallNow.getTime() + input.leaseMs);
  const tenantId = input.tenantId ?? null;
  const skip = input.skip ?? [];
  const rows = await sqlQuery<{ id: string; tenant_id: string; mode: string; clock_at: Date | null }>(db.prisma, Prisma.sql`
    UPDATE subscriptions s SET billing_lease_until = ${leaseUntil}
    FROM tenants t
    WHERE t.id = s.tenant_id AND s.id IN (
      SELECT s2.id FROM subscriptions s2 JOIN tenants t2 ON t2.id = s2.tenant_id
      WHERE s2.next_billing_at IS NOT NULL
        AND s2.next_billing_at <= (CASE WHEN t2.mode = 'SANDBOX' AND t2.clock_at IS NOT NULL THEN t2.clock_at ELSE ${input.wallNow} END)
        AND (s2.billing_lease_until IS NULL OR s2.billing_lease_until < ${input.wallNow})
        AND t2.renewals_paused = false AND t2.suspended = false
        AND (${tenantId}::text IS NULL OR s2.tenant_id = ${tenantId}::text)
        AND NOT (s2.id = ANY(${skip}::text[]))
      ORDER BY s2.next_billing_at
      LIMIT ${input.limit}
      FOR UPDATE OF s2 SKIP LOCKED)
    RETURNING s.id, s.tenant_id, t.mode::text AS mode, t.clock_at`,
    [],
    // Planned with its values each time (prisma/direct-sql.ts SqlOptions): a cached generic plan reads the whole backlog.
    { customPlan: true },
  );
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenant_id,
    now: r.mode === "SANDBOX" && r.clock_at ? new Date(r.clock_at) : input.wallNow,
  }));
}
