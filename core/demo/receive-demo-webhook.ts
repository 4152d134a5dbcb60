// The built-in demo receiver behind the demo tenant's endpoint: it checks a delivery exactly as the
// receive-webhooks guide tells tenants to (verifyBillingSignature: raw body, 300 s tolerance, constant time) and
// reports what arrived. It knows the secrets because it lives beside them.
// It answers only while the demo tenant exists, and only for that tenant's
// endpoint. The demo tenant's secrets are cached for a short while, so a forged post costs no
// database query: at most one lookup per TTL, whatever the traffic.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { verifyBillingSignature } from "../webhooks/verify-signature.ts";

export const DEMO_RECEIVER_PATH = "/demo/webhooks";
/** The first run's demo tenant (seed-demo-tenant.ts) is found by this name. */
export const DEMO_TENANT_NAME = "Demo SaaS (sandbox)";

export type DemoReceipt = { verified: true; eventId: string; type: string; tenantId: string } | { verified: false; reason: string };

/** The demo tenant and the secrets its demo-receiver endpoints sign with. */
export interface DemoReceiverKeys {
  tenantId: string;
  secrets: { secret: string; expiresAtMs: number | null }[];
}

const TTL_MS = 30_000;
const caches = new WeakMap<PrismaClient, { at: number; keys: Promise<DemoReceiverKeys | null> }>();

async function loadKeys(prisma: PrismaClient): Promise<DemoReceiverKeys | null> {
  const tenant = await prisma.tenant.findFirst({ where: { name: DEMO_TENANT_NAME, mode: "SANDBOX" }, select: { id: true } });
  if (!tenant) return null;
  const endpoints = await prisma.webhookEndpoint.findMany({
    where: { tenantId: tenant.id, url: { endsWith: DEMO_RECEIVER_PATH } },
    select: { secret: true, previousSecret: true, previousSecretExpiresAt: true },
  });
  const secrets = endpoints.flatMap((e) => [
    { secret: e.secret, expiresAtMs: null },
    ...(e.previousSecret && e.previousSecretExpiresAt ? [{ secret: e.previousSecret, expiresAtMs: e.previousSecretExpiresAt.getTime() }] : []),
  ]);
  return { tenantId: tenant.id, secrets };
}

/** The demo tenant's keys, or null while there is no demo tenant; read from the database at most once per TTL. */
export function demoReceiverKeys(prisma: PrismaClient, wallNowMs: number): Promise<DemoReceiverKeys | null> {
  const cached = caches.get(prisma);
  if (cached && wallNowMs - cached.at < TTL_MS && wallNowMs >= cached.at) return cached.keys;
  const keys = loadKeys(prisma).catch((err) => {
    caches.delete(prisma); // a failed lookup is not remembered
    throw err;
  });
  caches.set(prisma, { at: wallNowMs, keys });
  return keys;
}

/** Seeding the demo tenant (or changing its endpoint) makes the receiver read the keys again. */
export function forgetDemoReceiverKeys(prisma: PrismaClient): void {
  caches.delete(prisma);
}

export function receiveDemoWebhook(keys: DemoReceiverKeys, rawBody: string, signature: string | undefined, nowMs: number): DemoReceipt {
  let envelope: { id?: unknown; type?: unknown; tenant_id?: unknown };
  try {
    envelope = JSON.parse(rawBody);
  } catch {
    return { verified: false, reason: "body is not JSON" };
  }
  if (!signature || typeof envelope.tenant_id !== "string") return { verified: false, reason: "missing signature or tenant" };
  const secrets = envelope.tenant_id === keys.tenantId ? keys.secrets.filter((s) => s.expiresAtMs === null || s.expiresAtMs > nowMs) : [];
  if (!secrets.some((s) => verifyBillingSignature(rawBody, signature, s.secret, nowMs))) return { verified: false, reason: "signature does not verify" };
  return { verified: true, eventId: String(envelope.id), type: String(envelope.type), tenantId: envelope.tenant_id };
}
