import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";

export async function createProduct(prisma: PrismaClient, input: { tenantId: string; name: string }) {
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { id: true } });
  if (!tenant) throw notFound("tenant");
  return prisma.product.create({ data: { id: newId("product"), tenantId: input.tenantId, name: input.name } });
}
