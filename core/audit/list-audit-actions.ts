// The actions a tenant's audit log holds, for the panel's filter choices.
import type { PrismaClient } from "../../generated/prisma/client.ts";

export async function listAuditActions(prisma: PrismaClient, input: { tenantId: string }): Promise<string[]> {
  const rows = await prisma.auditEntry.groupBy({ by: ["action"], where: { tenantId: input.tenantId }, orderBy: { action: "asc" } });
  return rows.map((r) => r.action);
}
