// The one transaction that gives birth to a subscription: customer (new or found), saved card, the
// subscription, its first invoice and payment, the coupon redemption and the outbox events. A card
// charged at checkout is settled in the same transaction by the one settlement (settle-payment.ts):
// the subscription is born waiting for its first payment and the approved verdict activates it.
import { settleChargeIntent } from "./checkout-charge-intent.ts";
import type { Coupon, Customer, Prisma, SubscriptionStatus } from "../../generated/prisma/client.ts";
import type { EventType } from "../events/event-types.ts";
import type { Runtime } from "../runtime.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { newId } from "../shared/ids.ts";
import type { InvoiceAmount } from "../shared/invoice-amount.ts";
import { refundSettledSurplus, settlePaymentsInTx, type SurplusRefund, type Verdict } from "../billing/settle-payment.ts";
import { recordReferral } from "../referrals/record-referral.ts";
import { queuePixChargeEmail } from "../emails/queue-pix-charge-email.ts";
import type { CheckoutInput } from "./checkout-input.ts";
import { fieldError } from "./checkout-guards.ts";
import { couponRefusal } from "./refusal-texts.ts";

export interface SavedCard {
  token: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CheckoutRecords {
  ids: { customerId: string; subscriptionId: string; invoiceId: string; paymentId: string };
  tenantId: string;
  gatewayAccount: { id: string; provider: string };
  offer: { id: string; planId: string; currency: string };
  input: CheckoutInput;
  existingCustomer: Customer | null;
  coupon: Coupon | null;
  card: SavedCard | null;
  status: SubscriptionStatus;
  period: { start: Date | null; end: Date | null; anchorDay: number | null; trialEndsAt: Date | null; nextBillingAt: Date | null };
  /** Null in a trial (nothing billed at checkout). */
  firstInvoice: (InvoiceAmount & { periodEnd: Date }) | null;
  /** The first payment: a card charge with its gateway verdict (settled here), or a pending Pix. */
  payment:
    | { method: "CARD"; idempotencyKey: string; verdict: Verdict }
    | { method: "PIX"; idempotencyKey: string; chargeId: string; pix: { copyPaste: string; expiresAt: Date } }
    | null;
  events: EventType[];
  now: Date;
}

export async function createCheckoutRecords(runtime: Runtime, r: CheckoutRecords): Promise<void> {
  const wallNow = runtime.wallClock.now();
  const refunds = await runtime.db.prisma.$transaction(async (tx): Promise<SurplusRefund[]> => {
    // The card charge announced before the gateway call becomes this sale's (or is refused: being voided).
    if (r.payment?.method === "CARD") await settleChargeIntent(tx, r.payment.idempotencyKey);
    const customerId = await upsertCheckoutCustomer(tx, { tenantId: r.tenantId, newCustomerId: r.ids.customerId, input: r.input, existing: r.existingCustomer });
    const paymentMethodId = r.card ? newId("paymentMethod") : null;
    if (r.card) {
      await tx.paymentMethod.create({ data: { id: paymentMethodId!, tenantId: r.tenantId, customerId, gatewayAccountId: r.gatewayAccount.id, ...r.card } });
    }
    await tx.subscription.create({
      data: {
        id: r.ids.subscriptionId,
        tenantId: r.tenantId,
        customerId,
        offerId: r.offer.id,
        planId: r.offer.planId,
        status: r.status,
        collectionMethod: r.input.method === "card" ? "CARD_AUTO" : "PIX_MANUAL",
        paymentMethodId,
        currency: r.offer.currency,
        currentPeriodStart: r.period.start,
        currentPeriodEnd: r.period.end,
        anchorDay: r.period.anchorDay,
        trialEndsAt: r.period.trialEndsAt,
        nextBillingAt: r.period.nextBillingAt,
        tracking: (r.input.tracking ?? undefined) as Prisma.InputJsonValue | undefined,
        referralCode: r.input.ref,
      },
    });
    if (r.coupon) await redeemCoupon(tx, r, customerId);
    if (r.firstInvoice) await createFirstInvoice(tx, r, customerId, paymentMethodId);
    const settled = r.payment?.method === "CARD" ? await settleFirstCharge(tx, r, r.payment.verdict, wallNow) : [];
    if (r.payment?.method === "PIX" && r.firstInvoice) await queuePixChargeEmail(tx, { tenantId: r.tenantId, paymentId: r.ids.paymentId, publicUrl: runtime.config.publicUrl, at: r.now });
    await emitSubscriptionEvents(tx, { tenantId: r.tenantId, subscriptionId: r.ids.subscriptionId, types: r.events, at: r.now });
    // Referral (core/referrals): born pending with the subscription; an unusable ref is ignored.
    await recordReferral(tx, { tenantId: r.tenantId, code: r.input.ref, referredCustomerId: customerId, referredSubscriptionId: r.ids.subscriptionId, now: r.now });
    return settled;
  });
  await refundSettledSurplus(runtime, refunds);
}

/**
 * The checkout's card verdict on its first invoice: paid, the subscription activates (its period, the
 * coupon's first cycle, subscription.activated and invoice.paid). Anything else records no sale: the
 * transaction rolls back and the caller gives the charge back.
 */
async function settleFirstCharge(tx: Prisma.TransactionClient, r: CheckoutRecords, verdict: Verdict, wallNow: Date): Promise<SurplusRefund[]> {
  const { results, refunds } = await settlePaymentsInTx(tx, [{ tenantId: r.tenantId, paymentId: r.ids.paymentId, verdict, now: r.now }], wallNow);
  if (results[0] !== "paid") throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
  return refunds;
}

/** The checkout's customer: the one found (gaps filled) or a new one; its id. Subscriptions and orders alike. */
export async function upsertCheckoutCustomer(
  tx: Prisma.TransactionClient,
  r: { tenantId: string; newCustomerId: string; input: CheckoutInput; existing: Customer | null },
): Promise<string> {
  if (r.existing) {
    // Fill what the record lacks; never overwrite what the tenant already manages.
    await tx.customer.update({
      where: { id: r.existing.id },
      data: { phone: r.existing.phone ?? r.input.phone, doc: r.existing.doc ?? r.input.doc },
    });
    return r.existing.id;
  }
  const id = r.newCustomerId;
  await tx.customer.create({
    data: { id, tenantId: r.tenantId, externalId: r.input.externalId ?? id, email: r.input.email, name: r.input.name, phone: r.input.phone, doc: r.input.doc },
  });
  return id;
}

async function redeemCoupon(tx: Prisma.TransactionClient, r: CheckoutRecords, customerId: string): Promise<void> {
  const coupon = r.coupon!;
  // Guarded increment: two last-unit checkouts cannot both redeem.
  const taken = await tx.$executeRaw`
    UPDATE coupons SET redeemed_count = redeemed_count + 1
    WHERE id = ${coupon.id} AND tenant_id = ${r.tenantId} AND (max_redemptions IS NULL OR redeemed_count < max_redemptions)`;
  if (taken !== 1) throw couponRefusal("exhausted");
  // Its first cycle is used up when the first invoice is paid (the settlement), not here.
  await tx.couponRedemption.create({
    data: {
      id: newId("couponRedemption"),
      tenantId: r.tenantId,
      couponId: coupon.id,
      customerId,
      subscriptionId: r.ids.subscriptionId,
      cyclesRemaining: coupon.cycles,
      active: true,
    },
  });
}

async function createFirstInvoice(tx: Prisma.TransactionClient, r: CheckoutRecords, customerId: string, paymentMethodId: string | null) {
  const inv = r.firstInvoice!;
  // Born open and unsettled: a card verdict settles both right after (settleFirstCharge), a Pix its notice.
  await tx.invoice.create({
    data: {
      id: r.ids.invoiceId,
      tenantId: r.tenantId,
      subscriptionId: r.ids.subscriptionId,
      kind: "FIRST",
      periodStart: r.now,
      periodEnd: inv.periodEnd,
      dueAt: r.now,
      amountCents: inv.amountCents,
      discountCents: inv.discountCents,
      currency: r.offer.currency,
      status: "OPEN",
      attemptCount: r.payment ? 1 : 0,
    },
  });
  if (!r.payment) return;
  const pix = r.payment.method === "PIX" ? r.payment : null;
  await tx.payment.create({
    data: {
      id: r.ids.paymentId,
      tenantId: r.tenantId,
      customerId,
      subscriptionId: r.ids.subscriptionId,
      invoiceId: r.ids.invoiceId,
      kind: "RECURRING",
      method: r.payment.method,
      methodKind: r.payment.method === "CARD" ? "credit_card" : "pix",
      amountCents: inv.amountCents,
      currency: r.offer.currency,
      status: "PROCESSING",
      idempotencyKey: r.payment.idempotencyKey,
      gatewayAccountId: r.gatewayAccount.id,
      provider: r.gatewayAccount.provider,
      gatewayChargeId: r.payment.method === "PIX" ? r.payment.chargeId : r.payment.verdict.chargeId,
      paymentMethodId,
      cardBrand: r.card?.brand ?? null,
      cardLast4: r.card?.last4 ?? null,
      pixCopyPaste: pix?.pix.copyPaste ?? null,
      pixExpiresAt: pix?.pix.expiresAt ?? null,
    },
  });
}
