// Operator: per-tenant request limits (per key, per second). Null restores the service default.
import { notFound } from "../shared/errors.ts";
import type { Runtime } from "../runtime.ts";

export async function setTenantRateLimits(
  runtime: Runtime,
  input: { tenantId: string; readPerSecond: number | null; writePerSecond: number | null },
) {
  const exists = await runtime.db.prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!exists) throw notFound("tenant");
  const tenant = await runtime.db.prisma.tenant.update({
    where: { id: input.tenantId },
    data: { readRateLimit: input.readPerSecond, writeRateLimit: input.writePerSecond },
  });
  await runtime.keyCache.invalidateTenant(tenant.id);
  return tenant;
}
