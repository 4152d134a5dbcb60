// The one use case that records a gateway verdict (approved / declined / unknown) on payment attempts:
// any invoice (the checkout's first, renewal, retry, first Pix, /pay), order (checkout card or Pix,
// renewal link), plan-change proration, and the card batch's whole batch at once. In one transaction, under the subscription
// locks: the decision (settlement-decision.ts), then the payment, its invoice or order, the
// subscription and their events, every status through its transition table. Settling twice is a
// no-op ("already_settled"). The money is what the gateway says it received (verdict.amountCents),
// kept on the payment; a surplus (all of it) or an excess over the charge is refunded right after the commit.
import type { Invoice, Order, Payment, Subscription } from "../../generated/prisma/client.ts";
import { INVOICE, ORDER, PAYMENT } from "../../prisma/status-machines.ts";
import type { ChargeOutcome } from "../gateways/gateway-calls.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "../shared/tx.ts";
import { applyOrderPaid } from "../orders/apply-order-paid.ts";
import { EXCESS_ITEM_KIND } from "../payloads/payment-payload.ts";
import { refundSurplusPayment, surplusReason } from "../payments/refund-surplus-payment.ts";
import { newId } from "../shared/ids.ts";
import { moveStatusRows, tryMoveStatus, type SqlType } from "../shared/transition.ts";
import { applyInvoiceFailed, type FailureEffect } from "./apply-invoice-failed.ts";
import { applyInvoicesPaid, type PaidInvoice } from "./apply-invoice-paid.ts";
import { decideSettlement, type SettlementDecision } from "./settlement-decision.ts";
import type { Interval } from "../shared/periods.ts";
import { sqlQuery, sqlExecute } from "../../prisma/direct-sql.ts";
import { selectList } from "../shared/row-columns.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export type Verdict = ChargeOutcome;

export interface Settlement {
  tenantId: string;
  paymentId: string;
  verdict: Verdict;
  /** The tenant's clock. */
  now: Date;
  /** A declined attempt counts in the dunning schedule (default). False: a customer's own try on /pay, a charge the gateway never got. */
  dunning?: boolean;
  /** A live plan change: applied with its proration when approved and the subscription is still as decided. */
  planChange?: {
    expected: Pick<Subscription, "offerId" | "status">;
    apply: (tx: Tx, sub: Subscription, paymentId: string) => Promise<void>;
  };
}

/**
 * surplus: approved money that pays nothing, refunded in full right after: for an invoice or order already
 * settled or closed, a plan change that no longer applies, or less than the charge (the invoice or order stays owed).
 */
export type SettleResult = "paid" | FailureEffect | "already_settled" | "surplus" | "unknown";

/**
 * `record`: written first in the same transaction (an inbound gateway notice's row: a replay aborts it all).
 * `releaseBillingLeases`: the caller's billing pass holds the leases of these payments' subscriptions (the
 * card batch): they are released in the settling transaction, in the same UPDATE that opens a paid period,
 * the others in one statement, instead of in a transaction of their own.
 */
export interface SettleOptions {
  record?: (tx: Tx) => Promise<void>;
  releaseBillingLeases?: boolean;
}

export async function settlePayment(runtime: Runtime, input: Settlement, opts: SettleOptions = {}): Promise<SettleResult> {
  return (await settlePayments(runtime, [input], opts))[0]!;
}

export async function settlePayments(runtime: Runtime, list: Settlement[], opts: SettleOptions = {}): Promise<SettleResult[]> {
  if (list.length === 0) return [];
  const wallNow = runtime.wallClock.now();
  const { results, refunds } = await runtime.db.prisma.$transaction(
    async (tx) => {
      await opts.record?.(tx);
      return settleInTx(tx, list, wallNow, opts.releaseBillingLeases ?? false);
    },
    { timeout: 60_000 },
  );
  runtime.faults?.("after-commit");
  await refundSettledSurplus(runtime, refunds);
  return results;
}

/** What settling inside a caller's transaction leaves to do after its commit: the refunds (refundSettledSurplus). */
export interface SettledInTx {
  results: SettleResult[];
  refunds: SurplusRefund[];
}

