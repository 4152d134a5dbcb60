// The panel's "resend" of one delivery, to its endpoint only. It starts a new series of 7 attempts,
// the first at once (tenant clock), as redeliverEvent does; the log keeps every earlier attempt. A
// disabled endpoint is refused: its deliveries would only be held.
import type { Db } from "../../prisma/client.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { WEBHOOKS_CHANNEL } from "./dispatcher.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";

export const endpointDisabled = () => new AppError("conflict", { error: "the endpoint is disabled: enable it before resending" });

/** Makes deliveries due now in a new series and wakes the dispatchers. */
export async function restartDeliveries(db: Db, tenantId: string, ids: string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const n = await db.prisma.$executeRaw`
    UPDATE webhook_deliveries SET status = 'PENDING', series_start = attempt_count, next_attempt_at = ${now.toISOString()}::timestamp(3)
    WHERE tenant_id = ${tenantId} AND id = ANY (${ids}::text[])`;
  await db.notify(WEBHOOKS_CHANNEL, "");
  return n;
}

export async function resendWebhookDelivery(db: Db, input: { tenantId: string; deliveryId: string; now: Date }) {
  const delivery = await db.prisma.webhookDelivery.findFirst({
    where: { id: input.deliveryId, tenantId: input.tenantId, endpoint: { deletedAt: null } },
    select: { id: true, endpointId: true },
  });
  if (!delivery) throw notFound("webhook delivery");
  const endpoint = await findWebhookEndpoint(db.prisma, input.tenantId, delivery.endpointId);
  if (!endpoint.active) throw endpointDisabled();
  await restartDeliveries(db, input.tenantId, [delivery.id], input.now);
  return db.prisma.webhookDelivery.findFirstOrThrow({ where: { id: delivery.id, tenantId: input.tenantId } });
}
