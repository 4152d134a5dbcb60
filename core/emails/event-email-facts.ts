// What the customer e-mails of a batch of events need beyond the event data, read set-based: one
// query per kind of fact for the whole batch (a renewal batch of hundreds stays a handful of queries).
import type { Tx } from "../shared/tx.ts";
import { newId } from "../shared/ids.ts";
import { randomBase62, sha256Hex } from "../shared/secrets.ts";
import type { PaymentMethodFacts } from "./templates/email-content.ts";
import { sqlExecute, sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

const DAY_MS = 86_400_000;
/** Suspension follows the last retry, D+9 from the due date (core/shared/periods.ts RETRY_DAYS). */
const SUSPENSION_DAYS = 9;
/** A /pay link in an e-mail lives as long as the other subscription links (7 days). */
const PAY_LINK_TTL_MS = 7 * DAY_MS;

export function methodFacts(p: { method: string | null; cardBrand: string | null; cardLast4: string | null } | null): PaymentMethodFacts | null {
  if (!p) return null;
  if (p.method === "PIX") return { kind: "pix" };
  return p.cardBrand && p.cardLast4 ? { kind: "card", brand: p.cardBrand, last4: p.cardLast4 } : null;
}

export interface PaidInvoiceFacts {
  subscriptionId: string;
  invoiceId: string;
  periodStart: Date;
  periodEnd: Date;
  productName: string;
  paymentId: string | null;
  method: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  chargedCents: number | null;
  currency: string | null;
  paidAt: Date | null;
}

// Joins filtered by id arrays: left to a cached generic plan (which guesses the arrays' size), PostgreSQL
// came to scan subscriptions and payments whole for each receipt as the tables grew. Planned with the ids.
const FACTS_PLAN = { customPlan: true };

/** The invoice each subscription just paid (its latest paid one), the payment that paid it and the product. */
export async function paidInvoices(tx: Tx, tenantIds: string[], subscriptionIds: string[]): Promise<Map<string, PaidInvoiceFacts>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await sqlQuery<PaidInvoiceFacts>(tx, Prisma.sql`
    SELECT DISTINCT ON (i.subscription_id)
      i.subscription_id AS "subscriptionId", i.id AS "invoiceId",
      CASE WHEN i.kind = 'PRORATION' THEN i.period_start ELSE COALESCE(s.current_period_start, i.period_start) END AS "periodStart",
      CASE WHEN i.kind = 'PRORATION' THEN i.period_end ELSE COALESCE(s.current_period_end, i.period_end) END AS "periodEnd",
      pr.name AS "productName", p.id AS "paymentId", p.method::text AS "method", p.card_brand AS "cardBrand", p.card_last4 AS "cardLast4",
      COALESCE(p.amount_received_cents, p.amount_cents) AS "chargedCents", p.currency AS "currency", p.paid_at AS "paidAt"
    FROM invoices i
    JOIN subscriptions s ON s.id = i.subscription_id AND s.tenant_id = i.tenant_id
    JOIN plans pl ON pl.id = s.plan_id AND pl.tenant_id = s.tenant_id
    JOIN products pr ON pr.id = pl.product_id AND pr.tenant_id = pl.tenant_id
    LEFT JOIN payments p ON p.paid_invoice_id = i.id AND p.tenant_id = i.tenant_id
    WHERE i.tenant_id = ANY (${[...new Set(tenantIds)]}::text[]) AND i.subscription_id = ANY (${subscriptionIds}::text[]) AND i.status = 'PAID'
    ORDER BY i.subscription_id, i.paid_at DESC NULLS LAST, i.id DESC`,
    [],
    FACTS_PLAN,
  );
  return new Map(rows.map((r) => [r.subscriptionId, r]));
}

/** Product names of plans (a receipt or a refund names what was bought). */
export async function productNames(tx: Tx, tenantIds: string[], planIds: string[]): Promise<Map<string, string>> {
  if (planIds.length === 0) return new Map();
  const plans = await sqlQuery<{ id: string; name: string }>(
    tx,
    `SELECT p.id, pr.name FROM plans p JOIN products pr ON pr.id = p.product_id WHERE p.id = ANY($1::text[]) AND p.tenant_id = ANY($2::text[])`,
    [[...new Set(planIds)], [...new Set(tenantIds)]],
  );
  return new Map(plans.map((p) => [p.id, p.name]));
}

export interface OpenInvoiceFacts {
  invoiceId: string;
  amountCents: number;
  currency: string;
  dueAt: Date;
  nextBillingAt: Date | null;
  collectionMethod: string;
}

