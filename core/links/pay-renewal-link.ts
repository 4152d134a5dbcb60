// /pay for a subscription renewal link: a renewal-advance order (target_subscription_id = the
// subscription, the link's price) paid by card on the page or by its Pix QR. When paid,
// applyOrderPaid extends the period by one cycle and emits order.paid (service-contract §5).
// A refused card leaves the link active (the customer may try another card) and the order canceled.
// A renewal-campaign link pays the same way, with the campaign's offer, price and campaign_id on the
// order (applyOrderPaid then adds the campaign's bonus).
import { chargeCard, createPixCharge } from "../gateways/gateway-calls.ts";
import { settlePayment } from "../billing/settle-payment.ts";
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { cardRefusal, gatewayContext, tokenizeOnPage, withSubscriptionLease, type PageCard } from "./page-card.ts";
import type { ResolvedPayLink } from "./resolve-pay-link.ts";
import { cents } from "../shared/money.ts";
import { queuePixChargeEmail } from "../emails/queue-pix-charge-email.ts";

/** Renewal-order QRs are payable while the link lives, at most one day. */
const ORDER_PIX_TTL_MS = 86_400_000;

export type RenewalPayment =
  | { status: "paid"; currentPeriodEnd: Date | null }
  | { status: "pending"; pix: { paymentId: string; copyPaste: string; expiresAt: Date } };

/** Why the page cannot renew now, or null. */
export async function renewalLinkBlocker(runtime: Runtime, resolved: ResolvedPayLink): Promise<string | null> {
  const sub = resolved.subscription;
  if (!sub || sub.status !== "ACTIVE") return "Esta assinatura não pode ser renovada por este link no momento.";
  const open = await runtime.db.prisma.invoice.count({ where: { tenantId: sub.tenantId, subscriptionId: sub.id, status: "OPEN" } });
  return open > 0 ? "Há uma fatura em aberto nesta assinatura; pague-a pelo link de pagamento da fatura." : null;
}

/** What a renewal-campaign link puts on its order instead of the subscription's own offer. */
export interface CampaignTerms {
  campaignId: string;
  offerId: string;
  planId: string;
  currency: string;
  gatewayAccount: NonNullable<ResolvedPayLink["subscription"]>["offer"]["gatewayAccount"];
}

export async function payRenewalLink(
  runtime: Runtime,
  resolved: ResolvedPayLink,
  input: { method: "card" | "pix"; card: PageCard | null; campaign?: CampaignTerms },
): Promise<RenewalPayment> {
  const prisma = runtime.db.prisma;
  const { link, now } = resolved;
  const blocker = await renewalLinkBlocker(runtime, resolved);
  if (blocker) throw new AppError("conflict", { error: blocker });
  if (!resolved.methods[input.method]) throw new AppError("invalid_field", { error: "forma de pagamento indisponível nesta oferta", extra: { field: "method" } });
  const sub = resolved.subscription!;
  const campaign = input.campaign;
  const account = campaign?.gatewayAccount ?? sub.offer.gatewayAccount;
  const currency = campaign?.currency ?? sub.currency;
  const amountCents = link.priceCents ?? 0;
  // A subscription renewal link is minted active; a campaign link stays open until paid.
  const payable = link.kind === "RENEWAL_CAMPAIGN" ? "OPEN" : "ACTIVE";
  return withSubscriptionLease(runtime, link.tenantId, sub.id, async () => {
    const fresh = await prisma.link.findFirstOrThrow({ where: { id: link.id } });
    if (fresh.status !== payable) throw new AppError("link_used");
    const orderId = newId("order");
    const paymentId = newId("payment");
    const gw = gatewayContext(runtime, account, now, { orderId, paymentId });
    const token = input.method === "card" ? await tokenizeOnPage(gw, orderId, input.card!, { tenantId: link.tenantId, customerId: sub.customerId }, { chargeFollows: true }) : null;
    const idempotencyKey = `${orderId}:1`;
    await prisma.$transaction([
      prisma.order.create({
        data: {
          id: orderId,
          tenantId: link.tenantId,
          customerId: sub.customerId,
          offerId: campaign?.offerId ?? sub.offerId,
          planId: campaign?.planId ?? sub.planId,
          campaignId: campaign?.campaignId ?? null,
          quantity: 1,
          unitAmountCents: amountCents,
          amountCents,
          currency,
          status: "PENDING",
          targetSubscriptionId: sub.id,
          tracking: sub.tracking ? { ...(sub.tracking as object), inherited: true } : undefined,
        },
      }),
      prisma.payment.create({
        data: {
          id: paymentId,
          tenantId: link.tenantId,
          customerId: sub.customerId,
          orderId,
          kind: "ONE_TIME",
          method: input.method === "card" ? "CARD" : "PIX",
          methodKind: input.method === "card" ? "credit_card" : "pix",
          amountCents,
          currency,
          status: "PROCESSING",
          idempotencyKey,
          gatewayAccountId: account.id,
          provider: account.provider,
          cardBrand: token?.brand ?? null,
          cardLast4: token?.last4 ?? null,
        },
      }),
      prisma.link.update({ where: { id: link.id }, data: { orderId } }),
    ]);
    if (!token) {
      const pix = await createPixCharge(gw, { amountCents: cents(amountCents), currency, idempotencyKey, reference: orderId, expiresAt: pixExpiry(now, link.expiresAt) });
      await prisma.$transaction(async (tx) => {
        await tx.payment.update({ where: { id: paymentId }, data: { gatewayChargeId: pix.chargeId, pixCopyPaste: pix.copyPaste, pixExpiresAt: pix.expiresAt } });
        await queuePixChargeEmail(tx, { tenantId: link.tenantId, paymentId, publicUrl: runtime.config.publicUrl, at: now });
      });
      return { status: "pending", pix: { paymentId, copyPaste: pix.copyPaste, expiresAt: pix.expiresAt } };
    }
    const result = await chargeCard(gw, { token: token.token, amountCents: cents(amountCents), currency, idempotencyKey, reference: orderId });
    // Paid: the order and what it delivers (applyOrderPaid); refused: the payment failed, the order canceled.
    await settlePayment(runtime, { tenantId: link.tenantId, paymentId, verdict: result, now });
    if (result.outcome === "unknown") throw new AppError("conflict", { error: "não foi possível confirmar o pagamento agora; não tente de novo antes de falar com o vendedor" });
    if (result.outcome === "declined") throw cardRefusal(result.detailCode);
    const after = await prisma.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: link.tenantId }, select: { currentPeriodEnd: true } });
    return { status: "paid", currentPeriodEnd: after.currentPeriodEnd };
  });
}

function pixExpiry(now: Date, linkExpiresAt: Date | null): Date {
  const day = new Date(now.getTime() + ORDER_PIX_TTL_MS);
  return linkExpiresAt && linkExpiresAt < day ? linkExpiresAt : day;
}
