// The team of a tenant, for the team page: who, which role, two-factor on or not, last sign-in.
import type { PrismaClient } from "../../generated/prisma/client.ts";

export async function listTeamMembers(prisma: PrismaClient, input: { tenantId: string }) {
  const rows = await prisma.tenantUser.findMany({
    where: { tenantId: input.tenantId, passwordHash: { not: null } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 500,
    select: { id: true, email: true, role: true, totpEnabledAt: true, lastSignInAt: true, createdAt: true },
  });
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, twoFactorOn: !!r.totpEnabledAt, lastSignInAt: r.lastSignInAt, createdAt: r.createdAt }));
}
