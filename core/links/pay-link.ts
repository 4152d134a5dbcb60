// /pay/{token}: one page for every link kind (service-contract §3). describePayLink says what the
// page shows; payLink handles a submission, dispatching on the link's kind. Kinds whose machinery
// arrives with later issues answer a clear "not available" (409).
// The card path is chosen by the account the card will be saved at (`cardAccount`): the subscription's,
// a campaign offer's, or for a gateway migration the TARGET offer's. At a real gateway the card is typed
// only into that provider's browser script and the page posts its token (PCI SAQ A).
import type { BrowserTokenSpec } from "../checkout/checkout-form.ts";
import { issuePixCharge } from "../billing/issue-pix-charge.ts";
import { RETRY_DAYS } from "../shared/periods.ts";
import { LINK } from "../../prisma/status-machines.ts";
import type { Runtime } from "../runtime.ts";
import { AppError } from "../shared/errors.ts";
import { tryMoveStatus } from "../shared/transition.ts";
import { IN_GOOD_STANDING, isIn } from "../shared/status-sets.ts";
import { payGatewayMigrationLink } from "./pay-gateway-migration-link.ts";
import { payInvoiceByCard } from "./pay-open-invoice-link.ts";
import { paymentMethodLinkState, payPaymentMethodLink } from "./pay-payment-method-link.ts";
import { payRenewalLink, renewalLinkBlocker } from "./pay-renewal-link.ts";
import { bonusText, campaignLinkState, payCampaignLink } from "./pay-campaign-link.ts";
import { readPageCard, refusePostedCard, type PageCard } from "./page-card.ts";
import { resolvePayLink, type ResolvedPayLink } from "./resolve-pay-link.ts";
import { quotePayLink, type PayQuoteInput } from "./quote-pay-link.ts";
import type { OrderFigures } from "../shared/order-figures.ts";

export type PayMethod = "card" | "pix";

export interface PixView {
  paymentId: string;
  copyPaste: string;
  expiresAt: Date;
}

export interface PayPageView {
  kind: ResolvedPayLink["link"]["kind"];
  tenantName: string;
  sandbox: boolean;
  planName: string | null;
  amountCents: number | null;
  currency: string;
  /** Methods the form offers; empty when the page only informs. */
  methods: PayMethod[];
  /** Why the link cannot be used now (the page shows it instead of a form). */
  blocker: string | null;
  /** A payment-method link on a gateway that captures a card only with a payment: the open invoice is charged. */
  chargesOpenInvoice: boolean;
  currentCard: { brand: string; last4: string } | null;
  pix: PixView | null;
  /** A renewal-campaign link: the bonus added on top of the cycle ("1 mês de bônus"), or null. */
  bonus?: string | null;
  /** The gateway account a card typed on this page is saved and charged at (the page loads its provider's tokenizer). */
  cardAccount: CardAccount | null;
  /** The subscription's offer, named in the order summary. */
  offerName?: string | null;
  /** The order summary's figures (quote-pay-link.ts), for links that charge a subscription or change its card. */
  figures?: OrderFigures | null;
}

export interface CardAccount {
  id: string;
  tenantId: string;
  provider: string;
}

const accountOf = (a: CardAccount): CardAccount => ({ id: a.id, tenantId: a.tenantId, provider: a.provider });

/** Where a card of this link is saved: the migration's target offer, a campaign's offer, else the subscription's. */
async function cardAccountOf(runtime: Runtime, resolved: ResolvedPayLink): Promise<CardAccount | null> {
  const { link } = resolved;
  if (link.kind === "GATEWAY_MIGRATION" || link.kind === "RENEWAL_CAMPAIGN") {
    const offerId =
      link.kind === "GATEWAY_MIGRATION"
        ? link.offerId
        : link.campaignId
          ? (await runtime.db.prisma.renewalCampaign.findFirst({ where: { id: link.campaignId, tenantId: link.tenantId }, select: { offerId: true } }))?.offerId
          : null;
    const offer = offerId ? await runtime.db.prisma.offer.findFirst({ where: { id: offerId, tenantId: link.tenantId }, include: { gatewayAccount: true } }) : null;
    return offer ? accountOf(offer.gatewayAccount) : null;
  }
  return resolved.subscription ? accountOf(resolved.subscription.offer.gatewayAccount) : null;
}

