// A new payment attempt on an invoice, recorded before the gateway hears of it. Its idempotency key
// is the invoice id plus the attempt number, so a replay after a crash reaches the same charge.
import type { GatewayAccount, Invoice, PaymentMethod, PrismaClient, Subscription } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";
import { attemptPaymentRow } from "./build-renewal-rows.ts";

export async function createInvoiceAttempt(
  prisma: PrismaClient,
  input: { invoice: Invoice & { subscription: Subscription }; account: GatewayAccount; method: "CARD" | "PIX"; card?: PaymentMethod | null },
) {
  const { invoice, account, card } = input;
  const attemptNo = (await prisma.payment.count({ where: { tenantId: invoice.tenantId, invoiceId: invoice.id } })) + 1;
  return prisma.payment.create({
    data: attemptPaymentRow({ id: newId("payment"), invoice, customerId: invoice.subscription.customerId, attemptNo, method: input.method, account, card: card ?? null }),
  });
}
