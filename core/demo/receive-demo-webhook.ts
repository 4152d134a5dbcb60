// The built-in demo receiver behind the demo tenant's endpoint: it checks a delivery exactly as the
// README tells tenants to (verifyBillingSignature: raw body, 300 s tolerance, constant time) and
// reports what arrived. It knows the secrets because it lives beside them.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { verifyBillingSignature } from "../webhooks/verify-signature.ts";

export const DEMO_RECEIVER_PATH = "/demo/webhooks";

export type DemoReceipt = { verified: true; eventId: string; type: string; tenantId: string } | { verified: false; reason: string };

export async function receiveDemoWebhook(prisma: PrismaClient, rawBody: string, signature: string | undefined, nowMs: number): Promise<DemoReceipt> {
  let envelope: { id?: unknown; type?: unknown; tenant_id?: unknown };
  try {
    envelope = JSON.parse(rawBody);
  } catch {
    return { verified: false, reason: "body is not JSON" };
  }
  if (!signature || typeof envelope.tenant_id !== "string") return { verified: false, reason: "missing signature or tenant" };
  const endpoints = await prisma.webhookEndpoint.findMany({
    where: { tenantId: envelope.tenant_id, url: { endsWith: DEMO_RECEIVER_PATH } },
    select: { secret: true, previousSecret: true, previousSecretExpiresAt: true },
  });
  const secrets = endpoints.flatMap((e) => [e.secret, ...(e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt.getTime() > nowMs ? [e.previousSecret] : [])]);
  if (!secrets.some((s) => verifyBillingSignature(rawBody, signature, s, nowMs))) return { verified: false, reason: "signature does not verify" };
  return { verified: true, eventId: String(envelope.id), type: String(envelope.type), tenantId: envelope.tenant_id };
}
