// The one transaction that gives birth to a subscription: customer (new or found), saved card, the
// subscription, its first invoice and payment, the coupon redemption and the outbox events. A card
// charged at checkout is settled in the same transaction by the one settlement (settle-payment.ts):
// the subscription is born waiting for its first payment and the approved verdict activates it.
import { Prisma, type Coupon, type Customer, type SubscriptionStatus } from "../../generated/prisma/client.ts";
import type { Tx } from "../shared/tx.ts";
import type { EventType } from "../events/event-types.ts";
import type { Runtime } from "../runtime.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { newId } from "../shared/ids.ts";
import type { InvoiceAmount } from "../shared/invoice-amount.ts";
import {
  refundSettledSurplus,
  settlementPaymentColumns,
  settlementSubscriptionColumns,
  settlePaymentsInTx,
  type BornSale,
  type SettlementPaymentRow,
  type SettlementSubscriptionRow,
  type SurplusRefund,
  type Verdict,
} from "../billing/settle-payment.ts";
import { pickRow } from "../shared/row-columns.ts";
import { recordReferral } from "../referrals/record-referral.ts";
import { queuePixChargeEmail } from "../emails/queue-pix-charge-email.ts";
import type { CheckoutInput } from "./checkout-input.ts";
import { fieldError } from "./checkout-guards.ts";
import { couponRefusal } from "./refusal-texts.ts";
import { sqlExecute, sqlQuery } from "../../prisma/direct-sql.ts";

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

