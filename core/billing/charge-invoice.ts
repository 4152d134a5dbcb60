// One card attempt on an open invoice: settle any attempt still unheard first, then record the new
// attempt (its idempotency key is invoice id + attempt number), call the gateway, settle the verdict
// (an unheard one included: the attempt waits, unknown, for reconciliation).
import type { Runtime } from "../runtime.ts";
import { chargeCard } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { createInvoiceAttempt } from "./create-invoice-attempt.ts";
import { UNSETTLED } from "../shared/status-sets.ts";
import { reconcilePayment } from "./reconcile-payment.ts";
import { settlePayment, type SettleResult } from "./settle-payment.ts";
import { cents } from "../shared/money.ts";
import { notFound } from "../shared/errors.ts";
import type { GatewayAccount, Invoice, Payment, PaymentMethod, Subscription } from "../../generated/prisma/client.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { gatewayAccountColumns, invoiceColumns, paymentColumns, paymentMethodColumns, subscriptionColumns } from "../shared/row-columns.ts";

// Every dunning retry reads these: plain statements without Prisma's compiler (prisma/direct-sql.ts).
const READ_INVOICE = `SELECT ${invoiceColumns()} FROM invoices WHERE id = $1 AND tenant_id = $2`;
const READ_SUBSCRIPTION = `SELECT ${subscriptionColumns()} FROM subscriptions WHERE id = $1 AND tenant_id = $2`;
const READ_ACCOUNT = `SELECT ${gatewayAccountColumns("ga")} FROM offers o JOIN gateway_accounts ga ON ga.id = o.gateway_account_id WHERE o.id = $1`;
const UNHEARD_ATTEMPTS = `SELECT ${paymentColumns()} FROM payments WHERE tenant_id = $1 AND invoice_id = $2 AND method = 'CARD' AND status::text = ANY($3::text[])`;
const READ_METHOD = `SELECT ${paymentMethodColumns()} FROM payment_methods WHERE id = $1`;

export type ChargeInvoiceResult = SettleResult | "blocked";

export async function chargeInvoice(runtime: Runtime, input: { tenantId: string; invoiceId: string; now: Date }): Promise<ChargeInvoiceResult> {
  const prisma = runtime.db.prisma;
  const { tenantId, invoiceId, now } = input;
  const unheard = await sqlQuery<Payment>(prisma, UNHEARD_ATTEMPTS, [tenantId, invoiceId, [...UNSETTLED]]);
  for (const payment of unheard) {
    const result = await reconcilePayment(runtime, payment, now);
    if (result === "unresolved") return "blocked";
    if (result !== "retry") return result; // the unheard attempt was the attempt: no second charge
  }
  const [invoice] = await sqlQuery<Invoice>(prisma, READ_INVOICE, [invoiceId, tenantId]);
  if (!invoice) throw notFound("invoice");
  // Paid another way meanwhile, or voided (canceled subscription): no attempt, and nothing follows for a void one.
  if (invoice.status !== "OPEN") return invoice.status === "PAID" ? "already_settled" : "none";
  const [sub] = await sqlQuery<Subscription>(prisma, READ_SUBSCRIPTION, [invoice.subscriptionId, tenantId]);
  const [account] = await sqlQuery<GatewayAccount>(prisma, READ_ACCOUNT, [sub!.offerId]);
  const [method = null] = sub!.paymentMethodId ? await sqlQuery<PaymentMethod>(prisma, READ_METHOD, [sub!.paymentMethodId]) : [];
  const payment = await createInvoiceAttempt(prisma, { invoice: { ...invoice, subscription: sub! }, account: account!, method: "CARD", card: method, at: runtime.wallClock.now() });
  if (!method || method.detachedAt) {
    return settlePayment(runtime, { tenantId, paymentId: payment.id, verdict: { outcome: "declined", chargeId: "", detailCode: "no_payment_method" }, now });
  }
  const result = await chargeCard(
    { prisma, adapter: runtime.gateways.adapter(account!.provider), account: accountRef(account!), subscriptionId: invoice.subscriptionId, paymentId: payment.id, now },
    { token: method.token, amountCents: cents(invoice.amountCents), currency: invoice.currency, idempotencyKey: payment.idempotencyKey, reference: invoiceId, offSession: true },
  );
  runtime.faults?.("after-gateway-charge");
  return settlePayment(runtime, { tenantId, paymentId: payment.id, verdict: result, now });
}