/**
 * The same settlement inside the caller's transaction, for a sale recorded together with its first
 * charge (the checkout): the payment is born unsettled and settled here, so the sale commits with
 * its outcome or not at all. `wallNow` stamps updated_at. `born`: the sale's rows as its insert
 * returned them (see BornSale), in `list`'s order. The caller refunds after its commit.
 */
export async function settlePaymentsInTx(tx: Tx, list: Settlement[], wallNow: Date, born?: BornSale[]): Promise<SettledInTx> {
  if (list.length === 0) return { results: [], refunds: [] };
  return settleInTx(tx, list, wallNow, false, born);
}

/** After the settling commit: money that paid nothing (a surplus), or taken over the charge, goes back. */
export async function refundSettledSurplus(runtime: Runtime, refunds: SurplusRefund[]): Promise<void> {
  for (const r of refunds) await refundSurplusPayment(runtime, r);
}

/** What settling reads of a payment, its invoice and its subscription (a batch reads hundreds: only these). */
type PaymentRead = Pick<Payment, "id" | "tenantId" | "status" | "amountCents" | "invoiceId" | "orderId" | "subscriptionId" | "gatewayChargeId" | "refundReason">;
/** A refund of money taken that pays nothing, made after the commit (refund-surplus-payment.ts). */
export type SurplusRefund = { tenantId: string; paymentId: string; now: Date; amountCents: number; reason: string };
type InvoiceRead = Pick<Invoice, "id" | "tenantId" | "status" | "kind" | "periodStart" | "periodEnd" | "discountCents">;
/** What opening a period and dunning read of a subscription (a plan change re-reads its whole row). */
type SubscriptionRead = Pick<
  Subscription,
  "id" | "tenantId" | "status" | "offerId" | "anchorDay" | "collectionMethod" | "lastPaymentId" | "pendingOfferId" | "pendingOfferEffectiveAt" | "pendingKeepCoupon"
>;

interface Row {
  s: Settlement;
  payment: PaymentRead;
  invoice: InvoiceRead | null;
  order: Order | null;
  subscription: SubscriptionRead | null;
  interval: Interval;
  d: SettlementDecision;
}

type PaymentWithInvoice = PaymentRead & { [K in keyof InvoiceRead as `invoice_${K}`]: InvoiceRead[K] | null };

/** What settling reads of a subscription (`s`) and its offer (`o`): the lock statement's list, and the checkout sale's. */
export const settlementSubscriptionColumns = (as = "") =>
  selectList(
    [
      ["id", "s.id"],
      ["tenantId", "s.tenant_id"],
      ["status", "s.status::text"],
      ["offerId", "s.offer_id"],
      ["anchorDay", "s.anchor_day"],
      ["collectionMethod", "s.collection_method::text"],
      ["lastPaymentId", "s.last_payment_id"],
      ["pendingOfferId", "s.pending_offer_id"],
      ["pendingOfferEffectiveAt", "s.pending_offer_effective_at"],
      ["pendingKeepCoupon", "s.pending_keep_coupon"],
      ["interval", "o.interval::text"],
    ],
    as,
  );

/** What settling reads of a payment (`p`) and its invoice (`i`, left-joined). */
export const settlementPaymentColumns = (as = "") =>
  selectList(
    [
      ["id", "p.id"],
      ["tenantId", "p.tenant_id"],
      ["status", "p.status::text"],
      ["amountCents", "p.amount_cents"],
      ["invoiceId", "p.invoice_id"],
      ["orderId", "p.order_id"],
      ["subscriptionId", "p.subscription_id"],
      ["gatewayChargeId", "p.gateway_charge_id"],
      ["refundReason", "p.refund_reason"],
      ["invoice_id", "i.id"],
      ["invoice_tenantId", "i.tenant_id"],
      ["invoice_status", "i.status::text"],
      ["invoice_kind", "i.kind::text"],
      ["invoice_periodStart", "i.period_start"],
      ["invoice_periodEnd", "i.period_end"],
      ["invoice_discountCents", "i.discount_cents"],
    ],
    as,
  );

export type SettlementSubscriptionRow = SubscriptionRead & { interval: Interval | null };
export type SettlementPaymentRow = PaymentWithInvoice;