export interface PayOutcome {
  status: "card_updated" | "paid" | "pending";
  kind: PayPageView["kind"];
  subscriptionStatus: string | null;
  card: { brand: string; last4: string } | null;
  currentPeriodEnd: Date | null;
  pix: PixView | null;
}

const NOT_AVAILABLE = "Este tipo de link ainda não pode ser pago por aqui.";

export async function describePayLink(runtime: Runtime, token: string): Promise<PayPageView> {
  const resolved = await resolvePayLink(runtime, token);
  const { link, subscription: sub, invoice } = resolved;
  const methods: PayMethod[] = (["card", "pix"] as const).filter((m) => resolved.methods[m]);
  const view: PayPageView = {
    kind: link.kind,
    tenantName: resolved.tenant.name,
    sandbox: resolved.tenant.mode === "SANDBOX",
    planName: sub?.plan.name ?? null,
    amountCents: null,
    currency: sub?.currency ?? "brl",
    methods: [],
    blocker: null,
    chargesOpenInvoice: false,
    currentCard: sub?.paymentMethod && sub.collectionMethod === "CARD_AUTO" ? { brand: sub.paymentMethod.brand, last4: sub.paymentMethod.last4 } : null,
    pix: null,
    cardAccount: await cardAccountOf(runtime, resolved),
  };
  switch (link.kind) {
    case "PAYMENT_METHOD": {
      const state = await paymentMethodLinkState(runtime, resolved);
      if (!state.usable) return { ...view, blocker: state.reason };
      const inv = state.openInvoice;
      const charge: PayQuoteInput["charge"] = inv ? { kind: "invoice", amountCents: inv.amountCents, discountCents: inv.discountCents, periodEnd: inv.periodEnd } : { kind: "none" };
      return { ...view, methods: ["card"], chargesOpenInvoice: !!inv, amountCents: inv?.amountCents ?? null, ...(await figuresOf(runtime, resolved, charge)) };
    }
    case "SUBSCRIPTION_RENEWAL": {
      const blocker = await renewalLinkBlocker(runtime, resolved);
      const figures = blocker ? {} : await figuresOf(runtime, resolved, { kind: "renewal", amountCents: link.priceCents ?? 0, bonus: null });
      return { ...view, amountCents: link.priceCents, blocker, methods: blocker ? [] : methods, ...figures };
    }
    case "OPEN_INVOICE": {
      if (!invoice || !sub || sub.status === "CANCELED") return { ...view, blocker: "Esta assinatura foi cancelada." };
      const live = await runtime.db.prisma.payment.findFirst({
        where: { tenantId: link.tenantId, invoiceId: invoice.id, method: "PIX", status: "PROCESSING", pixExpiresAt: { gt: resolved.now } },
        orderBy: { id: "desc" },
      });
      const pix = live?.pixCopyPaste && live.pixExpiresAt ? { paymentId: live.id, copyPaste: live.pixCopyPaste, expiresAt: live.pixExpiresAt } : null;
      const figures = await figuresOf(runtime, resolved, { kind: "invoice", amountCents: invoice.amountCents, discountCents: invoice.discountCents, periodEnd: invoice.periodEnd });
      return { ...view, amountCents: invoice.amountCents, currency: invoice.currency, methods, pix, ...figures };
    }
    case "GATEWAY_MIGRATION": {
      // The saved card does not cross gateways: the customer types a card for the new gateway.
      const usable = link.status === "OPEN" && !!sub && isIn(IN_GOOD_STANDING, sub.status);
      return usable
        ? { ...view, amountCents: link.priceCents, methods: ["card"], currentCard: null }
        : { ...view, blocker: "Esta troca de plano não está mais disponível." };
    }
    case "ORDER_PIX":
      return describeOrderPix(runtime, resolved, view);
    case "RENEWAL_CAMPAIGN": {
      const state = await campaignLinkState(runtime, resolved);
      const offered: PayMethod[] = (["card", "pix"] as const).filter((m) => state.resolved.methods[m]);
      const figures = state.blocker ? {} : await figuresOf(runtime, resolved, { kind: "renewal", amountCents: link.priceCents ?? 0, bonus: state.bonus });
      return {
        ...figures,
        ...view,
        planName: state.planName ?? view.planName,
        currency: state.terms?.currency ?? view.currency,
        amountCents: link.priceCents,
        bonus: state.bonus ? bonusText(state.bonus) : null,
        blocker: state.blocker,
        methods: state.blocker ? [] : offered,
      };
    }
    default:
      return { ...view, blocker: NOT_AVAILABLE };
  }
}

