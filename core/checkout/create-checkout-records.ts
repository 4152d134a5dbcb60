// The one transaction that gives birth to a subscription: customer (new or found), saved card, the
// subscription, its first invoice and payment, the coupon redemption and the outbox events.
import { settleChargeIntent } from "./checkout-charge-intent.ts";
import type { Coupon, Customer, Prisma, SubscriptionStatus } from "../../generated/prisma/client.ts";
import type { EventType } from "../events/event-types.ts";
import type { Runtime } from "../runtime.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { newId } from "../shared/ids.ts";
import type { InvoiceAmount } from "../shared/invoice-amount.ts";
import { afterDiscountedCycle } from "../shared/next-charge.ts";
import { recordReferral } from "../referrals/record-referral.ts";
import type { CheckoutInput } from "./checkout-input.ts";
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
  firstInvoice: (InvoiceAmount & { periodEnd: Date; paid: boolean }) | null;
  /** The first payment: a settled card charge or a pending Pix. */
  payment: { method: "CARD" | "PIX"; idempotencyKey: string; chargeId: string; pix: { copyPaste: string; expiresAt: Date } | null } | null;
  events: EventType[];
  now: Date;
}

export async function createCheckoutRecords(runtime: Runtime, r: CheckoutRecords): Promise<void> {
  await runtime.db.prisma.$transaction(async (tx) => {
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
        paidCycles: r.firstInvoice?.paid ? 1 : 0,
      },
    });
    if (r.coupon) await redeemCoupon(tx, r, customerId);
    if (r.firstInvoice) await createFirstInvoice(tx, r, customerId, paymentMethodId);
    if (r.firstInvoice?.paid && r.payment) {
      await tx.subscription.update({ where: { id: r.ids.subscriptionId }, data: { lastPaymentId: r.ids.paymentId } });
    }
    await emitSubscriptionEvents(tx, { tenantId: r.tenantId, subscriptionId: r.ids.subscriptionId, types: r.events, at: r.now });
    // Referral (core/referrals): born pending with the subscription; an unusable ref is ignored.
    await recordReferral(tx, { tenantId: r.tenantId, code: r.input.ref, referredCustomerId: customerId, referredSubscriptionId: r.ids.subscriptionId, now: r.now });
  });
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
  // A first invoice paid with the discount uses up the coupon's first cycle.
  const usedNow = r.firstInvoice?.paid && r.firstInvoice.discountCents > 0;
  const { cyclesRemaining: left, active } = usedNow ? afterDiscountedCycle(coupon.cycles) : { cyclesRemaining: coupon.cycles, active: true };
  await tx.couponRedemption.create({
    data: {
      id: newId("couponRedemption"),
      tenantId: r.tenantId,
      couponId: coupon.id,
      customerId,
      subscriptionId: r.ids.subscriptionId,
      cyclesRemaining: left,
      active,
    },
  });
}

async function createFirstInvoice(tx: Prisma.TransactionClient, r: CheckoutRecords, customerId: string, paymentMethodId: string | null) {
  const inv = r.firstInvoice!;
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
      status: inv.paid ? "PAID" : "OPEN",
      paidAt: inv.paid ? r.now : null,
      attemptCount: r.payment ? 1 : 0,
    },
  });
  if (!r.payment) return;
  const paid = inv.paid;
  await tx.payment.create({
    data: {
      id: r.ids.paymentId,
      tenantId: r.tenantId,
      customerId,
      subscriptionId: r.ids.subscriptionId,
      invoiceId: r.ids.invoiceId,
      paidInvoiceId: paid ? r.ids.invoiceId : null,
      kind: "RECURRING",
      method: r.payment.method,
      methodKind: r.payment.method === "CARD" ? "credit_card" : "pix",
      amountCents: inv.amountCents,
      currency: r.offer.currency,
      status: paid ? "PAID" : "PROCESSING",
      idempotencyKey: r.payment.idempotencyKey,
      gatewayAccountId: r.gatewayAccount.id,
      provider: r.gatewayAccount.provider,
      gatewayChargeId: r.payment.chargeId,
      paymentMethodId,
      cardBrand: r.card?.brand ?? null,
      cardLast4: r.card?.last4 ?? null,
      pixCopyPaste: r.payment.pix?.copyPaste ?? null,
      pixExpiresAt: r.payment.pix?.expiresAt ?? null,
      paidAt: paid ? r.now : null,
      items: paid ? { create: [{ id: newId("paymentItem"), tenantId: r.tenantId, kind: "plan", amountCents: inv.amountCents }] } : undefined,
    },
  });
}
