// The hosted checkout of a one-time offer: an order of `quantity` units, paid by card on the spot or
// by a Pix QR. As with subscriptions, a refused checkout leaves nothing behind: the card is charged
// first and the customer, order and payment are written in one transaction, which settles the card's
// verdict through the one settlement (settle-payment.ts): the order paid and what it delivers.
// An early-renewal offer (renews_subscription) targets the buyer's active subscription of its plan.
import type { Customer, PrismaClient } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { createPixCharge, refundCharge, type GatewayCallContext } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { refundSettledSurplus, settlePaymentsInTx, type SurplusRefund, type Verdict } from "../billing/settle-payment.ts";
import { tenantClock } from "../shared/clock.ts";
import { newId } from "../shared/ids.ts";
import { dropChargeIntent, settleChargeIntent, voidKey } from "./checkout-charge-intent.ts";
import { CHECKOUT_PIX_TTL_MS, chargeAtCheckout, tokenize } from "./checkout-charge.ts";
import { fieldError, findCheckoutCustomer } from "./checkout-guards.ts";
import type { CheckoutInput, CheckoutResult } from "./checkout-input.ts";
import { upsertCheckoutCustomer } from "./create-checkout-records.ts";
import { couponRefusal } from "./refusal-texts.ts";
import type { CheckoutOffer } from "./get-checkout-offer.ts";
import { queuePixChargeEmail } from "../emails/queue-pix-charge-email.ts";
import { cents } from "../shared/money.ts";

const NO_TARGET = "nenhuma assinatura ativa deste plano para renovar com este e-mail";
/** Money and the order's extension_seconds are 32-bit integer columns: a larger total was a 500. */
const MAX_INT32 = 2_147_483_647;
const TOO_MANY = "quantidade acima do máximo para esta oferta; reduza a quantidade";
/** The longest cycle of each interval, in seconds: a renewal of `quantity` cycles must fit extension_seconds. */
const LONGEST_CYCLE_S = { MONTH: 31 * 86_400, YEAR: 366 * 86_400 } as const;

export async function startOrderCheckout(runtime: Runtime, offer: CheckoutOffer, input: CheckoutInput): Promise<CheckoutResult> {
  const prisma = runtime.db.prisma;
  const now = tenantClock({ mode: offer.tenantMode, clockAt: offer.clockAt }, runtime.wallClock).now();
  // Coupons discount subscription cycles; a one-time price is the offer's.
  if (input.coupon) throw couponRefusal("not_applicable");
  if (offer.priceCents * input.quantity > MAX_INT32) throw fieldError("quantity", TOO_MANY);
  const existing = await findCheckoutCustomer(prisma, offer.tenantId, input);
  const { planId, gatewayAccount: account } = await prisma.offer.findUniqueOrThrow({ where: { id: offer.id }, include: { gatewayAccount: true } });
  const target = offer.renewsSubscription ? await renewalTarget(prisma, offer.tenantId, planId, existing, input.quantity) : null;
  const ids = { customerId: newId("customer"), orderId: newId("order"), paymentId: newId("payment") };
  const gw: GatewayCallContext = {
    prisma,
    adapter: runtime.gateways.adapter(account.provider),
    account: accountRef(account),
    subscriptionId: target,
    orderId: ids.orderId,
    paymentId: ids.paymentId,
    now,
  };
  const amountCents = cents(offer.priceCents * input.quantity);
  const idempotencyKey = `${ids.orderId}:1`;
  const records = { runtime, offer, input, existing, planId, target, ids, amountCents, idempotencyKey, account, now };

  if (input.method === "card") {
    const saved = await tokenize(gw, ids.orderId, input, { id: existing?.id ?? ids.customerId, isNew: !existing }, true);
    if (!existing) ids.customerId = saved.customerId;
    const card = saved.card;
    const verdict = await chargeAtCheckout(gw, card, amountCents, offer.currency, ids.orderId, idempotencyKey, runtime.wallClock.now(), saved.log);
    runtime.faults?.("after-gateway-charge");
    try {
      await writeOrder({ ...records, card: { verdict, brand: card.brand, last4: card.last4 }, pix: null });
    } catch (err) {
      // The charge went through but nothing was recorded: give the money back rather than keep it unexplained.
      const voided = await refundCharge(gw, ids.orderId, { chargeId: verdict.chargeId, amountCents, idempotencyKey: voidKey(idempotencyKey) });
      if (voided) await dropChargeIntent(runtime.db.prisma, idempotencyKey); // else the reconcile job voids it
      throw err;
    }
    return { status: "paid", subscriptionId: target, orderId: ids.orderId, pix: null };
  }

  const pix = await createPixCharge(gw, {
    amountCents,
    currency: offer.currency,
    idempotencyKey,
    reference: ids.orderId,
    expiresAt: new Date(now.getTime() + CHECKOUT_PIX_TTL_MS),
    payer: { name: input.name, email: input.email, doc: input.doc, phone: input.phone },
  });
  await writeOrder({ ...records, card: null, pix: { chargeId: pix.chargeId, copyPaste: pix.copyPaste, expiresAt: pix.expiresAt } });
  return {
    status: "pending",
    subscriptionId: target,
    orderId: ids.orderId,
    pix: { copyPaste: pix.copyPaste, qrPngUrl: `${runtime.config.publicUrl}/pix/${ids.paymentId}/qr.png`, expiresAt: pix.expiresAt },
  };
}