/** The order summary of a link on a subscription: its offer, its active coupon and what the page charges. */
async function figuresOf(runtime: Runtime, resolved: ResolvedPayLink, charge: PayQuoteInput["charge"]): Promise<{ offerName: string; figures: OrderFigures } | Record<string, never>> {
  const sub = resolved.subscription;
  if (!sub?.currentPeriodEnd || !sub.offer.interval) return {};
  const prisma = runtime.db.prisma;
  const [pending, redemption] = await Promise.all([
    sub.pendingOfferId ? prisma.offer.findFirst({ where: { id: sub.pendingOfferId, tenantId: sub.tenantId }, select: { priceCents: true } }) : null,
    prisma.couponRedemption.findFirst({ where: { tenantId: sub.tenantId, subscriptionId: sub.id, active: true }, include: { coupon: true }, orderBy: { id: "asc" } }),
  ]);
  const figures = quotePayLink({
    subscription: {
      status: sub.status,
      currency: sub.currency,
      interval: sub.offer.interval,
      priceCents: sub.offer.priceCents,
      nextPriceCents: pending?.priceCents ?? sub.offer.priceCents,
      currentPeriodEnd: sub.currentPeriodEnd,
      anchorDay: sub.anchorDay,
      trialEndsAt: sub.trialEndsAt,
    },
    coupon: redemption ? { code: redemption.coupon.code, percentOff: redemption.coupon.percentOff, amountOffCents: redemption.coupon.amountOffCents, cyclesRemaining: redemption.cyclesRemaining } : null,
    charge,
  });
  return { offerName: sub.offer.name, figures };
}

/** A pending order's Pix: the page shows the live QR; there is nothing to submit. */
async function describeOrderPix(runtime: Runtime, resolved: ResolvedPayLink, view: PayPageView): Promise<PayPageView> {
  const prisma = runtime.db.prisma;
  const { link, now } = resolved;
  const order = link.orderId ? await prisma.order.findFirst({ where: { id: link.orderId, tenantId: link.tenantId } }) : null;
  if (!order || order.status !== "PENDING") return { ...view, blocker: "Este pedido não tem mais um Pix pendente." };
  const plan = await prisma.plan.findFirst({ where: { id: order.planId, tenantId: link.tenantId }, select: { name: true } });
  const live = await prisma.payment.findFirst({
    where: { tenantId: link.tenantId, orderId: order.id, method: "PIX", status: "PROCESSING", pixExpiresAt: { gt: now } },
    orderBy: { id: "desc" },
  });
  const base = { ...view, planName: plan?.name ?? null, amountCents: order.amountCents, currency: order.currency };
  if (!live?.pixCopyPaste || !live.pixExpiresAt) return { ...base, blocker: "O Pix deste pedido expirou; peça um novo link ao vendedor." };
  return { ...base, pix: { paymentId: live.id, copyPaste: live.pixCopyPaste, expiresAt: live.pixExpiresAt } };
}

/**
 * `browserToken`: the field the page's tokenizer posts for the card account's provider
 * (web/browser-tokenizers), or null when the page could load none.
 */
