// A webhook endpoint with a fresh signing secret (32 random bytes), subscribed to all or some types:
// the operator's createWebhookEndpoint and the panel's addWebhookEndpoint.
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { endpointDescription, endpointEvents } from "./endpoint-fields.ts";
import { assertResolvesAllowed, validateEndpointUrl } from "./endpoint-url.ts";

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export interface CreateWebhookEndpointInput {
  tenantId: string;
  url: string;
  events: string[];
  description?: string | null;
  /** Created disabled: nothing is delivered until it is enabled. Default enabled. */
  active?: boolean;
}

export async function createWebhookEndpoint(prisma: PrismaClient, input: CreateWebhookEndpointInput) {
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } });
  if (!tenant) throw notFound("tenant");
  const events = endpointEvents(input.events);
  const description = endpointDescription(input.description);
  // The same guard for every tenant; SANDBOX may add loopback (endpoint-url.ts).
  const url = validateEndpointUrl(input.url, tenant.mode);
  await assertResolvesAllowed(url, tenant.mode);
  const secret = newSigningSecret();
  const row = await prisma.webhookEndpoint.create({
    data: { id: newId("webhookEndpoint"), tenantId: input.tenantId, url, events, secret, description, active: input.active ?? true },
  });
  return { id: row.id, secret, url: row.url, events: row.events, description: row.description, active: row.active };
}
