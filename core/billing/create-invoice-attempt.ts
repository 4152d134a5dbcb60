// A new payment attempt on an invoice, recorded before the gateway hears of it. Its idempotency key
// is the invoice id plus the attempt number, so a replay after a crash reaches the same charge.
import type { GatewayAccount, Invoice, PaymentMethod, PrismaClient, Subscription } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";

export async function createInvoiceAttempt(
  prisma: PrismaClient,
  input: { invoice: Invoice & { subscription: Subscription }; account: GatewayAccount; method: "CARD" | "PIX"; card?: PaymentMethod | null },
) {
  const { invoice, account, card } = input;
  const attemptNo = (await prisma.payment.count({ where: { tenantId: invoice.tenantId, invoiceId: invoice.id } })) + 1;
  return prisma.payment.create({
    data: {
      id: newId("payment"),
      tenantId: invoice.tenantId,
      customerId: invoice.subscription.customerId,
      subscriptionId: invoice.subscriptionId,
      invoiceId: invoice.id,
      kind: "RECURRING",
      method: input.method,
      methodKind: input.method === "CARD" ? "credit_card" : "pix",
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      status: "PROCESSING",
      attemptNo,
      idempotencyKey: `${invoice.id}:${attemptNo}`,
      gatewayAccountId: account.id,
      provider: account.provider,
      paymentMethodId: card?.id ?? null,
      cardBrand: card?.brand ?? null,
      cardLast4: card?.last4 ?? null,
    },
  });
}
