// GET /v1/subscriptions/{id}/gateway-events: what the gateway answered on this subscription's charges.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { getSubscription } from "./get-subscription.ts";

export const GATEWAY_EVENTS_CAP = 200;

export async function listSubscriptionGatewayEvents(prisma: PrismaClient, input: { tenantId: string; subscriptionId: string }) {
  await getSubscription(prisma, input, { select: { id: true } });
  return prisma.gatewayEvent.findMany({
    where: { tenantId: input.tenantId, subscriptionId: input.subscriptionId },
    orderBy: { id: "asc" },
    take: GATEWAY_EVENTS_CAP,
  });
}
