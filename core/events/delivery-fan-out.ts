// Which endpoints receive an event, in one place: the tenant's active endpoints subscribed to its type
// (an empty list = all). SQL fragments over an event `e`, shared by the outbox insert, the bulk
// fan-out and redeliverEvent. Delivery ids are `dlv_<event ULID>_<endpoint ULID>`, so they are made
// in SQL and sort in event order.
import { Prisma } from "../../generated/prisma/client.ts";

export const deliveryId = Prisma.sql`'dlv_' || substr(e.id, 5) || '_' || substr(ep.id, 4)`;

export const subscribedEndpoints = Prisma.sql`JOIN webhook_endpoints ep
  ON ep.tenant_id = e.tenant_id AND ep.active AND (cardinality(ep.events) = 0 OR e.type = ANY (ep.events))`;
