// Claims due deliveries with a lease (FOR UPDATE SKIP LOCKED): N dispatchers on one database never
// send the same attempt twice, and a crashed holder's rows come back when its lease runs out. Due
// means next_attempt_at reached on the tenant's clock: the wall clock, or a sandbox tenant's own, and
// the endpoint enabled.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface ClaimedDelivery {
  id: string;
  tenant_id: string;
  event_id: string;
  endpoint_id: string;
  attempt_count: number;
  series_start: number;
  /** When it fell due (tenant clock). */
  due_at: Date;
  type: string;
  data: unknown;
  event_created_at: Date;
  /** Wall-clock time the event was written. */
  event_recorded_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  mode: "LIVE" | "SANDBOX";
  clock_at: Date | null;
}

/**
 * Claims up to `limit` due deliveries, at most `perEndpoint` per endpoint, less what `busy` says is
 * already in flight to an endpoint (its remaining room, possibly 0). The cap is applied here, in
 * SQL, so nothing is claimed that could not be sent at once. Candidates come from a window of the
 * earliest due rows (endpoints without room are left out of it), then the picked rows are locked.
 */
export async function claimDueDeliveries(
  prisma: PrismaClient,
  input: { limit: number; now: Date; leaseMs: number; perEndpoint: number; busy?: Map<string, number>; tenantId?: string },
): Promise<ClaimedDelivery[]> {
  const now = input.now.toISOString();
  const leaseUntil = new Date(input.now.getTime() + input.leaseMs).toISOString();
  const busy = [...(input.busy ?? new Map<string, number>())];
  const full = busy.filter(([, room]) => room <= 0).map(([id]) => id);
  const window = Math.min(input.limit * 4, 2_000);
  const tenantId = input.tenantId ?? null;
  return sqlQuery<ClaimedDelivery>(prisma, Prisma.sql`
    WITH candidates AS (
      SELECT w.id, w.endpoint_id, w.next_attempt_at,
             row_number() OVER (PARTITION BY w.endpoint_id ORDER BY w.next_attempt_at, w.id) AS rn
      FROM (
        SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d JOIN tenants t ON t.id = d.tenant_id
          -- A disabled endpoint's deliveries are held (still PENDING) until it is enabled again.
          JOIN webhook_endpoints ep ON ep.id = d.endpoint_id AND ep.active
        WHERE d.status = 'PENDING'
          AND d.next_attempt_at <= CASE WHEN t.mode = 'SANDBOX' AND t.clock_at IS NOT NULL THEN t.clock_at ELSE ${now}::timestamp(3) END
          AND (d.lease_until IS NULL OR d.lease_until < ${now}::timestamp(3))
          AND NOT (d.endpoint_id = ANY (${full}::text[]))
          AND (${tenantId}::text IS NULL OR d.tenant_id = ${tenantId}::text)
        ORDER BY d.next_attempt_at
        LIMIT ${window}
      ) w
    ), picked AS (
      SELECT c.id FROM candidates c
      LEFT JOIN unnest(${busy.map(([id]) => id)}::text[], ${busy.map(([, room]) => room)}::int[]) AS b(endpoint_id, room) ON b.endpoint_id = c.endpoint_id
      WHERE c.rn <= COALESCE(b.room, ${input.perEndpoint}::int)
      ORDER BY c.next_attempt_at
      LIMIT ${input.limit}
    ), due AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.id IN (SELECT id FROM picked) AND d.status = 'PENDING' AND (d.lease_until IS NULL OR d.lease_until < ${now}::timestamp(3))
      FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d SET lease_until = ${leaseUntil}::timestamp(3)
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.tenant_id, d.event_id, d.endpoint_id, d.attempt_count, d.series_start, d.next_attempt_at
    )
    SELECT c.id, c.tenant_id, c.event_id, c.endpoint_id, c.attempt_count, c.series_start, c.next_attempt_at AS due_at,
           e.type, e.data, e.created_at AS event_created_at, e.recorded_at AS event_recorded_at,
           ep.url, ep.secret, ep.previous_secret, ep.previous_secret_expires_at, t.mode::text AS mode, t.clock_at
    FROM claimed c
    JOIN events e ON e.id = c.event_id AND e.tenant_id = c.tenant_id
    JOIN webhook_endpoints ep ON ep.id = c.endpoint_id AND ep.tenant_id = c.tenant_id
    JOIN tenants t ON t.id = c.tenant_id
    ORDER BY c.next_attempt_at`,
    [],
    // Planned with its values each time (prisma/direct-sql.ts SqlOptions): a cached generic plan reads the whole backlog.
    { customPlan: true },
  );
}