/**
 * A sale's subscription and payment (with its invoice) as the statement that wrote them in this very
 * transaction answered them, read with the columns above. Nobody else sees uncommitted rows, so there
 * is nothing to lock or read again; and a subscription born here has no referral yet (the checkout
 * records it afterwards, and that qualifies it).
 */
export interface BornSale {
  subscription: SettlementSubscriptionRow;
  payment: SettlementPaymentRow;
}

const LOCK_SUBSCRIPTIONS = `
    SELECT ${settlementSubscriptionColumns()}
    FROM subscriptions s JOIN offers o ON o.id = s.offer_id
    WHERE s.id IN (SELECT p.subscription_id FROM payments p WHERE p.id = ANY($1::text[]))
    ORDER BY s.id FOR UPDATE OF s`;
const READ_PAYMENTS = `
    SELECT ${settlementPaymentColumns()}
    FROM payments p LEFT JOIN invoices i ON i.id = p.invoice_id AND i.tenant_id = p.tenant_id
    WHERE p.id = ANY($1::text[])`;

async function settleInTx(tx: Tx, list: Settlement[], wallNow: Date, releaseLeases: boolean, born?: BornSale[]): Promise<{ results: SettleResult[]; refunds: SurplusRefund[] }> {
  const results: SettleResult[] = list.map(() => "already_settled");
  const ids = list.map((s) => s.paymentId);
  // The subscriptions first, in id order (the order every subscription action locks in), found through
  // their payments; FOR UPDATE hands back each row as last committed, so this one statement is also the
  // read of the subscriptions. Plain SQL: a batch's reads through Prisma cost more CPU than the batch's writes.
  const locked = born ? born.map((b) => b.subscription) : await sqlQuery<SettlementSubscriptionRow>(tx, LOCK_SUBSCRIPTIONS, [ids]);
  const subIds = locked.map((l) => l.id);
  // Then the payments and their invoices, under the lock.
  const read = born ? born.map((b) => b.payment) : await sqlQuery<PaymentWithInvoice>(tx, READ_PAYMENTS, [ids]);
  const payments: PaymentRead[] = read.map((r) => ({
    id: r.id, tenantId: r.tenantId, status: r.status, amountCents: r.amountCents, invoiceId: r.invoiceId, orderId: r.orderId,
    subscriptionId: r.subscriptionId, gatewayChargeId: r.gatewayChargeId, refundReason: r.refundReason,
  }));
  const invoices: InvoiceRead[] = read.flatMap((r) =>
    r.invoice_id
      ? [{ id: r.invoice_id, tenantId: r.invoice_tenantId!, status: r.invoice_status!, kind: r.invoice_kind!, periodStart: r.invoice_periodStart!, periodEnd: r.invoice_periodEnd!, discountCents: r.invoice_discountCents! }]
      : [],
  );
  const orderIds = payments.flatMap((p) => (p.orderId ? [p.orderId] : []));
  const orders = orderIds.length ? await tx.order.findMany({ where: { id: { in: orderIds } } }) : [];
  const intervalOf = new Map(locked.map((l) => [l.id, l.interval ?? "MONTH"]));
  const subscriptions: SubscriptionRead[] = locked.map(({ interval: _interval, ...sub }) => sub);
  const paymentById = new Map(payments.map((p) => [p.id, p]));
  const invoiceById = new Map(invoices.map((i) => [i.id, i]));
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const subscriptionById = new Map(subscriptions.map((x) => [x.id, x]));
  const rows: (Row | null)[] = list.map((s) => {
    const payment = paymentById.get(s.paymentId);
    if (!payment || payment.tenantId !== s.tenantId) return null;
    const invoice = (payment.invoiceId && invoiceById.get(payment.invoiceId)) || null;
    const order = (payment.orderId && orderById.get(payment.orderId)) || null;
    const subscription = (payment.subscriptionId && subscriptionById.get(payment.subscriptionId)) || null;
    const d = decideSettlement({
      payment,
      receivedCents: s.verdict.outcome === "approved" ? s.verdict.amountCents : null,
      invoice,
      order,
      subscription,
      outcome: s.verdict.outcome,
      dunning: s.dunning ?? true,
      planChange: s.planChange?.expected ?? null,
    });
    return { s, payment, invoice, order, subscription, interval: (subscription && intervalOf.get(subscription.id)) || "MONTH", d };
  });
  // A paid charge is its item (and the excess taken over it, its own item, the one its refund goes to);
  // a surplus is all the money received. Written by the statement that moves the payments, for those that moved.
  const item = (r: Row, kind: string, amountCents: number) => ({ id: newId("paymentItem"), tenantId: r.payment.tenantId, paymentId: r.payment.id, kind, amountCents });
  const settled = rows.filter((r): r is Row => r !== null);
  const items = settled.flatMap((r) =>
    r.d.result === "paid"
      ? [item(r, r.d.item, r.payment.amountCents), ...(r.d.excessCents > 0 ? [item(r, EXCESS_ITEM_KIND, r.d.excessCents)] : [])]
      : r.d.result === "surplus"
        ? [item(r, r.d.item, r.d.receivedCents)]
        : [],
  );
  // The payments first: the conditional UPDATE is the claim. One settled meanwhile is left alone.
  const moved = new Set(await movePayments(tx, settled, items));
  const done = rows.map((r) => (r && (moved.has(r.payment.id) || (r.d.result === "unknown" && !r.d.mark)) ? r : null));
  await moveStatusRows(tx, INVOICE, {
    to: "VOID",
    rows: done.flatMap((r) => (r && "voidInvoice" in r.d && r.d.voidInvoice && r.invoice ? [{ id: r.invoice.id, tenantId: r.invoice.tenantId }] : [])),
  });
  const paidInvoices = done.filter((r): r is Row => r?.d.result === "paid" && r.invoice !== null);
  const invoicesMoved = await moveStatusRows(tx, INVOICE, {
    to: "PAID",
    columns: { paid_at: "timestamp" },
    rows: paidInvoices.map((r) => ({ id: r.invoice!.id, tenantId: r.invoice!.tenantId, values: { paid_at: r.s.now } })),
  });
  if (invoicesMoved.length !== paidInvoices.length) throw new Error("an invoice read open under the lock did not move to paid");
  // What each paid invoice or order opens: periods (in bulk), plan changes, orders.
  const opened: PaidInvoice[] = [];
  for (const r of paidInvoices) {
    if (r.d.result !== "paid") continue;
    if (r.d.then === "invoice" && r.subscription) {
      opened.push({ subscription: r.subscription, interval: r.interval, invoice: r.invoice!, paymentId: r.payment.id, now: r.s.now });
    }
    if (r.d.then === "plan_change" && r.subscription) {
      await r.s.planChange!.apply(tx, await tx.subscription.findUniqueOrThrow({ where: { id: r.subscription.id } }), r.payment.id);
    }
  }
  const reopened = await applyInvoicesPaid(tx, opened, wallNow, { releaseLease: releaseLeases, bornHere: born !== undefined });
  for (const [i, r] of done.entries()) {
    if (!r) continue;
    results[i] = await follow(tx, r, wallNow);
  }
  if (releaseLeases) {
    const rest = subIds.filter((id) => !reopened.has(id));
    if (rest.length) await sqlExecute(tx, Prisma.sql`UPDATE subscriptions SET billing_lease_until = NULL WHERE id = ANY(${rest}::text[])`);
  }
  const refunds = done.flatMap((r): SurplusRefund[] => {
    const refund = r && refundOf(r);
    return r && refund ? [{ tenantId: r.s.tenantId, paymentId: r.payment.id, now: r.s.now, ...refund }] : [];
  });
  return { results, refunds };
}

