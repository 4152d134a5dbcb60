// A new signing secret. The old one keeps signing (a second v1=) for 24 hours. The operator names the
// endpoint; a panel member reaches only their tenant's endpoints (tenantId given).
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import { newSigningSecret } from "./create-webhook-endpoint.ts";

export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

export async function rotateWebhookSecret(prisma: PrismaClient, clock: Clock, input: { endpointId: string; tenantId?: string }) {
  const endpoint = input.tenantId
    ? await prisma.webhookEndpoint.findFirst({ where: { id: input.endpointId, tenantId: input.tenantId, deletedAt: null } })
    : await prisma.webhookEndpoint.findUnique({ where: { id: input.endpointId } });
  if (!endpoint) throw notFound("webhook endpoint");
  const secret = newSigningSecret();
  // Transport time, not business time: receivers check signatures against the wall clock.
  const previousSecretExpiresAt = new Date(clock.now().getTime() + PREVIOUS_SECRET_TTL_MS);
  await prisma.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { secret, previousSecret: endpoint.secret, previousSecretExpiresAt },
  });
  return { secret, previousSecretExpiresAt };
}
