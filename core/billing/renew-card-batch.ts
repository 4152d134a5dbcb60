// The billing run's fast path for its most common duty: plain card renewals of a claimed batch,
// set-wise (one read, one insert statement, the gateway calls, then every verdict through the one
// settlement, settlePayments, in one transaction) instead of a round of statements per subscription. Anything unusual
// (coupon-free cycles, late runs, existing invoices, scheduled changes) is left to the one-by-one duties.
import { Prisma } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { chargeCard, type ChargeOutcome } from "../gateways/gateway-calls.ts";
import { logGatewayEvents, type GatewayEventInput } from "../gateways/log-gateway-event.ts";
import { capabilitiesSchema } from "../gateways/capabilities.ts";
import { newId } from "../shared/ids.ts";
import { cents } from "../shared/money.ts";
import { invoiceAmount } from "../shared/invoice-amount.ts";
import { periodEnd, type Interval } from "../shared/periods.ts";
import { attemptPaymentRow, cycleInvoiceRow, type AttemptPaymentRow, type CycleInvoiceRow } from "./build-renewal-rows.ts";
import type { ClaimedSubscription } from "./claim-due-subscriptions.ts";
import { chargeOutcome, type DutyOutcome } from "./process-due-subscription.ts";
import { settlePayments } from "./settle-payment.ts";
import { sqlQuery, sqlExecute, type SqlClient } from "../../prisma/direct-sql.ts";

interface Candidate {
  id: string;
  tenant_id: string;
  customer_id: string;
  current_period_end: Date;
  anchor_day: number | null;
  currency: string;
  interval: Interval;
  price_cents: number;
  account_id: string;
  provider: string;
  capabilities: unknown;
  pm_id: string;
  token: string;
  brand: string;
  last4: string;
  redemption_id: string | null;
  cycles_remaining: number | null;
  percent_off: number | null;
  amount_off_cents: number | null;
}

interface Renewal {
  c: Candidate;
  now: Date;
  /** The rows the duty would write one by one, built by the same functions (build-renewal-rows.ts). */
  invoice: CycleInvoiceRow;
  payment: AttemptPaymentRow;
  result?: ChargeOutcome;
}

export interface BatchResult {
  handled: Set<string>;
  /** Ids that made no progress (unknown outcome, errors): not claimed again this pass. */
  stuck: string[];
  summary: Partial<Record<DutyOutcome | "errors", number>>;
}

export async function renewCardBatch(runtime: Runtime, items: ClaimedSubscription[], concurrency: number): Promise<BatchResult> {
  const result: BatchResult = { handled: new Set(), stuck: [], summary: {} };
  const planned = await plan(runtime, items);
  if (planned.length === 0) return result;
  const prisma = runtime.db.prisma;
  let renewals: Renewal[];
  try {
    renewals = await insertRenewals(prisma, planned, runtime.wallClock.now());
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") return result; // raced: the one-by-one path sorts it out
    throw err;
  }
  for (const r of renewals) result.handled.add(r.c.id);
  await chargeAll(runtime, renewals, concurrency, result);
  const count = (k: DutyOutcome | "errors", n = 1) => (result.summary[k] = (result.summary[k] ?? 0) + n);
  // Every verdict of the batch through the one settlement, in one transaction (set-based for the
  // common case: approved renewals of active subscriptions).
  const heard = renewals.filter((r) => r.result);
  // Their billing leases are released in the same transaction (in the UPDATE that opens a paid period).
  const settled = await settlePayments(
    runtime,
    heard.map((r) => ({ tenantId: r.c.tenant_id, paymentId: r.payment.id, verdict: r.result!, now: r.now })),
    { releaseBillingLeases: true },
  );
  for (const [i, r] of heard.entries()) {
    const effect = settled[i]!;
    if (effect === "unknown") result.stuck.push(r.c.id);
    // Settled by someone else first (reconciliation): an approval counts nowhere, a refusal still as this pass's refusal.
    if (effect === "already_settled") {
      if (r.result!.outcome === "declined") count("charge_failed");
      continue;
    }
    count(chargeOutcome(effect));
  }
  const unheard = renewals.filter((r) => !r.result).map((r) => r.c.id);
  if (unheard.length) await sqlExecute(prisma, Prisma.sql`UPDATE subscriptions SET billing_lease_until = NULL WHERE id = ANY(${unheard}::text[])`);
  return result;
}

/**
 * The batch's invoices and payment attempts in one statement (atomic by itself), under the subscriptions'
 * locks as a cancel takes them: one canceled (or its cancellation scheduled) since plan() read it gets no
 * invoice; its duty, one by one, finds it as it now is. Plain SQL: Prisma's createMany of a batch cost
 * more CPU than the renewals' charges (prisma/direct-sql.ts). `wallNow` stamps created_at.
 */
