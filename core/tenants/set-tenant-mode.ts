// Operator: move a tenant between SANDBOX and LIVE. LIVE needs a seller the shopper can identify
// (legal name and CNPJ, links over https), as updateTenantProfile keeps it. The sandbox clock does not
// cross: LIVE reads the wall clock, and a tenant back in SANDBOX starts its own clock at the wall
// clock's instant, as a new sandbox tenant does. Records, API keys and gateway accounts stay as they are
// (docs/decisions/0040-switching-tenant-mode.md).
import type { TenantMode } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { canSellLive, checkTenantProfile } from "./tenant-profile.rules.ts";

export interface SetTenantModeInput {
  tenantId: string;
  mode: TenantMode;
}

export async function setTenantMode(runtime: Runtime, input: SetTenantModeInput) {
  const prisma = runtime.db.prisma;
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId } });
  if (!tenant) throw notFound("tenant");
  if (tenant.mode === input.mode) return tenant;
  if (input.mode === "LIVE") {
    if (!canSellLive(tenant)) throw new AppError("seller_incomplete", { error: "a LIVE tenant needs legalName and cnpj in its profile (updateTenantProfile)" });
    // A sandbox may have pointed its terms at http://localhost; a LIVE shopper follows https only.
    const checked = checkTenantProfile(tenant, true);
    if (!checked.ok) throw new AppError("invalid_argument", { error: `${checked.error} before the tenant goes LIVE` });
  }
  const updated = await prisma.tenant.update({
    where: { id: input.tenantId },
    data: { mode: input.mode, clockAt: input.mode === "SANDBOX" ? runtime.wallClock.now() : null },
  });
  // Cached key lookups carry the mode and the clock: drop them so that the next request reads the new ones.
  await runtime.keyCache.invalidateTenant(updated.id);
  return updated;
}
