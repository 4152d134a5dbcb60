// One endpoint of the tenant, as the panel's actions find it: another tenant's or a deleted one is not found.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import type { Tx } from "../shared/tx.ts";

export async function findWebhookEndpoint(prisma: PrismaClient | Tx, tenantId: string, endpointId: string) {
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id: endpointId, tenantId, deletedAt: null } });
  if (!endpoint) throw notFound("webhook endpoint");
  return endpoint;
}
