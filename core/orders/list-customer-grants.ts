// A customer's grants (access bought with one-time orders), newest first, revoked ones included.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { findCustomer } from "../customers/find-customer.ts";

export async function listCustomerGrants(prisma: PrismaClient, input: { tenantId: string; externalId: string }) {
  const customer = await findCustomer(prisma, input);
  return prisma.grant.findMany({ where: { tenantId: input.tenantId, customerId: customer.id }, orderBy: { id: "desc" }, take: 500 });
}
