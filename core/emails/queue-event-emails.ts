// The customer e-mails that events cause, queued in the transaction that records the events: a receipt
// for invoice.paid / order.paid, payment_declined per dunning step, suspended, canceled (with the
// reason), refund_issued. Set-based: a batch of events costs one query per kind of fact, not per row.
// Takes event types as strings: core/events calls this, so this folder does not import it back.
import type { Tx } from "../shared/tx.ts";
import {
  cancelReasons,
  latestRefunds,
  methodFacts,
  mintOpenInvoiceLinks,
  openInvoices,
  paidInvoices,
  productNames,
  suspensionAt,
} from "./event-email-facts.ts";
import { queueEmails, type QueuedEmail } from "./queue-email.ts";
import type { CustomerTemplate, EmailContent } from "./templates/email-content.ts";

export interface RecordedEvent {
  id: string;
  tenantId: string;
  type: string;
  data: Record<string, unknown>;
  /** Business time (the tenant's clock). */
  at: Date;
}

const TEMPLATE_OF: Record<string, CustomerTemplate> = {
  "invoice.paid": "receipt",
  "order.paid": "receipt",
  "invoice.payment_failed": "payment_declined",
  "subscription.suspended": "subscription_suspended",
  "subscription.canceled": "subscription_canceled",
  "payment.refunded": "refund_issued",
  "order.refunded": "refund_issued",
};

// end-subscription.ts stores these markers, not a reason the customer gave; an unpaid checkout's end is silent.
const CHECKOUT_EXPIRED = "checkout_expired";
const NOT_A_REASON = new Set([CHECKOUT_EXPIRED, "period_end"]);

type Json = Record<string, any>;
const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/** Queues the e-mails of these events (those their tenants have on); returns how many rows were written. */
export async function queueEventEmails(tx: Tx, events: RecordedEvent[]): Promise<number> {
  // The final failure is announced by the suspension e-mail alone.
  const wanted = events.filter((e) => TEMPLATE_OF[e.type] && !(e.type === "invoice.payment_failed" && e.data.status === "suspended"));
  if (wanted.length === 0) return 0;
  const tenants = wanted.map((e) => e.tenantId);
  const subOf = (e: RecordedEvent) => (e.data as Json).subscription_id as string | undefined;
  const subsFor = (...types: string[]) => wanted.filter((e) => types.includes(e.type)).map(subOf).filter((s): s is string => !!s);
  const refundedPayment = (e: RecordedEvent): string | undefined => ((e.data as Json).last_payment ?? (e.data as Json).payment)?.payment_id;

  const [paid, open, reasons, refunds, products] = await Promise.all([
    paidInvoices(tx, tenants, subsFor("invoice.paid")),
    openInvoices(tx, tenants, subsFor("invoice.payment_failed", "subscription.suspended")),
    cancelReasons(tx, tenants, subsFor("subscription.canceled")),
    latestRefunds(tx, tenants, wanted.filter((e) => TEMPLATE_OF[e.type] === "refund_issued").map(refundedPayment).filter((p): p is string => !!p)),
    productNames(tx, tenants, wanted.filter((e) => e.type.startsWith("order.") || e.type === "payment.refunded").map((e) => (e.data as Json).plan_id as string)),
  ]);
  const linkFor = await mintOpenInvoiceLinks(
    tx,
    wanted
      .filter((e) => TEMPLATE_OF[e.type] === "payment_declined" || TEMPLATE_OF[e.type] === "subscription_suspended")
      .flatMap((e) => {
        const inv = open.get(subOf(e) ?? "");
        const customerId = (e.data as Json).customer?.id as string | undefined;
        return inv && customerId ? [{ tenantId: e.tenantId, customerId, subscriptionId: subOf(e)!, invoiceId: inv.invoiceId, at: e.at }] : [];
      }),
  );

  const queued: QueuedEmail[] = [];
  for (const e of wanted) {
    const d = e.data as Json;
    const customer = d.customer as { id?: string; email?: string } | undefined;
    if (!customer?.email) continue;
    const built = content(e, d, { paid, open, reasons, refunds, products, linkFor });
    if (!built) continue;
    queued.push({ tenantId: e.tenantId, content: built.content, sourceKey: built.sourceKey ?? e.id, to: customer.email, customerId: customer.id ?? null, eventId: e.id, at: e.at });
  }
  return queueEmails(tx, queued);
}

interface Facts {
  paid: Awaited<ReturnType<typeof paidInvoices>>;
  open: Awaited<ReturnType<typeof openInvoices>>;
  reasons: Awaited<ReturnType<typeof cancelReasons>>;
  refunds: Awaited<ReturnType<typeof latestRefunds>>;
  products: Map<string, string>;
  linkFor: Map<string, string>;
}

