// redeliverEvent: sends an event again to every active endpoint subscribed to its type, including
// endpoints that did not exist when it happened. Each delivery starts a new series of 7 attempts,
// the first one at once; the log keeps every earlier attempt.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Db } from "../../prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import { deliveryId, subscribedEndpoints } from "../events/delivery-fan-out.ts";
import { WEBHOOKS_CHANNEL } from "./dispatcher.ts";

export async function redeliverEvent(db: Db, clock: Clock, input: { tenantId: string; eventId: string }) {
  const prisma: PrismaClient = db.prisma;
  const event = await prisma.event.findFirst({ where: { id: input.eventId, tenantId: input.tenantId }, select: { id: true } });
  if (!event) throw notFound("event");
  const now = clock.now().toISOString();
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at)
    SELECT ${deliveryId}, e.tenant_id, e.id, ep.id, 'PENDING', ${now}::timestamp(3) FROM events e ${subscribedEndpoints}
    WHERE e.id = ${event.id} AND e.tenant_id = ${input.tenantId}
    ON CONFLICT (event_id, endpoint_id) DO UPDATE
      SET status = 'PENDING', series_start = webhook_deliveries.attempt_count, next_attempt_at = EXCLUDED.next_attempt_at
    RETURNING id`;
  // The insert trigger does not fire for rows taken by ON CONFLICT: wake the dispatchers here.
  await db.notify(WEBHOOKS_CHANNEL, "");
  return prisma.webhookDelivery.findMany({ where: { tenantId: input.tenantId, id: { in: rows.map((r) => r.id) } }, orderBy: { id: "asc" } });
}

/** The tenant of an event (operator calls that name only the event). */
export async function eventTenantId(prisma: PrismaClient, eventId: string): Promise<string> {
  const event = await prisma.event.findUnique({ where: { id: eventId }, select: { tenantId: true } });
  if (!event) throw notFound("event");
  return event.tenantId;
}
