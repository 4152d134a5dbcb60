// A customer of the tenant by external_id (or e-mail). Another tenant's customer is not found.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";

export async function findCustomer(prisma: PrismaClient, input: { tenantId: string; externalId: string }) {
  const customer = await prisma.customer.findUnique({
    where: { tenantId_externalId: { tenantId: input.tenantId, externalId: input.externalId } },
  });
  if (!customer) throw notFound("customer");
  return customer;
}