/** What a settled row gives back at once: all it received (a surplus), or what it received over the charge. */
function refundOf(r: Row): { amountCents: number; reason: string } | null {
  const { d, payment } = r;
  if (d.result === "surplus") return { amountCents: d.receivedCents, reason: surplusReason(d.why, d.receivedCents, payment.amountCents) };
  if (d.result === "paid" && d.excessCents > 0) return { amountCents: d.excessCents, reason: surplusReason("overpaid", d.receivedCents, payment.amountCents) };
  return null;
}

/** The order's side and the dunning side, row by row (rare in a batch: declines, orders). */
const COUNT_FAILED_ATTEMPT = `UPDATE invoices SET attempt_count = attempt_count + 1 WHERE id = $1 RETURNING due_at AS "dueAt", attempt_count AS "attemptCount"`;

async function follow(tx: Tx, r: Row, wallNow: Date): Promise<SettleResult> {
  const { d, payment, s } = r;
  switch (d.result) {
    case "already_settled":
      return "already_settled";
    case "unknown":
      return "unknown";
    case "surplus":
      return "surplus";
    case "paid":
      // An order payment (checkout Pix, renewal link; card or Pix): the order, what it delivers and order.paid.
      if (d.then === "order") await applyOrderPaid(tx, { payment, now: s.now });
      return "paid";
    case "failed":
      if (d.cancelOrder && r.order) await tryMoveStatus(tx, ORDER, { id: r.order.id, tenantId: r.order.tenantId, to: "CANCELED" });
      if (!d.dunning || !r.invoice || !r.subscription) return "none";
      {
        const [updated] = await sqlQuery<{ dueAt: Date; attemptCount: number }>(tx, COUNT_FAILED_ATTEMPT, [r.invoice.id]);
        return applyInvoiceFailed(tx, { subscription: r.subscription, invoice: updated!, attemptsMade: updated!.attemptCount, now: s.now, wallNow });
      }
  }
}

