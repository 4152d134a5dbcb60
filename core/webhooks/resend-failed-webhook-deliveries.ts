// The panel's "resend failed since": every delivery to one endpoint that failed for good (exhausted
// or fatal) of events since a date (the tenant's clock), each in a new series of 7 attempts.
import type { Db } from "../../prisma/client.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";
import { endpointDisabled, restartDeliveries } from "./resend-webhook-delivery.ts";

/** At most this many deliveries per press (the rest on the next one). */
export const RESEND_FAILED_LIMIT = 1_000;

export async function resendFailedWebhookDeliveries(db: Db, input: { tenantId: string; endpointId: string; since: Date; now: Date }) {
  const endpoint = await findWebhookEndpoint(db.prisma, input.tenantId, input.endpointId);
  if (!endpoint.active) throw endpointDisabled();
  const failed = await db.prisma.webhookDelivery.findMany({
    where: { tenantId: input.tenantId, endpointId: endpoint.id, status: { in: ["EXHAUSTED", "FAILED"] }, event: { createdAt: { gte: input.since } } },
    select: { id: true },
    orderBy: { id: "asc" },
    take: RESEND_FAILED_LIMIT,
  });
  return { resent: await restartDeliveries(db, input.tenantId, failed.map((d) => d.id), input.now) };
}