/** The template's params from the event data and the facts; null when there is nothing to tell (a free cycle). */
function content(e: RecordedEvent, d: Json, f: Facts): { content: EmailContent; sourceKey?: string } | null {
  const at = e.at.toISOString();
  const renews = !d.cancel_at_period_end && (d.status === "active" || d.status === "trialing");
  switch (e.type) {
    case "invoice.paid": {
      const p = f.paid.get(d.subscription_id);
      // A cycle a coupon made free charged nothing: no receipt.
      if (!p?.paymentId || p.chargedCents === null) return null;
      return {
        content: {
          template: "receipt",
          params: {
            subject: "invoice",
            reference: p.invoiceId,
            productName: p.productName,
            planName: d.plan_name ?? null,
            amountCents: p.chargedCents,
            currency: p.currency ?? d.currency,
            method: methodFacts(p) ?? { kind: "card", brand: "", last4: "" },
            paidAt: iso(p.paidAt) ?? at,
            periodStart: iso(p.periodStart),
            periodEnd: iso(p.periodEnd),
            nextChargeAt: renews ? (d.current_period_end ?? null) : null,
            nextChargeCents: renews && d.current_period_end ? d.next_charge_amount_cents : null,
          },
        },
      };
    }
    case "order.paid": {
      const pay = d.payment as Json | null;
      const method = pay ? (pay.method === "pix" ? { kind: "pix" as const } : pay.card ? { kind: "card" as const, brand: pay.card.brand, last4: pay.card.last4 } : null) : null;
      return {
        content: {
          template: "receipt",
          params: {
            subject: "order",
            reference: d.order_id,
            productName: f.products.get(d.plan_id) ?? d.plan_name,
            planName: d.plan_name ?? null,
            amountCents: pay?.paid_amount_cents || d.amount_cents,
            currency: d.currency,
            method: method ?? { kind: "card", brand: "", last4: "" },
            paidAt: d.paid_at ?? at,
            periodStart: null,
            periodEnd: null,
            nextChargeAt: null,
            nextChargeCents: null,
          },
        },
      };
    }
    case "invoice.payment_failed": {
      const inv = f.open.get(d.subscription_id);
      const payPath = inv && f.linkFor.get(inv.invoiceId);
      if (!inv || !payPath) return null;
      // Card renewals are retried on the schedule; a Pix invoice waits for the customer until suspension.
      const nextRetryAt = inv.collectionMethod === "CARD_AUTO" ? iso(inv.nextBillingAt) : null;
      return {
        content: {
          template: "payment_declined",
          params: {
            reference: inv.invoiceId,
            planName: d.plan_name,
            amountCents: inv.amountCents,
            currency: inv.currency,
            method: d.payment_method ? { kind: "card", brand: d.payment_method.brand, last4: d.payment_method.last4 } : null,
            nextRetryAt,
            suspendsAt: iso(suspensionAt(inv.dueAt)),
            payUrl: payPath,
          },
        },
      };
    }
    case "subscription.suspended": {
      const inv = f.open.get(d.subscription_id);
      const payPath = inv && f.linkFor.get(inv.invoiceId);
      if (!inv || !payPath) return null;
      return {
        content: {
          template: "subscription_suspended",
          params: { planName: d.plan_name, amountCents: inv.amountCents, currency: inv.currency, suspendedAt: at, payUrl: payPath },
        },
      };
    }
    case "subscription.canceled": {
      const stored = f.reasons.get(d.subscription_id) ?? null;
      if (stored === CHECKOUT_EXPIRED) return null;
      const reason = stored && !NOT_A_REASON.has(stored) ? stored : null;
      return { content: { template: "subscription_canceled", params: { planName: d.plan_name, canceledAt: at, accessEndsAt: at, reason } } };
    }
    case "payment.refunded":
    case "order.refunded": {
      const pay = (d.last_payment ?? d.payment) as Json | null;
      const refund = pay?.payment_id ? f.refunds.get(pay.payment_id) : undefined;
      // A chargeback takes an order back without a refund of ours: nothing to announce.
      if (!pay || !refund) return null;
      return {
        // Keyed by the refund: payment.refunded and order.refunded of one refund make one e-mail.
        sourceKey: refund.refundId,
        content: {
          template: "refund_issued",
          params: {
            reference: pay.payment_id,
            productName: f.products.get(d.plan_id) ?? d.plan_name,
            amountCents: refund.amountCents,
            currency: refund.currency,
            method: refund.method,
            refundedAt: at,
          },
        },
      };
    }
  }
  return null;
}
