// What needs the vendor's attention, for the panel's first page: webhook endpoints whose deliveries are
// failing, gateway accounts whose credentials the provider refused, and API keys never used. Each list
// is small and read by the tenant's own indexes. And the last events, newest first.
import type { PrismaClient, WebhookEndpoint } from "../../generated/prisma/client.ts";
import { TEST_EVENT_TYPE } from "../events/event-types.ts";
import type { Clock } from "../shared/clock.ts";

/** Failed deliveries older than this no longer count: the endpoint may have been fixed since. */
export const FAILING_WINDOW_MS = 7 * 24 * 60 * 60_000;

export interface FailingEndpoint {
  endpoint: WebhookEndpoint;
  /** Deliveries that failed for good, or are being retried after a failed attempt, in the window. */
  failingDeliveries: number;
  lastFailureAt: Date;
}

export async function listAttentionItems(prisma: PrismaClient, clock: Clock, input: { tenantId: string }) {
  const { tenantId } = input;
  const since = new Date(clock.now().getTime() - FAILING_WINDOW_MS);
  const failing = await prisma.webhookDelivery.groupBy({
    by: ["endpointId"],
    where: {
      tenantId,
      createdAt: { gte: since },
      endpoint: { deletedAt: null },
      OR: [{ status: { in: ["EXHAUSTED", "FAILED"] } }, { status: "PENDING", attemptCount: { gt: 0 } }],
    },
    _count: { _all: true },
    _max: { createdAt: true },
  });
  const endpoints = new Map((await prisma.webhookEndpoint.findMany({ where: { tenantId, id: { in: failing.map((f) => f.endpointId) } } })).map((e) => [e.id, e]));
  const failingEndpoints: FailingEndpoint[] = failing
    .filter((f) => endpoints.has(f.endpointId))
    .map((f) => ({ endpoint: endpoints.get(f.endpointId)!, failingDeliveries: f._count._all, lastFailureAt: f._max.createdAt! }))
    .sort((a, b) => b.failingDeliveries - a.failingDeliveries);
  const refusedGateways = await prisma.gatewayAccount.findMany({ where: { tenantId, credentialsRefusedAt: { not: null } }, orderBy: { credentialsRefusedAt: "desc" }, take: 50 });
  const unusedKeys = await prisma.apiKey.findMany({
    where: { tenantId, lastUsedAt: null, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: clock.now() } }] },
    orderBy: { id: "desc" },
    take: 50,
  });
  // The newest billing events (a panel test event is no billing event).
  const recentEvents = await prisma.event.findMany({
    where: { tenantId, type: { not: TEST_EVENT_TYPE } },
    orderBy: { id: "desc" },
    take: 10,
    select: { id: true, type: true, createdAt: true },
  });
  return { failingEndpoints, refusedGateways, unusedKeys, recentEvents };
}
