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

export type ChargeInvoiceResult = SettleResult | "blocked";

export async function chargeInvoice(runtime: Runtime, input: { tenantId: string; invoiceId: string; now: Date }): Promise<ChargeInvoiceResult> {
  const prisma = runtime.db.prisma;
  const { tenantId, invoiceId, now } = input;
  const unheard = await prisma.payment.findMany({ where: { tenantId, invoiceId, method: "CARD", status: { in: [...UNSETTLED] } } });
  for (const payment of unheard) {
    const result = await reconcilePayment(runtime, payment, now);
    if (result === "unresolved") return "blocked";
    if (result !== "retry") return result; // the unheard attempt was the attempt: no second charge
  }
  const invoice = await prisma.invoice.findFirstOrThrow({
    where: { id: invoiceId, tenantId },
    include: { subscription: { include: { paymentMethod: true, offer: { include: { gatewayAccount: true } } } } },
  });
  // Paid another way meanwhile, or voided (canceled subscription): no attempt, and nothing follows for a void one.
  if (invoice.status !== "OPEN") return invoice.status === "PAID" ? "already_settled" : "none";
  const method = invoice.subscription.paymentMethod;
  const account = invoice.subscription.offer.gatewayAccount;
  const payment = await createInvoiceAttempt(prisma, { invoice, account, method: "CARD", card: method });
  if (!method || method.detachedAt) {
    return settlePayment(runtime, { tenantId, paymentId: payment.id, verdict: { outcome: "declined", chargeId: "", detailCode: "no_payment_method" }, now });
  }
  const result = await chargeCard(
    { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: invoice.subscriptionId, paymentId: payment.id, now },
    { token: method.token, amountCents: cents(invoice.amountCents), currency: invoice.currency, idempotencyKey: payment.idempotencyKey, reference: invoiceId, offSession: true },
  );
  runtime.faults?.("after-gateway-charge");
  return settlePayment(runtime, { tenantId, paymentId: payment.id, verdict: result, now });
}
