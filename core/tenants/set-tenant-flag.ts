// Operator: read-only mode, suspension and paused renewals. Key lookups are invalidated at once.
import { notFound } from "../shared/errors.ts";
import type { Runtime } from "../runtime.ts";

export type TenantFlag = "readOnly" | "suspended" | "renewalsPaused";

export async function setTenantFlag(runtime: Runtime, input: { tenantId: string; flag: TenantFlag; value: boolean }) {
  const exists = await runtime.db.prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!exists) throw notFound("tenant");
  const tenant = await runtime.db.prisma.tenant.update({ where: { id: input.tenantId }, data: { [input.flag]: input.value } });
  await runtime.keyCache.invalidateTenant(tenant.id);
  return tenant;
}
