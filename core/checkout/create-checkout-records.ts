// The one transaction that gives birth to a subscription: customer (new or found), saved card, the
// subscription, its first invoice and payment, the coupon redemption and the outbox events. A card
// charged at checkout is settled in the same transaction by the one settlement (settle-payment.ts):
// the subscription is born waiting for its first payment and the approved verdict activates it.
import { settleChargeIntent } from "./checkout-charge-intent.ts";
import { Prisma, type Coupon, type Customer, type SubscriptionStatus } from "../../generated/prisma/client.ts";
import type { Tx } from "../shared/tx.ts";
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
import { sqlExecute } from "../../prisma/direct-sql.ts";

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

// The sale's rows, written as plain statements on the transaction's connection: through Prisma's
// compiler each insert cost more CPU than the rest of the checkout together (prisma/direct-sql.ts).
const INSERT_PAYMENT_METHOD = `
  INSERT INTO payment_methods (id, tenant_id, customer_id, gateway_account_id, token, brand, last4, exp_month, exp_year, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
const INSERT_SUBSCRIPTION = `
  INSERT INTO subscriptions (id, tenant_id, customer_id, offer_id, plan_id, status, collection_method, payment_method_id, currency,
    current_period_start, current_period_end, anchor_day, trial_ends_at, next_billing_at, tracking, referral_code, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6::text::"SubscriptionStatus", $7::text::"CollectionMethod", $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16, $17, $17)`;
const INSERT_INVOICE = `
  INSERT INTO invoices (id, tenant_id, subscription_id, kind, period_start, period_end, due_at, amount_cents, discount_cents, currency, status, attempt_count, created_at)
  VALUES ($1, $2, $3, 'FIRST', $4, $5, $4, $6, $7, $8, 'OPEN', $9, $10)`;
const INSERT_PAYMENT = `
  INSERT INTO payments (id, tenant_id, customer_id, subscription_id, invoice_id, kind, method, method_kind, amount_cents, currency, status,
    idempotency_key, gateway_account_id, provider, gateway_charge_id, payment_method_id, card_brand, card_last4, pix_copy_paste, pix_expires_at, created_at)
  VALUES ($1, $2, $3, $4, $5, 'RECURRING', $6::text::"PaymentMethodType", $7, $8, $9, 'PROCESSING', $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`;
const INSERT_CUSTOMER = `
  INSERT INTO customers (id, tenant_id, external_id, email, name, phone, doc, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`;
const FILL_CUSTOMER = `UPDATE customers SET phone = $2, doc = $3, updated_at = $4 WHERE id = $1`;

export async function createCheckoutRecords(runtime: Runtime, r: CheckoutRecords): Promise<void> {
  const wallNow = runtime.wallClock.now();
  const refunds = await runtime.db.prisma.$transaction(async (tx): Promise<SurplusRefund[]> => {
    // The card charge announced before the gateway call becomes this sale's (or is refused: being voided).
    if (r.payment?.method === "CARD") await settleChargeIntent(tx, r.payment.idempotencyKey);
    const customerId = await upsertCheckoutCustomer(tx, { tenantId: r.tenantId, newCustomerId: r.ids.customerId, input: r.input, existing: r.existingCustomer, at: wallNow });
    const paymentMethodId = r.card ? newId("paymentMethod") : null;
    if (r.card) {
      const c = r.card;
      await sqlExecute(tx, INSERT_PAYMENT_METHOD, [paymentMethodId, r.tenantId, customerId, r.gatewayAccount.id, c.token, c.brand, c.last4, c.expMonth, c.expYear, wallNow]);
    }
    await sqlExecute(tx, INSERT_SUBSCRIPTION, [
      r.ids.subscriptionId,
      r.tenantId,
      customerId,
      r.offer.id,
      r.offer.planId,
      r.status,
      r.input.method === "card" ? "CARD_AUTO" : "PIX_MANUAL",
      paymentMethodId,
      r.offer.currency,
      r.period.start,
      r.period.end,
      r.period.anchorDay,
      r.period.trialEndsAt,
      r.period.nextBillingAt,
      r.input.tracking ? JSON.stringify(r.input.tracking) : null,
      r.input.ref ?? null,
      wallNow,
    ]);
    if (r.coupon) await redeemCoupon(tx, r, customerId);
    if (r.firstInvoice) await createFirstInvoice(tx, r, customerId, paymentMethodId, wallNow);
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
  r: { tenantId: string; newCustomerId: string; input: CheckoutInput; existing: Customer | null; /** Wall clock, for created_at/updated_at. */ at: Date },
): Promise<string> {
  if (r.existing) {
    // Fill what the record lacks; never overwrite what the tenant already manages.
    await sqlExecute(tx, FILL_CUSTOMER, [r.existing.id, r.existing.phone ?? r.input.phone ?? null, r.existing.doc ?? r.input.doc ?? null, r.at]);
    return r.existing.id;
  }
  const id = r.newCustomerId;
  await sqlExecute(tx, INSERT_CUSTOMER, [id, r.tenantId, r.input.externalId ?? id, r.input.email, r.input.name, r.input.phone ?? null, r.input.doc ?? null, r.at]);
  return id;
}

async function redeemCoupon(tx: Prisma.TransactionClient, r: CheckoutRecords, customerId: string): Promise<void> {
  const coupon = r.coupon!;
  // Guarded increment: two last-unit checkouts cannot both redeem.
  const taken = await sqlExecute(tx, Prisma.sql`
    UPDATE coupons SET redeemed_count = redeemed_count + 1
    WHERE id = ${coupon.id} AND tenant_id = ${r.tenantId} AND (max_redemptions IS NULL OR redeemed_count < max_redemptions)`);
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

async function createFirstInvoice(tx: Tx, r: CheckoutRecords, customerId: string, paymentMethodId: string | null, wallNow: Date) {
  const inv = r.firstInvoice!;
  // Born open and unsettled: a card verdict settles both right after (settleFirstCharge), a Pix its notice.
  await sqlExecute(tx, INSERT_INVOICE, [r.ids.invoiceId, r.tenantId, r.ids.subscriptionId, r.now, inv.periodEnd, inv.amountCents, inv.discountCents, r.offer.currency, r.payment ? 1 : 0, wallNow]);
  if (!r.payment) return;
  const pix = r.payment.method === "PIX" ? r.payment : null;
  await sqlExecute(tx, INSERT_PAYMENT, [
    r.ids.paymentId,
    r.tenantId,
    customerId,
    r.ids.subscriptionId,
    r.ids.invoiceId,
    r.payment.method,
    r.payment.method === "CARD" ? "credit_card" : "pix",
    inv.amountCents,
    r.offer.currency,
    r.payment.idempotencyKey,
    r.gatewayAccount.id,
    r.gatewayAccount.provider,
    r.payment.method === "PIX" ? r.payment.chargeId : r.payment.verdict.chargeId,
    paymentMethodId,
    r.card?.brand ?? null,
    r.card?.last4 ?? null,
    pix?.pix.copyPaste ?? null,
    pix?.pix.expiresAt ?? null,
    wallNow,
  ]);
}