async function insertRenewals(client: SqlClient, planned: Renewal[], wallNow: Date): Promise<Renewal[]> {
  const inv = planned.map((r) => r.invoice);
  const pay = planned.map((r) => r.payment);
  const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
  const live = await sqlQuery<{ id: string }>(client, Prisma.sql`
    WITH live AS (
      SELECT id FROM subscriptions WHERE id = ANY(${planned.map((r) => r.c.id)}::text[]) AND status = 'ACTIVE' AND NOT cancel_at_period_end
       ORDER BY id FOR UPDATE),
    invoice AS (
      INSERT INTO invoices (id, tenant_id, subscription_id, kind, period_start, period_end, due_at, amount_cents, discount_cents, currency, status, paid_at, created_at)
      SELECT n.id, n.tenant_id, n.subscription_id, n.kind::"InvoiceKind", n.period_start, n.period_end, n.due_at, n.amount_cents, n.discount_cents, n.currency,
             n.status::"InvoiceStatus", n.paid_at, ${wallNow}::timestamp(3)
        FROM unnest(${inv.map((i) => i.id)}::text[], ${inv.map((i) => i.tenantId)}::text[], ${inv.map((i) => i.subscriptionId)}::text[], ${inv.map((i) => i.kind)}::text[],
                    ${inv.map((i) => iso(i.periodStart))}::timestamp(3)[], ${inv.map((i) => iso(i.periodEnd))}::timestamp(3)[], ${inv.map((i) => iso(i.dueAt))}::timestamp(3)[],
                    ${inv.map((i) => i.amountCents)}::int[], ${inv.map((i) => i.discountCents ?? 0)}::int[], ${inv.map((i) => i.currency)}::text[],
                    ${inv.map((i) => i.status)}::text[], ${inv.map((i) => iso(i.paidAt))}::timestamp(3)[])
          AS n(id, tenant_id, subscription_id, kind, period_start, period_end, due_at, amount_cents, discount_cents, currency, status, paid_at)
       WHERE n.subscription_id IN (SELECT id FROM live)),
    payment AS (
      INSERT INTO payments (id, tenant_id, customer_id, subscription_id, invoice_id, kind, method, method_kind, amount_cents, currency, status, attempt_no,
                            idempotency_key, gateway_account_id, provider, payment_method_id, card_brand, card_last4, created_at)
      SELECT n.id, n.tenant_id, n.customer_id, n.subscription_id, n.invoice_id, n.kind::"PaymentKind", n.method::"PaymentMethodType", n.method_kind, n.amount_cents,
             n.currency, n.status::"PaymentStatus", n.attempt_no, n.idempotency_key, n.gateway_account_id, n.provider, n.payment_method_id, n.card_brand, n.card_last4,
             ${wallNow}::timestamp(3)
        FROM unnest(${pay.map((p) => p.id)}::text[], ${pay.map((p) => p.tenantId)}::text[], ${pay.map((p) => p.customerId)}::text[], ${pay.map((p) => p.subscriptionId ?? null)}::text[],
                    ${pay.map((p) => p.invoiceId ?? null)}::text[], ${pay.map((p) => p.kind)}::text[], ${pay.map((p) => p.method)}::text[], ${pay.map((p) => p.methodKind ?? null)}::text[],
                    ${pay.map((p) => p.amountCents)}::int[], ${pay.map((p) => p.currency)}::text[], ${pay.map((p) => p.status)}::text[], ${pay.map((p) => p.attemptNo ?? 1)}::int[],
                    ${pay.map((p) => p.idempotencyKey)}::text[], ${pay.map((p) => p.gatewayAccountId)}::text[], ${pay.map((p) => p.provider)}::text[],
                    ${pay.map((p) => p.paymentMethodId ?? null)}::text[], ${pay.map((p) => p.cardBrand ?? null)}::text[], ${pay.map((p) => p.cardLast4 ?? null)}::text[])
          AS n(id, tenant_id, customer_id, subscription_id, invoice_id, kind, method, method_kind, amount_cents, currency, status, attempt_no,
               idempotency_key, gateway_account_id, provider, payment_method_id, card_brand, card_last4)
       WHERE n.subscription_id IN (SELECT id FROM live))
    SELECT id FROM live`);
  const ids = new Set(live.map((r) => r.id));
  return planned.filter((r) => ids.has(r.c.id));
}

