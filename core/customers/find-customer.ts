// A customer of the tenant by external_id (or e-mail). Another tenant's customer is not found.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";

/** `query` lets a GraphQL field select its relations in the same call. */
export async function findCustomer(prisma: PrismaClient, input: { tenantId: string; externalId: string }, query: Omit<Prisma.CustomerFindUniqueArgs, "where"> = {}) {
  const customer = await prisma.customer.findUnique({
    ...query,
    where: { tenantId_externalId: { tenantId: input.tenantId, externalId: input.externalId } },
  });
  if (!customer) throw notFound("customer");
  return customer;
}
