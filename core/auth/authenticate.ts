// Turns an Authorization header into an actor: the operator (ADMIN_TOKEN) or a tenant key.
// Missing, malformed, unknown or revoked keys and suspended tenants all get the same 401.
import { AppError } from "../shared/errors.ts";
import { digestMatchesSecret, sha256 } from "../shared/secrets.ts";
import type { Runtime } from "../runtime.ts";
import type { KeyRecord } from "./key-cache.ts";
import { looksLikeApiKey } from "./api-key-format.ts";
import { authenticatePanelSession, type PanelPrincipal } from "../team/authenticate-panel-session.ts";
import { looksLikeSessionToken } from "../team/team-secrets.ts";

/** `panel`: the panel itself before anyone signed in; `user`: a signed-in member (panel session token). */
export type AuthResult = { kind: "operator" } | ({ kind: "tenant" } & KeyRecord) | { kind: "panel" } | { kind: "user"; principal: PanelPrincipal };

export async function authenticate(runtime: Runtime, header: string | null | undefined): Promise<AuthResult> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!token) throw new AppError("unauthorized");
  // One digest serves both the operator check (constant time) and the key lookup.
  const digest = sha256(token);
  if (runtime.config.adminToken && digestMatchesSecret(digest, runtime.config.adminToken)) return { kind: "operator" };
  if (looksLikeSessionToken(token)) {
    const principal = await authenticatePanelSession(runtime, token);
    if (!principal) throw new AppError("unauthorized", { error: "panel session expired or signed out" });
    return { kind: "user", principal };
  }
  if (!looksLikeApiKey(token)) throw new AppError("unauthorized");

  // Lookup is by SHA-256 of the key through a unique index, so no clear key is ever compared.
  const hash = digest.toString("hex");
  const nowMs = runtime.wallClock.now().getTime(); // cache bookkeeping: wall clock, not business time
  let record = runtime.keyCache.get(hash, nowMs);
  if (record === undefined) {
    const generation = runtime.keyCache.currentGeneration;
    record = await loadKey(runtime, hash);
    runtime.keyCache.set(hash, record, nowMs, generation);
  }
  if (!record || record.revoked || record.tenant.suspended) throw new AppError("unauthorized");
  // A rolled key's overlap ends on the wall clock (transport time, like sessions), never a sandbox clock.
  if (record.expiresAt && record.expiresAt.getTime() <= nowMs) throw new AppError("unauthorized");
  runtime.keyUsage.touch(record.keyId, nowMs);
  return { kind: "tenant", ...record };
}

async function loadKey(runtime: Runtime, hash: string): Promise<KeyRecord | null> {
  const key = await runtime.db.prisma.apiKey.findUnique({
    where: { hash },
    select: {
      id: true,
      tenantId: true,
      scope: true,
      revokedAt: true,
      expiresAt: true,
      tenant: { select: { mode: true, readOnly: true, suspended: true, clockAt: true, readRateLimit: true, writeRateLimit: true } },
    },
  });
  if (!key) return null;
  return { keyId: key.id, tenantId: key.tenantId, scope: key.scope, revoked: !!key.revokedAt, expiresAt: key.expiresAt, tenant: key.tenant };
}
