// Claims due outbox rows with a lease (FOR UPDATE SKIP LOCKED), as the webhook deliveries do: N senders
// on one database never take the same message at once, and a crashed holder's rows come back when its
// lease runs out. Due is on the wall clock: sending is transport, not billing time. Each row comes with
// what rendering it needs (its params, sender name, the customer's current name, the tenant's mode).
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface ClaimedEmail {
  id: string;
  tenant_id: string;
  kind: string;
  to: string;
  subject: string;
  body: string | null;
  html: string | null;
  params: unknown;
  from_name: string | null;
  reply_to: string | null;
  customer_name: string | null;
  sandbox: boolean;
  attempts: number;
  message_id: string | null;
  lease_until: Date;
}

export async function claimDueEmails(
  prisma: PrismaClient,
  input: { limit: number; now: Date; leaseMs: number; tenantId?: string },
): Promise<ClaimedEmail[]> {
  const now = input.now.toISOString();
  const leaseUntil = new Date(input.now.getTime() + input.leaseMs).toISOString();
  const tenantId = input.tenantId ?? null;
  return sqlQuery<ClaimedEmail>(prisma, Prisma.sql`
    WITH due AS (
      SELECT m.id FROM email_messages m
      WHERE m.status = 'PENDING'
        AND (m.next_attempt_at IS NULL OR m.next_attempt_at <= ${now}::timestamp(3))
        AND (m.lease_until IS NULL OR m.lease_until < ${now}::timestamp(3))
        AND (${tenantId}::text IS NULL OR m.tenant_id = ${tenantId}::text)
      ORDER BY m.next_attempt_at NULLS FIRST, m.created_at, m.id
      LIMIT ${input.limit}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE email_messages m SET lease_until = ${leaseUntil}::timestamp(3)
      FROM due WHERE m.id = due.id
      RETURNING m.id, m.tenant_id, m.kind, m."to", m.subject, m.body, m.html, m.params, m.from_name, m.reply_to, m.customer_id,
                m.attempts, m.message_id, m.lease_until, m.next_attempt_at, m.created_at
    )
    SELECT c.id, c.tenant_id, c.kind, c."to", c.subject, c.body, c.html, c.params, c.from_name, c.reply_to, cu.name AS customer_name,
           (t.mode = 'SANDBOX') AS sandbox, c.attempts, c.message_id, c.lease_until
    FROM claimed c
    JOIN tenants t ON t.id = c.tenant_id
    LEFT JOIN customers cu ON cu.id = c.customer_id AND cu.tenant_id = c.tenant_id
    ORDER BY c.next_attempt_at NULLS FIRST, c.created_at, c.id`,
    [],
    // Planned with its values each time (prisma/direct-sql.ts SqlOptions): a cached generic plan reads the whole backlog.
    { customPlan: true },
  );
}
