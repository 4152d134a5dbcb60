// Operator (the panel later): the seller's identity shown on the tenant's hosted pages. The whole
// profile is replaced: a field left out or empty is cleared.
import { AppError, notFound } from "../shared/errors.ts";
import type { Runtime } from "../runtime.ts";
import { checkTenantProfile, type TenantProfile } from "./tenant-profile.rules.ts";

export interface UpdateTenantProfileInput {
  tenantId: string;
  profile: Partial<Record<keyof TenantProfile, string | null>>;
}

export async function updateTenantProfile(runtime: Runtime, input: UpdateTenantProfileInput) {
  const prisma = runtime.db.prisma;
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } });
  if (!tenant) throw notFound("tenant");
  const checked = checkTenantProfile(input.profile, tenant.mode === "LIVE");
  if (!checked.ok) throw new AppError("invalid_argument", { error: checked.error });
  // A LIVE tenant keeps selling only while the shopper can see who sells.
  if (tenant.mode === "LIVE" && (!checked.value.legalName || !checked.value.cnpj)) {
    throw new AppError("invalid_argument", { error: "a LIVE tenant needs legalName and cnpj" });
  }
  return prisma.tenant.update({ where: { id: input.tenantId }, data: checked.value });
}
