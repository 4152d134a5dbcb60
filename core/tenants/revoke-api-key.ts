// Revoke a key (the operator any tenant's, a member their own tenant's). It answers 401 from the next
// request on, on every instance.
import type { Clock } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import type { Runtime } from "../runtime.ts";

export async function revokeApiKey(runtime: Runtime, clock: Clock, input: { id: string; tenantId?: string | null }) {
  const key = await runtime.db.prisma.apiKey.findUnique({ where: { id: input.id } });
  // Another tenant's key answers exactly like an unknown one.
  if (!key || (input.tenantId && key.tenantId !== input.tenantId)) throw notFound("api key");
  const revoked = key.revokedAt
    ? key
    : await runtime.db.prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: clock.now() } });
  await runtime.keyCache.invalidateTenant(key.tenantId);
  return revoked;
}