const PAID_COLUMNS: Record<string, SqlType> = {
  paid_at: "timestamp",
  gateway_charge_id: "text",
  paid_invoice_id: "text",
  amount_received_cents: "integer",
  failure_code: "text",
  refund_in_flight: "boolean",
  refund_reason: "text",
};

/**
 * One conditional UPDATE per target status (paid, failed, unknown) for every row; the ids that moved.
 * The paid ones' items are inserted by the same statement, for the payments that moved.
 */
async function movePayments(tx: Tx, rows: Row[], items: { id: string; tenantId: string; paymentId: string; kind: string; amountCents: number }[]): Promise<string[]> {
  const key = (r: Row) => ({ id: r.payment.id, tenantId: r.payment.tenantId });
  const chargeId = (r: Row) => (r.s.verdict.outcome === "unknown" ? r.payment.gatewayChargeId : r.s.verdict.chargeId);
  const paid = rows.filter((r) => r.d.result === "paid" || r.d.result === "surplus");
  const failed = rows.filter((r) => r.d.result === "failed");
  const unknown = rows.filter((r) => r.d.result === "unknown" && r.d.mark);
  return [
    ...(await moveStatusRows(tx, PAYMENT, {
      to: "PAID",
      columns: PAID_COLUMNS,
      withMoved: items.length
        ? Prisma.sql`INSERT INTO payment_items (id, tenant_id, payment_id, kind, amount_cents)
            SELECT * FROM unnest(${items.map((i) => i.id)}::text[], ${items.map((i) => i.tenantId)}::text[], ${items.map((i) => i.paymentId)}::text[],
                                 ${items.map((i) => i.kind)}::text[], ${items.map((i) => i.amountCents)}::int[]) AS n(id, tenant_id, payment_id, kind, amount_cents)
             WHERE n.payment_id IN (SELECT id FROM moved)`
        : undefined,
      rows: paid.map((r) => {
        // Surplus: the money is recorded, kept off the invoice, and refunded. paid_invoice_id is UNIQUE:
        // the database refuses a second successful charge of one invoice. An excess is refunded too.
        const d = r.d as Extract<SettlementDecision, { result: "paid" | "surplus" }>;
        const surplus = d.result === "surplus";
        const refund = refundOf(r);
        return {
          ...key(r),
          values: {
            paid_at: r.s.now,
            gateway_charge_id: chargeId(r),
            paid_invoice_id: surplus ? null : r.payment.invoiceId,
            amount_received_cents: d.receivedCents,
            failure_code: "",
            refund_in_flight: refund !== null,
            refund_reason: refund ? refund.reason : r.payment.refundReason,
          },
        };
      }),
    })),
    ...(await moveStatusRows(tx, PAYMENT, {
      to: "FAILED",
      columns: { gateway_charge_id: "text", failure_code: "text" },
      rows: failed.map((r) => ({ ...key(r), values: { gateway_charge_id: chargeId(r), failure_code: r.s.verdict.detailCode || "declined" } })),
    })),
    ...(await moveStatusRows(tx, PAYMENT, { to: "UNKNOWN", rows: unknown.map(key) })),
  ];
}