/** The open invoice of each subscription (the one dunning is collecting), with the next retry. */
export async function openInvoices(tx: Tx, tenantIds: string[], subscriptionIds: string[]): Promise<Map<string, OpenInvoiceFacts>> {
  if (subscriptionIds.length === 0) return new Map();
  const invoices = await sqlQuery<{ id: string; subscriptionId: string; amountCents: number; currency: string; dueAt: Date; nextBillingAt: Date | null; collectionMethod: string }>(
    tx,
    `SELECT i.id, i.subscription_id AS "subscriptionId", i.amount_cents AS "amountCents", i.currency, i.due_at AS "dueAt",
            s.next_billing_at AS "nextBillingAt", s.collection_method::text AS "collectionMethod"
       FROM invoices i JOIN subscriptions s ON s.id = i.subscription_id
      WHERE i.subscription_id = ANY($1::text[]) AND i.tenant_id = ANY($2::text[]) AND i.status = 'OPEN'
      ORDER BY i.due_at DESC, i.id DESC`,
    [subscriptionIds, [...new Set(tenantIds)]],
    FACTS_PLAN,
  );
  const bySub = new Map<string, OpenInvoiceFacts>();
  for (const i of invoices) {
    if (bySub.has(i.subscriptionId)) continue;
    bySub.set(i.subscriptionId, {
      invoiceId: i.id,
      amountCents: i.amountCents,
      currency: i.currency,
      dueAt: i.dueAt,
      nextBillingAt: i.nextBillingAt,
      collectionMethod: i.collectionMethod,
    });
  }
  return bySub;
}

export const suspensionAt = (dueAt: Date) => new Date(dueAt.getTime() + SUSPENSION_DAYS * DAY_MS);

/**
 * Mints one /pay link per open invoice in one insert (as core/shared/mint-link.ts does one by one):
 * the token goes into the e-mail, only its SHA-256 is stored. Returns the path per invoice id.
 */
export async function mintOpenInvoiceLinks(
  tx: Tx,
  links: { tenantId: string; customerId: string; subscriptionId: string; invoiceId: string; at: Date }[],
): Promise<Map<string, string>> {
  if (links.length === 0) return new Map();
  const paths = new Map<string, string>();
  const rows = links.map((l) => {
    const token = `pl_${randomBase62(32)}`;
    paths.set(l.invoiceId, `/pay/${token}`);
    return { id: newId("link"), tenantId: l.tenantId, tokenHash: sha256Hex(token), expiresAt: new Date(l.at.getTime() + PAY_LINK_TTL_MS), l };
  });
  await sqlExecute(
    tx,
    `INSERT INTO links (id, tenant_id, kind, token_hash, status, expires_at, customer_id, subscription_id, invoice_id)
     SELECT id, tenant_id, 'OPEN_INVOICE', token_hash, 'OPEN', expires_at, customer_id, subscription_id, invoice_id
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamp(3)[], $5::text[], $6::text[], $7::text[])
         AS l(id, tenant_id, token_hash, expires_at, customer_id, subscription_id, invoice_id)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.tenantId),
      rows.map((r) => r.tokenHash),
      rows.map((r) => r.expiresAt.toISOString()),
      rows.map((r) => r.l.customerId),
      rows.map((r) => r.l.subscriptionId),
      rows.map((r) => r.l.invoiceId),
    ],
  );
  return paths;
}

export interface RefundFacts {
  refundId: string;
  amountCents: number;
  currency: string;
  method: PaymentMethodFacts | null;
}

/** The refund each payment just had (its latest succeeded one). */
export async function latestRefunds(tx: Tx, tenantIds: string[], paymentIds: string[]): Promise<Map<string, RefundFacts>> {
  if (paymentIds.length === 0) return new Map();
  const refunds = await tx.refund.findMany({
    where: { paymentId: { in: [...new Set(paymentIds)] }, tenantId: { in: [...new Set(tenantIds)] }, status: "SUCCEEDED" },
    orderBy: [{ sequence: "desc" }],
    include: { payment: { select: { method: true, cardBrand: true, cardLast4: true, currency: true } } },
  });
  const byPayment = new Map<string, RefundFacts>();
  for (const r of refunds) {
    if (byPayment.has(r.paymentId)) continue;
    byPayment.set(r.paymentId, { refundId: r.id, amountCents: r.amountCents, currency: r.payment.currency, method: methodFacts(r.payment) });
  }
  return byPayment;
}

/** The stored cancel reason of each subscription. */
export async function cancelReasons(tx: Tx, tenantIds: string[], subscriptionIds: string[]): Promise<Map<string, string | null>> {
  if (subscriptionIds.length === 0) return new Map();
  const subs = await tx.subscription.findMany({
    where: { id: { in: subscriptionIds }, tenantId: { in: [...new Set(tenantIds)] } },
    select: { id: true, cancelReason: true },
  });
  return new Map(subs.map((s) => [s.id, s.cancelReason]));
}
