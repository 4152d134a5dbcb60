// GET /v1/payments/{id}: one payment of the tenant (the caller's query decides what else loads).
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export async function getPayment<Q extends { include?: Prisma.PaymentInclude; select?: Prisma.PaymentSelect }>(
  prisma: PrismaClient,
  input: { tenantId: string; paymentId: string },
  query: Q = {} as Q,
) {
  if (!isId("payment", input.paymentId)) throw notFound("payment");
  const payment = await prisma.payment.findFirst({ ...query, where: { id: input.paymentId, tenantId: input.tenantId } });
  if (!payment) throw notFound("payment");
  return payment;
}