// The sale's rows go in as one statement on the transaction's connection (data-modifying CTEs; foreign
// keys are checked at its end): through Prisma's compiler each insert cost more CPU than the rest of the
// checkout, and each statement is a round trip (prisma/direct-sql.ts).
export async function createCheckoutRecords(runtime: Runtime, r: CheckoutRecords): Promise<void> {
  const wallNow = runtime.wallClock.now();
  const refunds = await runtime.db.prisma.$transaction(async (tx): Promise<SurplusRefund[]> => {
    const { customerId, born } = await writeSaleRows(tx, r, wallNow);
    if (r.coupon) await redeemCoupon(tx, r, customerId);
    const settled = r.payment?.method === "CARD" ? await settleFirstCharge(tx, r, r.payment.verdict, wallNow, born) : [];
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
async function settleFirstCharge(tx: Prisma.TransactionClient, r: CheckoutRecords, verdict: Verdict, wallNow: Date, born: BornSale | null): Promise<SurplusRefund[]> {
  const { results, refunds } = await settlePaymentsInTx(tx, [{ tenantId: r.tenantId, paymentId: r.ids.paymentId, verdict, now: r.now }], wallNow, born ? [born] : undefined);
  if (results[0] !== "paid") throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
  return refunds;
}

type CustomerInput = { tenantId: string; newCustomerId: string; input: CheckoutInput; existing: Customer | null; /** Wall clock, for created_at/updated_at. */ at: Date };

/** The checkout's customer: the one found (gaps filled) or a new one; its id. Subscriptions and orders alike. */
export async function upsertCheckoutCustomer(tx: Tx, r: CustomerInput): Promise<string> {
  const write = customerWrite(r);
  await sqlExecute(tx, write.sql);
  return write.id;
}

/** The statement that writes the checkout's customer, and its id. */
function customerWrite(r: CustomerInput): { id: string; sql: Prisma.Sql } {
  if (r.existing) {
    // Fill what the record lacks; never overwrite what the tenant already manages.
    const e = r.existing;
    return { id: e.id, sql: Prisma.sql`UPDATE customers SET phone = ${e.phone ?? r.input.phone ?? null}::text, doc = ${e.doc ?? r.input.doc ?? null}::text, updated_at = ${r.at}::timestamp(3) WHERE id = ${e.id}` };
  }
  const id = r.newCustomerId;
  return {
    id,
    sql: Prisma.sql`INSERT INTO customers (id, tenant_id, external_id, email, name, phone, doc, created_at, updated_at)
      VALUES (${id}, ${r.tenantId}, ${r.input.externalId ?? id}, ${r.input.email}, ${r.input.name}, ${r.input.phone ?? null}::text, ${r.input.doc ?? null}::text, ${r.at}::timestamp(3), ${r.at}::timestamp(3))`,
  };
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

/**
 * The customer (new, or found with its gaps filled), the saved card, the subscription, its first invoice
 * and payment, in one statement. A card charge announced before the gateway call becomes this sale's in
 * the same statement, or the sale is refused (the reconcile job is voiding it): the caller's catch refunds.
 */
async function writeSaleRows(tx: Tx, r: CheckoutRecords, wallNow: Date): Promise<{ customerId: string; born: BornSale | null }> {
  const customer = customerWrite({ tenantId: r.tenantId, newCustomerId: r.ids.customerId, input: r.input, existing: r.existingCustomer, at: wallNow });
  const paymentMethodId = r.card ? newId("paymentMethod") : null;
  const steps: Prisma.Sql[] = [];
  const owns = r.payment?.method === "CARD";
  if (r.payment?.method === "CARD") {
    steps.push(Prisma.sql`intent AS (DELETE FROM checkout_charge_intents WHERE idempotency_key = ${r.payment.idempotencyKey} AND voiding_at IS NULL RETURNING 1)`);
  }
  steps.push(Prisma.sql`customer AS (${customer.sql})`);
  if (r.card) {
    const c = r.card;
    steps.push(Prisma.sql`card AS (INSERT INTO payment_methods (id, tenant_id, customer_id, gateway_account_id, token, brand, last4, exp_month, exp_year, created_at)
      VALUES (${paymentMethodId}, ${r.tenantId}, ${customer.id}, ${r.gatewayAccount.id}, ${c.token}, ${c.brand}, ${c.last4}, ${c.expMonth}::int, ${c.expYear}::int, ${wallNow}::timestamp(3)))`);
  }
  steps.push(Prisma.sql`subscription AS (INSERT INTO subscriptions (id, tenant_id, customer_id, offer_id, plan_id, status, collection_method, payment_method_id, currency,
      current_period_start, current_period_end, anchor_day, trial_ends_at, next_billing_at, tracking, referral_code, created_at, updated_at)
    VALUES (${r.ids.subscriptionId}, ${r.tenantId}, ${customer.id}, ${r.offer.id}, ${r.offer.planId}, ${r.status}::text::"SubscriptionStatus",
      ${r.input.method === "card" ? "CARD_AUTO" : "PIX_MANUAL"}::text::"CollectionMethod", ${paymentMethodId}::text, ${r.offer.currency},
      ${r.period.start}::timestamp(3), ${r.period.end}::timestamp(3), ${r.period.anchorDay}::int, ${r.period.trialEndsAt}::timestamp(3), ${r.period.nextBillingAt}::timestamp(3),
      ${r.input.tracking ? JSON.stringify(r.input.tracking) : null}::jsonb, ${r.input.ref ?? null}::text, ${wallNow}::timestamp(3), ${wallNow}::timestamp(3))
    RETURNING *)`);
  const inv = r.firstInvoice;
  if (inv) {
    // Born open and unsettled: a card verdict settles both right after (settleFirstCharge), a Pix its notice.
    steps.push(Prisma.sql`invoice AS (INSERT INTO invoices (id, tenant_id, subscription_id, kind, period_start, period_end, due_at, amount_cents, discount_cents, currency, status, attempt_count, created_at)
      VALUES (${r.ids.invoiceId}, ${r.tenantId}, ${r.ids.subscriptionId}, 'FIRST', ${r.now}::timestamp(3), ${inv.periodEnd}::timestamp(3), ${r.now}::timestamp(3),
        ${inv.amountCents}::int, ${inv.discountCents}::int, ${r.offer.currency}, 'OPEN', ${r.payment ? 1 : 0}::int, ${wallNow}::timestamp(3))
      RETURNING *)`);
  }
  if (inv && r.payment) {
    const pix = r.payment.method === "PIX" ? r.payment : null;
    steps.push(Prisma.sql`payment AS (INSERT INTO payments (id, tenant_id, customer_id, subscription_id, invoice_id, kind, method, method_kind, amount_cents, currency, status,
        idempotency_key, gateway_account_id, provider, gateway_charge_id, payment_method_id, card_brand, card_last4, pix_copy_paste, pix_expires_at, created_at)
      VALUES (${r.ids.paymentId}, ${r.tenantId}, ${customer.id}, ${r.ids.subscriptionId}, ${r.ids.invoiceId}, 'RECURRING', ${r.payment.method}::text::"PaymentMethodType",
        ${r.payment.method === "CARD" ? "credit_card" : "pix"}, ${inv.amountCents}::int, ${r.offer.currency}, 'PROCESSING', ${r.payment.idempotencyKey},
        ${r.gatewayAccount.id}, ${r.gatewayAccount.provider}, ${r.payment.method === "PIX" ? r.payment.chargeId : r.payment.verdict.chargeId},
        ${paymentMethodId}::text, ${r.card?.brand ?? null}::text, ${r.card?.last4 ?? null}::text, ${pix?.pix.copyPaste ?? null}::text, ${pix?.pix.expiresAt ?? null}::timestamp(3), ${wallNow}::timestamp(3))
      RETURNING *)`);
  }
  // A card sale is settled right after: its rows come back as the settlement reads them (BornSale).
  const settlesNow = owns && inv !== null;
  const owned = owns ? Prisma.sql`(SELECT count(*)::int FROM intent)` : Prisma.sql`1`;
  const [row] = await sqlQuery<{ owned: number } & Record<string, unknown>>(
    tx,
    settlesNow
      ? Prisma.sql`WITH ${Prisma.join(steps, ", ")}
          SELECT ${owned} AS owned, ${Prisma.raw(settlementSubscriptionColumns("s_"))}, ${Prisma.raw(settlementPaymentColumns("p_"))}
            FROM subscription s JOIN offers o ON o.id = s.offer_id, payment p LEFT JOIN invoice i ON i.id = p.invoice_id`
      : Prisma.sql`WITH ${Prisma.join(steps, ", ")} SELECT ${owned} AS owned`,
  );
  if (row?.owned !== 1) throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
  const subscription = settlesNow ? pickRow<SettlementSubscriptionRow>(row, "s_") : null;
  const payment = settlesNow ? pickRow<SettlementPaymentRow>(row, "p_") : null;
  return { customerId: customer.id, born: subscription && payment ? { subscription, payment } : null };
}
