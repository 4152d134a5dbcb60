// Delete an endpoint from the panel. The row stays (soft delete): its deliveries and attempts keep
// pointing at it, so an event's delivery history stays whole. A deleted endpoint is disabled for
// good: nothing is fanned out to it, its pending deliveries are never sent, the panel no longer
// lists it and every action on it answers not found. No alarm e-mail: the vendor asked for it.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";

export async function deleteWebhookEndpoint(prisma: PrismaClient, input: { tenantId: string; endpointId: string; at: Date }) {
  const endpoint = await findWebhookEndpoint(prisma, input.tenantId, input.endpointId);
  await prisma.webhookEndpoint.updateMany({ where: { id: endpoint.id, tenantId: input.tenantId, deletedAt: null }, data: { active: false, deletedAt: input.at } });
  return { id: endpoint.id, deleted: true };
}
