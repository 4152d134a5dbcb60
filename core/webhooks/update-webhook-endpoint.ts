// The panel's edit of an endpoint: URL (the same address rules as at creation), description and the
// subscribed types. Deliveries already made keep the URL they went to in their attempts' log.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { endpointDescription, endpointEvents } from "./endpoint-fields.ts";
import { assertResolvesAllowed, validateEndpointUrl } from "./endpoint-url.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";

export interface UpdateWebhookEndpointInput {
  tenantId: string;
  endpointId: string;
  url: string;
  description: string | null;
  events: string[];
}

export async function updateWebhookEndpoint(prisma: PrismaClient, input: UpdateWebhookEndpointInput) {
  const endpoint = await findWebhookEndpoint(prisma, input.tenantId, input.endpointId);
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } });
  if (!tenant) throw notFound("tenant");
  const events = endpointEvents(input.events);
  const description = endpointDescription(input.description);
  const url = validateEndpointUrl(input.url, tenant.mode);
  await assertResolvesAllowed(url, tenant.mode);
  return prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url, description, events } });
}
