// The panel's "send a test event": a `webhook.test` event written with one delivery, to the endpoint
// asked for and no other (no fan-out), in one transaction; the insert trigger wakes the dispatchers on
// commit. It is signed and retried like any delivery, shows in that endpoint's log, and is left out of
// GET /v1/events (list-events.ts): it is not a billing event.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { deliveryId } from "../events/delivery-fan-out.ts";
import { TEST_EVENT_TYPE } from "../events/event-types.ts";
import { newId } from "../shared/ids.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { endpointDisabled } from "./resend-webhook-delivery.ts";

export async function sendTestWebhookEvent(prisma: PrismaClient, input: { tenantId: string; endpointId: string; at: Date }) {
  const endpoint = await findWebhookEndpoint(prisma, input.tenantId, input.endpointId);
  if (!endpoint.active) throw endpointDisabled();
  const id = newId("event");
  const data = { endpoint_id: endpoint.id, message: "Evento de teste enviado pelo painel." };
  const at = input.at.toISOString();
  const [row] = await prisma.$queryRaw<{ id: string }[]>`
    WITH e AS (
      INSERT INTO events (id, tenant_id, type, data, created_at)
      VALUES (${id}, ${input.tenantId}, ${TEST_EVENT_TYPE}, ${JSON.stringify(data)}::jsonb, ${at}::timestamp(3))
      RETURNING id, tenant_id)
    INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, status, next_attempt_at)
    SELECT ${deliveryId}, e.tenant_id, e.id, ep.id, 'PENDING', ${at}::timestamp(3)
    FROM e JOIN webhook_endpoints ep ON ep.id = ${endpoint.id} AND ep.tenant_id = e.tenant_id
    RETURNING id`;
  return { eventId: id, deliveryId: row!.id };
}
