// The rows a renewal writes, built in one place for both ways the billing run renews: the set-wise
// card batch (renew-card-batch.ts, a whole batch in one insert) and the one-by-one duty (its cycle
// invoice in ensure-cycle-invoice.ts, each payment attempt in create-invoice-attempt.ts). Pure: no
// database, so the batch builds hundreds of rows and inserts them at once.
import type { Prisma } from "../../generated/prisma/client.ts";
import type { InvoiceAmount } from "../shared/invoice-amount.ts";
import { periodEnd, type Interval } from "../shared/periods.ts";

export interface CycleInvoiceFacts {
  id: string;
  tenantId: string;
  subscriptionId: string;
  currency: string;
  periodStart: Date;
  /** The price's interval and the anchor day that date the period's end. */
  interval: Interval;
  anchorDay: number;
  amount: InvoiceAmount;
  /** The tenant's clock: a free cycle's invoice is born paid now. */
  now: Date;
}

export type CycleInvoiceRow = Prisma.InvoiceCreateManyInput & { id: string; periodStart: Date; periodEnd: Date; amountCents: number; status: "OPEN" | "PAID" };

/** The invoice of the cycle starting at periodStart, due then; a free one (100% off) is born paid. */
export function cycleInvoiceRow(f: CycleInvoiceFacts): CycleInvoiceRow {
  const free = f.amount.amountCents === 0;
  return {
    id: f.id,
    tenantId: f.tenantId,
    subscriptionId: f.subscriptionId,
    kind: "CYCLE",
    periodStart: f.periodStart,
    periodEnd: periodEnd(f.periodStart, f.interval, f.anchorDay),
    dueAt: f.periodStart,
    amountCents: f.amount.amountCents,
    discountCents: f.amount.discountCents,
    currency: f.currency,
    status: free ? "PAID" : "OPEN",
    paidAt: free ? f.now : null,
  };
}

export interface AttemptFacts {
  id: string;
  invoice: { id: string; tenantId: string; subscriptionId: string; amountCents: number; currency: string };
  customerId: string;
  /** 1 for the invoice's first attempt: the idempotency key is `<invoice id>:<attempt>`, so a replay reaches the same charge. */
  attemptNo: number;
  method: "CARD" | "PIX";
  account: { id: string; provider: string };
  card: { id: string; brand: string; last4: string } | null;
}

export type AttemptPaymentRow = Prisma.PaymentCreateManyInput & { id: string; idempotencyKey: string };

/** A payment attempt on an invoice, recorded (PROCESSING) before the gateway hears of it. */
export function attemptPaymentRow(f: AttemptFacts): AttemptPaymentRow {
  return {
    id: f.id,
    tenantId: f.invoice.tenantId,
    customerId: f.customerId,
    subscriptionId: f.invoice.subscriptionId,
    invoiceId: f.invoice.id,
    kind: "RECURRING",
    method: f.method,
    methodKind: f.method === "CARD" ? "credit_card" : "pix",
    amountCents: f.invoice.amountCents,
    currency: f.invoice.currency,
    status: "PROCESSING",
    attemptNo: f.attemptNo,
    idempotencyKey: `${f.invoice.id}:${f.attemptNo}`,
    gatewayAccountId: f.account.id,
    provider: f.account.provider,
    paymentMethodId: f.card?.id ?? null,
    cardBrand: f.card?.brand ?? null,
    cardLast4: f.card?.last4 ?? null,
  };
}
