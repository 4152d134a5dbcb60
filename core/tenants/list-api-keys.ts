// A tenant's API keys for the panel, newest first: name, hint, scope, who made it and when, last use,
// and whether it is revoked or rolled (with its end).
import type { PrismaClient } from "../../generated/prisma/client.ts";

export async function listApiKeys(prisma: PrismaClient, input: { tenantId: string }) {
  const rows = await prisma.apiKey.findMany({
    where: { tenantId: input.tenantId },
    orderBy: { id: "desc" },
    take: 500,
    select: {
      id: true,
      name: true,
      hint: true,
      scope: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      creator: { select: { email: true } },
    },
  });
  return rows.map(({ creator, ...k }) => ({ ...k, createdByEmail: creator?.email ?? null }));
}
