// Writes a batch of attempt outcomes in one statement (one round trip, atomic without BEGIN/COMMIT): the
// attempt rows of the delivery log and the deliveries' new state (delivered, next retry, exhausted or
// failed). The dispatcher's slots wait for this write, so its round trips bound the delivery rate. A row whose state moved on
// meanwhile (a redelivery, a late duplicate) keeps its state; its attempt is still logged.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";
import type { Tx } from "../shared/tx.ts";
import type { DeliveryError } from "./delivery-error.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface AttemptOutcome {
  deliveryId: string;
  tenantId: string;
  attemptNo: number;
  scheduledAt: Date;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  /** The category the tenant reads in the delivery log (delivery-error.ts). */
  error: DeliveryError | null;
  /** The raw failure, for the server log only (not stored: it names addresses and ports). */
  detail?: string | null;
  status: "PENDING" | "DELIVERED" | "EXHAUSTED" | "FAILED";
  /** The receiver did not answer in time (not stored; the dispatcher slows down for the endpoint). */
  timedOut?: boolean;
  nextAttemptAt: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function recordAttempts(prisma: PrismaClient | Tx, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const col = <T>(f: (o: AttemptOutcome) => T) => outcomes.map(f);
  // A data-modifying CTE runs exactly once whether or not the UPDATE reads it.
  await sqlExecute(prisma, Prisma.sql`
    WITH logged AS (
      INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt_no, scheduled_at, started_at, status_code, latency_ms, error)
      SELECT * FROM unnest(${col(() => newId("webhookAttempt"))}::text[], ${col((o) => o.tenantId)}::text[], ${col((o) => o.deliveryId)}::text[],
        ${col((o) => o.attemptNo)}::int[], ${col((o) => iso(o.scheduledAt))}::timestamp(3)[], ${col((o) => iso(o.startedAt))}::timestamp(3)[],
        ${col((o) => o.statusCode)}::int[], ${col((o) => o.latencyMs)}::int[], ${col((o) => o.error)}::text[])
      ON CONFLICT (delivery_id, attempt_no) DO NOTHING
    )
    UPDATE webhook_deliveries d SET
      status = u.status::"DeliveryStatus", attempt_count = u.attempt_no, next_attempt_at = u.next_at, lease_until = NULL,
      last_status_code = u.code, last_error = u.err,
      delivered_at = CASE WHEN u.status = 'DELIVERED' THEN u.started_at ELSE d.delivered_at END
    FROM unnest(${col((o) => o.deliveryId)}::text[], ${col((o) => o.tenantId)}::text[], ${col((o) => o.status)}::text[], ${col((o) => o.attemptNo)}::int[],
      ${col((o) => iso(o.nextAttemptAt))}::timestamp(3)[], ${col((o) => o.statusCode)}::int[], ${col((o) => o.error)}::text[],
      ${col((o) => iso(o.startedAt))}::timestamp(3)[]) AS u(id, tenant_id, status, attempt_no, next_at, code, err, started_at)
    -- The id list lets the planner reach the rows by primary key whatever its row estimates say.
    WHERE d.id = ANY (${col((o) => o.deliveryId)}::text[]) AND d.id = u.id AND d.tenant_id = u.tenant_id
      AND d.status = 'PENDING' AND d.attempt_count = u.attempt_no - 1`);
}