/** The buyer's active subscription of the plan, with nothing left to pay on it, that `quantity` cycles can extend. */
async function renewalTarget(prisma: PrismaClient, tenantId: string, planId: string, customer: Customer | null, quantity: number): Promise<string> {
  if (!customer) throw fieldError("email", NO_TARGET);
  const sub = await prisma.subscription.findFirst({
    where: { tenantId, customerId: customer.id, planId, status: "ACTIVE" },
    orderBy: { id: "desc" },
    select: { id: true, offer: { select: { interval: true } } },
  });
  if (!sub) throw fieldError("email", NO_TARGET);
  if (quantity * LONGEST_CYCLE_S[sub.offer.interval ?? "MONTH"] > MAX_INT32) throw fieldError("quantity", TOO_MANY);
  const open = await prisma.invoice.count({ where: { tenantId, subscriptionId: sub.id, status: "OPEN" } });
  if (open > 0) throw fieldError("email", "há uma fatura em aberto nesta assinatura; pague-a antes de renovar");
  return sub.id;
}

interface OrderRecords {
  runtime: Runtime;
  offer: CheckoutOffer;
  input: CheckoutInput;
  existing: Customer | null;
  planId: string;
  target: string | null;
  ids: { customerId: string; orderId: string; paymentId: string };
  amountCents: number;
  idempotencyKey: string;
  account: { id: string; provider: string };
  now: Date;
  /** A card charged at checkout with its gateway verdict (settled with the records), or null for a Pix order waiting for its QR to be paid. */
  card: { verdict: Verdict; brand: string; last4: string } | null;
  pix: { chargeId: string; copyPaste: string; expiresAt: Date } | null;
}

async function writeOrder(r: OrderRecords): Promise<void> {
  const { offer, ids, now } = r;
  const wallNow = r.runtime.wallClock.now();
  const refunds = await r.runtime.db.prisma.$transaction(async (tx): Promise<SurplusRefund[]> => {
    if (r.card) await settleChargeIntent(tx, r.idempotencyKey);
    const customerId = await upsertCheckoutCustomer(tx, { tenantId: offer.tenantId, newCustomerId: ids.customerId, input: r.input, existing: r.existing, at: wallNow });
    await tx.order.create({
      data: {
        id: ids.orderId,
        tenantId: offer.tenantId,
        customerId,
        offerId: offer.id,
        planId: r.planId,
        quantity: r.input.quantity,
        unitAmountCents: offer.priceCents,
        amountCents: r.amountCents,
        currency: offer.currency,
        status: "PENDING",
        targetSubscriptionId: r.target,
        tracking: r.input.tracking ? { ...r.input.tracking } : undefined,
      },
    });
    await tx.payment.create({
      data: {
        id: ids.paymentId,
        tenantId: offer.tenantId,
        customerId,
        orderId: ids.orderId,
        kind: "ONE_TIME",
        method: r.card ? "CARD" : "PIX",
        methodKind: r.card ? "credit_card" : "pix",
        amountCents: r.amountCents,
        currency: offer.currency,
        status: "PROCESSING",
        idempotencyKey: r.idempotencyKey,
        gatewayAccountId: r.account.id,
        provider: r.account.provider,
        gatewayChargeId: r.card?.verdict.chargeId ?? r.pix!.chargeId,
        cardBrand: r.card?.brand ?? null,
        cardLast4: r.card?.last4 ?? null,
        pixCopyPaste: r.pix?.copyPaste ?? null,
        pixExpiresAt: r.pix?.expiresAt ?? null,
      },
    });
    if (!r.card) {
      await queuePixChargeEmail(tx, { tenantId: offer.tenantId, paymentId: ids.paymentId, publicUrl: r.runtime.config.publicUrl, at: now });
      return [];
    }
    // Paid: the order and what it delivers (apply-order-paid.ts); anything else records no sale (the caller gives the charge back).
    const { results, refunds } = await settlePaymentsInTx(tx, [{ tenantId: offer.tenantId, paymentId: ids.paymentId, verdict: r.card.verdict, now }], wallNow);
    if (results[0] !== "paid") throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
    return refunds;
  });
  await refundSettledSurplus(r.runtime, refunds);
}