export async function payLink(runtime: Runtime, input: { token: string; body: Record<string, unknown>; browserToken?: BrowserTokenSpec | null }): Promise<PayOutcome> {
  const resolved = await resolvePayLink(runtime, input.token);
  const { link, now } = resolved;
  const provider = (await cardAccountOf(runtime, resolved))?.provider;
  // PCI SAQ A: a card at a real gateway is never posted to us; refused unread, whatever the link or method.
  refusePostedCard(provider, input.body);
  const readCard = (body: Record<string, unknown>, at: Date): PageCard => readPageCard(body, at, provider, input.browserToken);
  const base = { kind: link.kind, subscriptionStatus: null, card: null, currentPeriodEnd: null, pix: null };
  switch (link.kind) {
    case "PAYMENT_METHOD": {
      const done = await payPaymentMethodLink(runtime, resolved, readCard(input.body, now));
      return { ...base, ...done };
    }
    case "SUBSCRIPTION_RENEWAL": {
      const method = readMethod(input.body, resolved);
      const paid = await payRenewalLink(runtime, resolved, { method, card: method === "card" ? readCard(input.body, now) : null });
      return paid.status === "paid" ? { ...base, status: "paid", currentPeriodEnd: paid.currentPeriodEnd } : { ...base, status: "pending", pix: paid.pix };
    }
    case "OPEN_INVOICE":
      return payOpenInvoice(runtime, resolved, input.body, base, readCard);
    case "GATEWAY_MIGRATION": {
      const paid = await payGatewayMigrationLink(runtime, { tenantId: link.tenantId, linkId: link.id, card: readCard(input.body, now), now });
      const sub = await runtime.db.prisma.subscription.findFirstOrThrow({
        where: { id: paid.subscriptionId, tenantId: link.tenantId },
        include: { paymentMethod: { select: { brand: true, last4: true } } },
      });
      return { ...base, status: "paid", subscriptionStatus: sub.status.toLowerCase(), card: sub.paymentMethod, currentPeriodEnd: sub.currentPeriodEnd };
    }
    case "ORDER_PIX":
      // The page only shows the order's QR: it is paid in the payer's bank app.
      throw new AppError("conflict", { error: "Este link mostra o Pix do pedido: pague pelo QR Code ou pelo Pix copia e cola." });
    case "RENEWAL_CAMPAIGN": {
      const paid = await payCampaignLink(runtime, resolved, {
        method: (withMethods) => readMethod(input.body, withMethods),
        card: (method) => (method === "card" ? readCard(input.body, now) : null),
      });
      return paid.status === "paid" ? { ...base, status: "paid", currentPeriodEnd: paid.currentPeriodEnd } : { ...base, status: "pending", pix: paid.pix };
    }
  }
}

async function payOpenInvoice(
  runtime: Runtime,
  resolved: ResolvedPayLink,
  body: Record<string, unknown>,
  base: Omit<PayOutcome, "status">,
  readCard: (body: Record<string, unknown>, now: Date) => PageCard,
): Promise<PayOutcome> {
  const { link, subscription: sub, invoice, now } = resolved;
  if (!sub || !invoice || sub.status === "CANCELED") throw new AppError("link_expired", { error: "esta assinatura foi cancelada" });
  const method = readMethod(body, resolved);
  if (method === "pix") {
    // The renewal QR's window: payable through the dunning period of the invoice, at least a day.
    const until = Math.max(invoice.dueAt.getTime() + RETRY_DAYS[RETRY_DAYS.length - 1]! * 86_400_000, now.getTime() + 86_400_000);
    const pix = await issuePixCharge(runtime, { tenantId: link.tenantId, invoiceId: invoice.id, expiresAt: new Date(until), now });
    return { ...base, status: "pending", pix };
  }
  const paid = await payInvoiceByCard(runtime, {
    tenantId: link.tenantId,
    subscriptionId: sub.id,
    invoiceId: invoice.id,
    card: readCard(body, now),
    now,
    saveCard: sub.collectionMethod === "CARD_AUTO",
  });
  await tryMoveStatus(runtime.db.prisma, LINK, { id: link.id, tenantId: link.tenantId, to: "PAID", from: ["OPEN"], data: { usedAt: now } });
  return { ...base, status: "paid", subscriptionStatus: paid.subscriptionStatus, card: paid.card };
}

function readMethod(body: Record<string, unknown>, resolved: ResolvedPayLink): PayMethod {
  const offered = (["card", "pix"] as const).filter((m) => resolved.methods[m]);
  const raw = body.method;
  if (raw === undefined || raw === null || raw === "") {
    if (offered.length === 1) return offered[0]!;
    if (offered.includes("card")) return "card";
  }
  const found = offered.find((m) => m === raw);
  if (!found) throw new AppError("invalid_field", { error: "forma de pagamento indisponível nesta oferta", extra: { field: "method" } });
  return found;
}
