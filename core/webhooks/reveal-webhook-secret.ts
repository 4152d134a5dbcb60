// The endpoint's signing secret, on demand (the panel's "show secret"). A mutation, not a field, so
// the audit log records who saw it and when; the endpoint types never expose it.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { findWebhookEndpoint } from "./find-webhook-endpoint.ts";

export async function revealWebhookSecret(prisma: PrismaClient, wall: Clock, input: { tenantId: string; endpointId: string }) {
  const endpoint = await findWebhookEndpoint(prisma, input.tenantId, input.endpointId);
  // The pre-rotation secret counts only while it still signs (wall clock, as signing uses).
  const previousLive = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > wall.now();
  return {
    id: endpoint.id,
    secret: endpoint.secret,
    previousSecretExpiresAt: previousLive ? endpoint.previousSecretExpiresAt : null,
  };
}
