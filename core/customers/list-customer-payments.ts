// GET /v1/customers/{external_id}/payments: recurring and one-off payments, keyset paged.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { keyset, toPage, type PageArgs } from "../shared/pagination.ts";
import { paymentRowInclude } from "../payloads/payment-payload.ts";
import { findCustomer } from "./find-customer.ts";

export async function listCustomerPayments(prisma: PrismaClient, input: PageArgs & { tenantId: string; externalId: string }) {
  const k = keyset(input, "payment");
  const customer = await findCustomer(prisma, input);
  const rows = await prisma.payment.findMany({
    where: { tenantId: input.tenantId, customerId: customer.id, ...(k.afterId ? { id: { gt: k.afterId } } : {}) },
    include: paymentRowInclude,
    orderBy: { id: "asc" },
    take: k.take,
  });
  return toPage(rows, k);
}