/** The claimed subscriptions that are plain card renewals, with their next invoice worked out. */
async function plan(runtime: Runtime, items: ClaimedSubscription[]): Promise<Renewal[]> {
  if (items.length === 0) return [];
  const nowById = new Map(items.map((i) => [i.id, i.now]));
  const rows = await sqlQuery<Candidate>(runtime.db.prisma, Prisma.sql`
    SELECT s.id, s.tenant_id, s.customer_id, s.current_period_end, s.anchor_day, s.currency,
           o.interval::text AS interval, o.price_cents, ga.id AS account_id, ga.provider, ga.capabilities,
           pm.id AS pm_id, pm.token, pm.brand, pm.last4,
           r.id AS redemption_id, r.cycles_remaining, c.percent_off, c.amount_off_cents
    FROM unnest(${items.map((i) => i.id)}::text[], ${items.map((i) => i.now.toISOString())}::timestamp[]) AS due(id, now)
    JOIN subscriptions s ON s.id = due.id
    JOIN offers o ON o.id = s.offer_id
    JOIN gateway_accounts ga ON ga.id = o.gateway_account_id
    JOIN payment_methods pm ON pm.id = s.payment_method_id AND pm.detached_at IS NULL
    LEFT JOIN LATERAL (SELECT r.id, r.cycles_remaining, r.coupon_id FROM coupon_redemptions r
                       WHERE r.subscription_id = s.id AND r.active ORDER BY r.id LIMIT 1) r ON true
    LEFT JOIN coupons c ON c.id = r.coupon_id
    WHERE s.status = 'ACTIVE' AND s.collection_method = 'CARD_AUTO' AND NOT s.cancel_at_period_end
      AND s.pending_offer_id IS NULL AND s.current_period_end IS NOT NULL AND s.current_period_end <= due.now
      AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = s.id AND i.period_start = s.current_period_end AND i.kind = 'CYCLE')`);
  const out: Renewal[] = [];
  for (const c of rows) {
    const now = nowById.get(c.id)!;
    const start = new Date(c.current_period_end);
    const coupon = c.redemption_id ? { percentOff: c.percent_off, amountOffCents: c.amount_off_cents, cyclesRemaining: c.cycles_remaining } : null;
    const amount = invoiceAmount(cents(c.price_cents), coupon);
    // Free cycles take the careful path (their invoice is born paid, no charge).
    if (amount.amountCents === 0) continue;
    const invoice = cycleInvoiceRow({
      id: newId("invoice"),
      tenantId: c.tenant_id,
      subscriptionId: c.id,
      currency: c.currency,
      periodStart: start,
      interval: c.interval,
      anchorDay: c.anchor_day ?? start.getUTCDate(),
      amount,
      now,
    });
    // So do runs so late that the new period is already over.
    if (invoice.periodEnd.getTime() <= now.getTime()) continue;
    const payment = attemptPaymentRow({
      id: newId("payment"),
      invoice: { id: invoice.id, tenantId: c.tenant_id, subscriptionId: c.id, amountCents: invoice.amountCents, currency: c.currency },
      customerId: c.customer_id,
      attemptNo: 1,
      method: "CARD",
      account: { id: c.account_id, provider: c.provider },
      card: { id: c.pm_id, brand: c.brand, last4: c.last4 },
    });
    out.push({ c, now, invoice, payment });
  }
  return out;
}

async function chargeAll(runtime: Runtime, renewals: Renewal[], concurrency: number, result: BatchResult): Promise<void> {
  const prisma = runtime.db.prisma;
  const logs: GatewayEventInput[] = [];
  let next = 0;
  const worker = async () => {
    while (next < renewals.length) {
      const r = renewals[next++]!;
      const account = { id: r.c.account_id, tenantId: r.c.tenant_id, provider: r.c.provider, capabilities: capabilitiesSchema.parse(r.c.capabilities) };
      try {
        const outcome = await chargeCard(
          { prisma, adapter: runtime.gateways.adapter(r.c.provider), account, subscriptionId: r.c.id, paymentId: r.payment.id, now: r.now, log: (e) => logs.push(e) },
          { token: r.c.token, amountCents: cents(r.invoice.amountCents), currency: r.c.currency, idempotencyKey: r.payment.idempotencyKey, reference: r.invoice.id, offSession: true },
        );
        runtime.faults?.("after-gateway-charge");
        r.result = outcome;
      } catch (err) {
        // The attempt stays PROCESSING: the next pass reconciles it from the gateway's record.
        result.summary.errors = (result.summary.errors ?? 0) + 1;
        result.stuck.push(r.c.id);
        runtime.logger.error({ err, subscriptionId: r.c.id }, "batch renewal failed after the gateway call");
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, renewals.length) }, worker));
  } finally {
    await logGatewayEvents(prisma, logs);
  }
}
