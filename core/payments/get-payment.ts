// GET /v1/payments/{id}: the payment row plus its items.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { paymentRowInclude } from "./payment-payload.ts";

export async function getPayment(prisma: PrismaClient, input: { tenantId: string; paymentId: string }) {
  if (!isId("payment", input.paymentId)) throw notFound("payment");
  const payment = await prisma.payment.findFirst({
    where: { id: input.paymentId, tenantId: input.tenantId },
    include: { ...paymentRowInclude, items: { orderBy: { id: "asc" } } },
  });
  if (!payment) throw notFound("payment");
  return payment;
}
