// A new payment attempt on an invoice, recorded before the gateway hears of it. Its idempotency key
// is the invoice id plus the attempt number, so a replay after a crash reaches the same charge.
// One statement without Prisma's compiler (prisma/direct-sql.ts): every renewal retry writes one.
import type { GatewayAccount, Invoice, Payment, PaymentMethod, PrismaClient, Subscription } from "../../generated/prisma/client.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { newId } from "../shared/ids.ts";
import { paymentColumns } from "../shared/row-columns.ts";
import { attemptPaymentRow } from "./build-renewal-rows.ts";

// The attempt number counts the invoice's payments in the same statement; two attempts racing for one
// number collide on the idempotency key's unique index, never charge twice.
const INSERT_ATTEMPT = `
  WITH n AS (SELECT count(*)::int + 1 AS attempt_no FROM payments WHERE tenant_id = $2 AND invoice_id = $4)
  INSERT INTO payments (id, tenant_id, customer_id, subscription_id, invoice_id, kind, method, method_kind, amount_cents, currency, status,
    attempt_no, idempotency_key, gateway_account_id, provider, payment_method_id, card_brand, card_last4, created_at)
  SELECT $1, $2, $3, $5, $4, 'RECURRING', $6::text::"PaymentMethodType", $7, $8, $9, 'PROCESSING',
         n.attempt_no, $4 || ':' || n.attempt_no, $10, $11, $12, $13, $14, $15
    FROM n
  RETURNING ${paymentColumns()}`;

export async function createInvoiceAttempt(
  prisma: PrismaClient,
  input: { invoice: Invoice & { subscription: Pick<Subscription, "customerId"> }; account: Pick<GatewayAccount, "id" | "provider">; method: "CARD" | "PIX"; card?: PaymentMethod | null; at: Date },
): Promise<Payment> {
  const { invoice, account, card } = input;
  // attemptPaymentRow states the row; the attempt number (and so the key) is filled in by the statement.
  const row = attemptPaymentRow({ id: newId("payment"), invoice, customerId: invoice.subscription.customerId, attemptNo: 0, method: input.method, account, card: card ?? null });
  const [payment] = await sqlQuery<Payment>(prisma, INSERT_ATTEMPT, [
    row.id,
    row.tenantId,
    row.customerId,
    row.invoiceId,
    row.subscriptionId,
    row.method,
    row.methodKind,
    row.amountCents,
    row.currency,
    row.gatewayAccountId,
    row.provider,
    row.paymentMethodId ?? null,
    row.cardBrand ?? null,
    row.cardLast4 ?? null,
    input.at,
  ]);
  return payment!;
}
