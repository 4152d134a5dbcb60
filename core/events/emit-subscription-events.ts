// subscription.* / invoice.* events through the catalogue, inside the caller's transaction. The data
// is the subscription payload as it stands after the change, so each event's status is the new one.
import { Prisma } from "../../generated/prisma/client.ts";
import { deliveryId, subscribedEndpoints } from "./delivery-fan-out.ts";
import { emitEvents, EVENT_CATALOGUE } from "./catalogue.ts";
import type { EventType } from "./event-types.ts";
import type { Tx } from "../shared/tx.ts";
import { newId } from "../shared/ids.ts";
import { queueEventEmails } from "../emails/queue-event-emails.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { subscriptionPayload } from "../payloads/subscription-payload.ts";
import { readSubscriptionDetails } from "../payloads/read-subscription-details.ts";

export async function emitSubscriptionEvents(
  tx: Tx,
  input: { tenantId: string; subscriptionId: string; types: EventType[]; at: Date },
): Promise<void> {
  await emitEvents(tx, { tenantId: input.tenantId, subject: { kind: "subscription", subscriptionId: input.subscriptionId }, types: input.types, at: input.at });
}

/**
 * The same events for many subscriptions at once (a settled batch): one read of the payloads, one
 * insert, one fan-out, the batch's customer e-mails. Each subscription's types keep their order.
 */
export async function emitSubscriptionEventsMany(tx: Tx, items: { tenantId: string; subscriptionId: string; types: EventType[]; at: Date }[]): Promise<void> {
  const wanted = items.filter((i) => i.types.length > 0);
  if (wanted.length === 0) return;
  for (const type of wanted.flatMap((i) => i.types)) {
    if (!EVENT_CATALOGUE[type].subjects.includes("subscription")) throw new Error(`${type} cannot carry subscription data`);
  }
  const subs = await readSubscriptionDetails(tx, [...new Set(wanted.map((i) => i.subscriptionId))]);
  const byId = new Map(subs.map((s) => [s.id, s]));
  const rows = wanted.flatMap((i) => {
    const sub = byId.get(i.subscriptionId);
    if (!sub || sub.tenantId !== i.tenantId) throw new Error(`subscription ${i.subscriptionId} not found`);
    const data = subscriptionPayload(sub) as Prisma.InputJsonValue;
    return i.types.map((type) => ({ id: newId("event"), tenantId: i.tenantId, type, data, createdAt: i.at }));
  });
  // The events and their deliveries in one statement (the outbox insert and the fan-out of record-event.ts).
  await sqlExecute(
    tx,
    Prisma.sql`
      WITH e AS (
        INSERT INTO events (id, tenant_id, type, data, created_at)
        SELECT id, tenant_id, type, data::jsonb, created_at
          FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.tenantId)}::text[], ${rows.map((r) => r.type)}::text[],
                      ${rows.map((r) => JSON.stringify(r.data))}::text[], ${rows.map((r) => r.createdAt.toISOString())}::timestamp(3)[]) AS n(id, tenant_id, type, data, created_at)
        RETURNING id, tenant_id, type, created_at)
      INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at)
      SELECT ${deliveryId}, e.tenant_id, e.id, ep.id, 'PENDING', e.created_at FROM e ${subscribedEndpoints}`,
  );
  await queueEventEmails(tx, rows.map((r) => ({ id: r.id, tenantId: r.tenantId, type: r.type, data: r.data as Record<string, unknown>, at: r.createdAt })));
}
