// /pay for an open invoice (GET .../payment-link, or a payment-method link on a gateway that captures
// a card only with a payment): the customer pays it with a card (typed on a sandbox page, or the provider's browser token). Paying settles the
// invoice like any payment (past_due -> active with invoice.paid + subscription.updated; suspended ->
// active with subscription.activated + invoice.paid). On a card_auto subscription, and on a payment-method
// link, the paying card becomes the subscription's card; a pix_manual subscription stays on Pix.
// A refused manual attempt is recorded as a failed payment but is no dunning attempt: the invoice's
// attempt count, the retry schedule and the status stay as they were.
import { chargeCard } from "../gateways/gateway-calls.ts";
import { createInvoiceAttempt } from "../billing/create-invoice-attempt.ts";
import { settlePayment } from "../billing/settle-payment.ts";
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { cardRefusal, gatewayContext, tokenizeOnPage, withSubscriptionLease, type PageCard } from "./page-card.ts";
import { saveCard } from "../customers/save-card.ts";
import { UNSETTLED } from "../shared/status-sets.ts";
import { cents } from "../shared/money.ts";

export interface InvoiceCardPayment {
  status: "paid";
  subscriptionStatus: string;
  card: { brand: string; last4: string };
}

export async function payInvoiceByCard(
  runtime: Runtime,
  input: { tenantId: string; subscriptionId: string; invoiceId: string; card: PageCard; now: Date; saveCard: boolean },
): Promise<InvoiceCardPayment> {
  const prisma = runtime.db.prisma;
  const { tenantId, subscriptionId, invoiceId, now } = input;
  return withSubscriptionLease(runtime, tenantId, subscriptionId, async () => {
    const invoice = await prisma.invoice.findFirstOrThrow({
      where: { id: invoiceId, tenantId },
      include: { subscription: { include: { offer: { include: { gatewayAccount: true } } } } },
    });
    if (invoice.status !== "OPEN") throw new AppError("link_used", { error: "esta fatura já foi paga" });
    if (invoice.subscription.status === "CANCELED") throw new AppError("link_expired", { error: "esta assinatura foi cancelada" });
    const unheard = await prisma.payment.count({ where: { tenantId, invoiceId, method: "CARD", status: { in: [...UNSETTLED] } } });
    if (unheard > 0) throw new AppError("conflict", { error: "um pagamento desta fatura ainda está em processamento; tente novamente mais tarde" });
    const account = invoice.subscription.offer.gatewayAccount;
    const gw = gatewayContext(runtime, account, now, { subscriptionId });
    const token = await tokenizeOnPage(gw, invoiceId, input.card, { tenantId, customerId: invoice.subscription.customerId }, { chargeFollows: true });
    // The card is kept detached until the charge is approved: a refused card never becomes the subscription's.
    const method = await saveCard(prisma, { tenantId, customerId: invoice.subscription.customerId, gatewayAccountId: account.id, token, detachedAt: now });
    const payment = await createInvoiceAttempt(prisma, { invoice, account, method: "CARD", card: method, at: runtime.wallClock.now() });
    const result = await chargeCard(
      { ...gw, paymentId: payment.id },
      { token: method.token, amountCents: cents(invoice.amountCents), currency: invoice.currency, idempotencyKey: payment.idempotencyKey, reference: invoiceId },
    );
    if (result.outcome !== "approved") {
      // A manual attempt is no dunning attempt: a refusal is recorded, the schedule and status stay.
      await settlePayment(runtime, { tenantId, paymentId: payment.id, verdict: result, now, dunning: false });
      if (result.outcome === "unknown") throw new AppError("conflict", { error: "não foi possível confirmar o pagamento agora; não tente de novo antes de consultar a fatura" });
      throw cardRefusal(result.detailCode);
    }
    // Approved: the card becomes the subscription's card (when asked), then the payment settles the invoice (its events carry it).
    if (input.saveCard) await prisma.$transaction([
      prisma.paymentMethod.update({ where: { id: method.id }, data: { detachedAt: null } }),
      prisma.subscription.update({ where: { id: subscriptionId }, data: { paymentMethodId: method.id, collectionMethod: "CARD_AUTO" } }),
    ]);
    await settlePayment(runtime, { tenantId, paymentId: payment.id, verdict: result, now });
    const after = await prisma.subscription.findFirstOrThrow({ where: { id: subscriptionId, tenantId }, select: { status: true } });
    return { status: "paid", subscriptionStatus: after.status.toLowerCase(), card: { brand: method.brand, last4: method.last4 } };
  });
}
