// /pay for a payment-method link: the typed card becomes the subscription's card, nothing is charged,
// the link is used up and subscription.updated is emitted. A Pix subscription whose offer takes card
// moves to card_auto. On a gateway that captures a card only with a payment
// (capturesCardOnlyOnPaymentPage) no card is saved on its own: the page charges the open invoice with
// it when there is one (the card is saved with that payment), and otherwise says the card cannot be
// changed before the next invoice.
import { LINK } from "../../prisma/status-machines.ts";
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { tryMoveStatus } from "../shared/transition.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { isIn, STARTED } from "../shared/status-sets.ts";
import { payInvoiceByCard } from "./pay-open-invoice-link.ts";
import { gatewayContext, tokenizeOnPage, type PageCard } from "./page-card.ts";
import type { ResolvedPayLink } from "./resolve-pay-link.ts";
import { saveCard } from "../customers/save-card.ts";

export interface PaymentMethodChange {
  status: "card_updated" | "paid";
  subscriptionStatus: string;
  card: { brand: string; last4: string };
}

/** Whether the page can take a card for this link now (and why not). */
export async function paymentMethodLinkState(runtime: Runtime, resolved: ResolvedPayLink) {
  const sub = resolved.subscription;
  if (!sub || !isIn(STARTED, sub.status)) return { usable: false as const, reason: "Esta assinatura não aceita mais troca de cartão." };
  if (!resolved.methods.card) return { usable: false as const, reason: "Esta assinatura não aceita pagamento com cartão." };
  if (!resolved.methods.capturesCardOnlyOnPaymentPage) return { usable: true as const, openInvoice: null };
  const openInvoice = await runtime.db.prisma.invoice.findFirst({ where: { tenantId: sub.tenantId, subscriptionId: sub.id, status: "OPEN" }, orderBy: { dueAt: "desc" } });
  if (!openInvoice) {
    return {
      usable: false as const,
      reason: "Neste meio de pagamento o cartão só é registrado junto com um pagamento. Você receberá um link para pagar a próxima fatura com o novo cartão.",
    };
  }
  return { usable: true as const, openInvoice };
}

export async function payPaymentMethodLink(runtime: Runtime, resolved: ResolvedPayLink, card: PageCard): Promise<PaymentMethodChange> {
  const prisma = runtime.db.prisma;
  const { link, now } = resolved;
  const state = await paymentMethodLinkState(runtime, resolved);
  if (!state.usable) throw new AppError("conflict", { error: state.reason });
  const sub = resolved.subscription!;
  if (state.openInvoice) {
    const paid = await payInvoiceByCard(runtime, { tenantId: link.tenantId, subscriptionId: sub.id, invoiceId: state.openInvoice.id, card, now, saveCard: true });
    await tryMoveStatus(prisma, LINK, { id: link.id, tenantId: link.tenantId, to: "USED", data: { usedAt: now } });
    return { ...paid, status: "paid" };
  }
  const account = sub.offer.gatewayAccount;
  // Gateway event rows are coded by inv_/ord_: the card change is logged against the latest invoice, and
  // kept off the subscription's list when it has none yet (a trial with card).
  const latest = await prisma.invoice.findFirst({ where: { tenantId: link.tenantId, subscriptionId: sub.id }, orderBy: { id: "desc" }, select: { id: true } });
  const gw = gatewayContext(runtime, account, now, { subscriptionId: latest ? sub.id : null });
  const token = await tokenizeOnPage(gw, latest?.id ?? sub.id, card, { tenantId: link.tenantId, customerId: sub.customerId }, { chargeFollows: false });
  return prisma.$transaction(async (tx) => {
    await lockSubscription(tx, link.tenantId, sub.id);
    // Single use: whoever flips the link first changes the card; a second submission hears 410.
    if (!(await tryMoveStatus(tx, LINK, { id: link.id, tenantId: link.tenantId, to: "USED", data: { usedAt: now } }))) throw new AppError("link_used");
    const fresh = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: link.tenantId } });
    if (!isIn(STARTED, fresh.status)) throw new AppError("conflict", { error: "Esta assinatura não aceita mais troca de cartão." });
    const method = await saveCard(tx, { tenantId: link.tenantId, customerId: fresh.customerId, gatewayAccountId: account.id, token });
    // Pix -> card on an active subscription: the run now charges the card at the period end instead of issuing a QR 3 days before.
    const movesToCard = fresh.collectionMethod === "PIX_MANUAL" && fresh.status === "ACTIVE" && fresh.currentPeriodEnd;
    await tx.subscription.update({
      where: { id: fresh.id },
      data: { paymentMethodId: method.id, collectionMethod: "CARD_AUTO", ...(movesToCard ? { nextBillingAt: fresh.currentPeriodEnd } : {}) },
    });
    await emitSubscriptionEvents(tx, { tenantId: link.tenantId, subscriptionId: fresh.id, types: ["subscription.updated"], at: now });
    return { status: "card_updated" as const, subscriptionStatus: fresh.status.toLowerCase(), card: { brand: method.brand, last4: method.last4 } };
  });
}
