// The outbox: an event row written inside the caller's transaction, so it commits with the state
// change that caused it and nothing is sent before commit. The same statement fans the event out to
// one delivery row per subscribed endpoint; the insert trigger's NOTIFY wakes the dispatchers on commit.
// The customer e-mail the event causes (a receipt, a declined payment...) is queued with it.
import { queueEventEmails } from "../emails/queue-event-emails.ts";
import { newId } from "../shared/ids.ts";
import type { Tx } from "../shared/tx.ts";
import { deliveryId, subscribedEndpoints } from "./delivery-fan-out.ts";
import type { EventType } from "./event-types.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface NewEvent {
  tenantId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** Business time: the tenant's clock. */
  at: Date;
}

export async function recordEvent(tx: Tx, event: NewEvent): Promise<string> {
  const id = newId("event");
  await sqlExecute(tx, Prisma.sql`
    WITH e AS (
      INSERT INTO events (id, tenant_id, type, data, created_at)
      VALUES (${id}, ${event.tenantId}, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${event.at.toISOString()}::timestamp(3))
      RETURNING id, tenant_id, type, created_at)
    INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at)
    SELECT ${deliveryId}, e.tenant_id, e.id, ep.id, 'PENDING', e.created_at FROM e ${subscribedEndpoints}`);
  await queueEventEmails(tx, [{ id, tenantId: event.tenantId, type: event.type, data: event.data, at: event.at }]);
  return id;
}
