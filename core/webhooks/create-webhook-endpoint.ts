// Operator: a webhook endpoint with a fresh signing secret (32 random bytes), subscribed to all or some types.
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { isEventType } from "../events/event-types.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { assertResolvesAllowed, validateEndpointUrl } from "./endpoint-url.ts";

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export async function createWebhookEndpoint(prisma: PrismaClient, input: { tenantId: string; url: string; events: string[] }) {
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } });
  if (!tenant) throw notFound("tenant");
  const unknown = input.events.filter((e) => !isEventType(e));
  if (unknown.length) throw new AppError("invalid_argument", { error: `unknown event types: ${unknown.join(", ")}` });
  // The same guard for every tenant; SANDBOX may add loopback (endpoint-url.ts).
  const url = validateEndpointUrl(input.url, tenant.mode);
  await assertResolvesAllowed(url, tenant.mode);
  const secret = newSigningSecret();
  const row = await prisma.webhookEndpoint.create({
    data: { id: newId("webhookEndpoint"), tenantId: input.tenantId, url, events: [...new Set(input.events)], secret },
  });
  return { id: row.id, secret, url: row.url, events: row.events };
}
