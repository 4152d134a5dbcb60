// GET /v1/subscriptions/{id}/gateway-events: what the gateway answered on this subscription's charges.
// Takes the already-loaded subscription: loading it (tenant-scoped) is the ownership check.
import type { PrismaClient } from "../../generated/prisma/client.ts";

export const GATEWAY_EVENTS_CAP = 200;

export async function listSubscriptionGatewayEvents(prisma: PrismaClient, subscription: { tenantId: string; id: string }) {
  return prisma.gatewayEvent.findMany({
    where: { tenantId: subscription.tenantId, subscriptionId: subscription.id },
    orderBy: { id: "asc" },
    take: GATEWAY_EVENTS_CAP,
  });
}
