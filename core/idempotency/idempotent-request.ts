// Stripe-style Idempotency-Key for every POST: the same key and body within 24 h replay the first
// answer; the same key with another body is refused; a key still in flight is a conflict. Keys live in
// one namespace per API key: an answer is replayed only to the API key that made it (another key of
// the tenant, read or write, never sees it). The unique index (api_key_id, key) makes the first
// writer win under concurrency.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { sha256Hex } from "../shared/secrets.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

export type IdempotencyStart = { kind: "new"; id: string } | { kind: "replay"; status: number; body: string };

export interface IdempotentRequest {
  tenantId: string;
  /** The API key that sent the request: the namespace of `key`. */
  apiKeyId: string;
  key: string;
  method: string;
  path: string;
  /** What "the same request" means: requestHash of the transport's request (a /v1 body, a GraphQL operation and its variables). */
  fingerprint: string;
}

export function validateIdempotencyKey(key: string): void {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new AppError("invalid_idempotency_key");
}

/** Canonical hash of the request: key order in the body does not matter. */
export function requestHash(req: { method: string; path: string; body: unknown }): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)])) : v;
  return sha256Hex(JSON.stringify([req.method, req.path, canonical(req.body ?? {})]));
}

// Wall clock on purpose: the 24 h window is transport time (service-contract §6).
export async function beginIdempotentRequest(prisma: PrismaClient, wall: Clock, req: IdempotentRequest): Promise<IdempotencyStart> {
  validateIdempotencyKey(req.key);
  const bodyHash = req.fingerprint;
  const now = wall.now();
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = newId("idempotency");
    const inserted = await sqlExecute(prisma, Prisma.sql`
      INSERT INTO idempotency_keys (id, tenant_id, api_key_id, key, method, path, body_hash, created_at)
      VALUES (${id}, ${req.tenantId}, ${req.apiKeyId}, ${req.key}, ${req.method}, ${req.path}, ${bodyHash}, ${now})
      ON CONFLICT (api_key_id, key) DO NOTHING`);
    if (inserted === 1) return { kind: "new", id };
    const prior = await prisma.idempotencyKey.findUnique({ where: { apiKeyId_key: { apiKeyId: req.apiKeyId, key: req.key } } });
    if (!prior) continue; // expired and removed meanwhile: try again
    if (now.getTime() - prior.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
      await prisma.idempotencyKey.deleteMany({ where: { id: prior.id } });
      continue;
    }
    if (prior.bodyHash !== bodyHash) throw new AppError("idempotency_key_reused");
    if (prior.responseStatus == null || prior.responseBody == null) throw new AppError("idempotency_key_in_use");
    return { kind: "replay", status: prior.responseStatus, body: prior.responseBody };
  }
  throw new AppError("idempotency_key_in_use");
}

/**
 * Keeps the answer for replays: `status` and `body` are what is sent again byte for byte; `outcome` is
 * the status the request's result stands for (a GraphQL answer carries it in its error, over HTTP 200).
 */
export async function finishIdempotentRequest(prisma: PrismaClient, id: string, status: number, body: string, outcome = status): Promise<void> {
  // A server failure is not a result: forget the key so the client's retry runs again. Neither is a
  // refusal of the caller (401/403: a key revoked, a lock set meanwhile): it depends on the key's state
  // at the time, and replaying it after the lock is lifted would refuse a request that may now run.
  if (outcome >= 500 || outcome === 401 || outcome === 403) await prisma.idempotencyKey.deleteMany({ where: { id } });
  else await prisma.idempotencyKey.update({ where: { id }, data: { responseStatus: status, responseBody: body } });
}
