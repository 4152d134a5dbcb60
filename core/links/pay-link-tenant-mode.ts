// The link a /pay token names and whether its tenant is LIVE: what the attempt limits key on
// (web/hosted/attempt-limits.ts). The link id, never the token, names the counter.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { sha256Hex } from "../shared/secrets.ts";

export async function payLinkTenantMode(prisma: PrismaClient, token: string): Promise<{ id: string; live: boolean } | null> {
  if (!/^pl_[0-9A-Za-z]{20,64}$/.test(token)) return null;
  const link = await prisma.link.findUnique({ where: { tokenHash: sha256Hex(token) }, select: { id: true, tenantId: true } });
  if (!link) return null;
  const tenant = await prisma.tenant.findUnique({ where: { id: link.tenantId }, select: { mode: true } });
  return tenant ? { id: link.id, live: tenant.mode === "LIVE" } : null;
}
