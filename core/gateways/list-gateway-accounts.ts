// Operator: a tenant's gateway accounts, oldest first. The rows carry the sealed credentials, but the
// GraphQL type exposes only the hints (schema/types/gateway-account.ts).
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";

export async function listGatewayAccounts(prisma: PrismaClient, tenantId: string) {
  const tenant = await prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  return prisma.gatewayAccount.findMany({ where: { tenantId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
