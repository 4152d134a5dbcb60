// One claimed subscription, one duty: whatever its state says is due at `now` (the tenant's clock).
// The duty's own transactions move it on; this only picks the duty and releases the claim.
import type { Invoice, Subscription } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { applyInvoicePaid } from "./apply-invoice-paid.ts";
import { chargeInvoice, type ChargeInvoiceResult } from "./charge-invoice.ts";
import { ensureCycleInvoice } from "./ensure-cycle-invoice.ts";
import { issuePixCharge } from "./issue-pix-charge.ts";
import { pixIssueAt, RETRY_DAYS } from "../shared/periods.ts";
import { cancelAtPeriodEnd, expireCheckout, markInvoiceOverdue } from "./subscription-duties.ts";
import { isIn, LIVING } from "../shared/status-sets.ts";
import { sqlExecute, sqlQuery } from "../../prisma/direct-sql.ts";
import { invoiceColumns, subscriptionColumns } from "../shared/row-columns.ts";

// Run for every claimed subscription the card batch leaves to this path (retries, trials, Pix): plain
// statements without Prisma's compiler (prisma/direct-sql.ts).
const READ_SUBSCRIPTION = `SELECT ${subscriptionColumns()} FROM subscriptions WHERE id = $1 AND tenant_id = $2`;
const RELEASE_LEASE = `UPDATE subscriptions SET billing_lease_until = NULL WHERE id = $1 AND tenant_id = $2`;
// A cancel does not wait for the run's lease: a subscription canceled since it was read keeps no next duty.
const SET_NEXT_DUTY = `UPDATE subscriptions SET next_billing_at = $3, updated_at = $4 WHERE id = $1 AND tenant_id = $2 AND status <> 'CANCELED'`;
const LATEST_OPEN_INVOICE = `SELECT ${invoiceColumns()} FROM invoices WHERE tenant_id = $1 AND subscription_id = $2 AND status = 'OPEN' ORDER BY due_at DESC LIMIT 1`;

export type DutyOutcome =
  | "renewed"
  | "charge_failed"
  | "past_due"
  | "suspended"
  | "pix_issued"
  | "canceled"
  | "unknown"
  | "blocked"
  | "idle"
  /** The invoice was closed meanwhile (the subscription canceled, the invoice voided): nothing follows. */
  | "closed"
  /** Approved after its invoice was closed: refunded in full. */
  | "surplus"
  /**
   * Another attempt had settled the charge first (the billing run's, or an earlier one this duty found
   * unheard and asked the gateway about): this duty charged nothing, and what that settlement emitted
   * (invoice.paid, invoice.payment_failed, or a surplus refund) was its own.
   */
  | "settled";

const DAY_MS = 86_400_000;
const at = (d: Date | null) => d?.getTime() ?? Number.POSITIVE_INFINITY;

export async function processDueSubscription(runtime: Runtime, input: { tenantId: string; subscriptionId: string; now: Date }): Promise<DutyOutcome> {
  const prisma = runtime.db.prisma;
  const { tenantId, subscriptionId, now } = input;
  try {
    const [sub] = await sqlQuery<Subscription>(prisma, READ_SUBSCRIPTION, [subscriptionId, tenantId]);
    if (!sub || at(sub.nextBillingAt) > now.getTime()) return "idle";
    return await runDuty(runtime, sub, now);
  } finally {
    await sqlExecute(prisma, RELEASE_LEASE, [subscriptionId, tenantId]);
  }
}

async function runDuty(runtime: Runtime, sub: Subscription, now: Date): Promise<DutyOutcome> {
  const t = now.getTime();
  const cycleEnd = sub.status === "TRIALING" ? sub.trialEndsAt : sub.currentPeriodEnd;
  // A scheduled cancellation: nothing is renewed, issued or retried. It ends at the period (trial)
  // end; a past_due subscription's paid period is already over, so it ends at its next duty.
  if (sub.cancelAtPeriodEnd && isIn(LIVING, sub.status)) {
    return sub.status === "PAST_DUE" || at(cycleEnd) <= t ? cancelAtPeriodEnd(runtime, sub, now) : idle(runtime, sub, cycleEnd);
  }
  switch (sub.status) {
    case "PENDING_FIRST_PAYMENT":
      return expireCheckout(runtime, sub, now);
    case "TRIALING":
      return at(sub.trialEndsAt) <= t ? startCycle(runtime, sub, sub.trialEndsAt!, now) : idle(runtime, sub, sub.trialEndsAt);
    case "ACTIVE":
      if (sub.collectionMethod === "CARD_AUTO") return at(sub.currentPeriodEnd) <= t ? startCycle(runtime, sub, sub.currentPeriodEnd!, now) : idle(runtime, sub, sub.currentPeriodEnd);
      return pixRenewal(runtime, sub, now);
    case "PAST_DUE":
      return retryOpenInvoice(runtime, sub, now);
    default:
      return idle(runtime, sub, null);
  }
}

/** A new cycle is due (renewal or trial end): its invoice, then a card charge or the Pix/link path. */
async function startCycle(runtime: Runtime, sub: Subscription, periodStart: Date, now: Date): Promise<DutyOutcome> {
  const invoice = await ensureCycleInvoice(runtime, {
    tenantId: sub.tenantId,
    subscriptionId: sub.id,
    periodStart,
    anchorDay: sub.status === "TRIALING" ? periodStart.getUTCDate() : (sub.anchorDay ?? periodStart.getUTCDate()),
    now,
  });
  if (!invoice) return "closed"; // canceled (or its cancellation scheduled) since it was read
  if (invoice.status === "OPEN" && sub.collectionMethod === "CARD_AUTO" && sub.paymentMethodId) return chargeOutcome(await chargeInvoice(runtime, { tenantId: sub.tenantId, invoiceId: invoice.id, now }));
  if (invoice.status !== "OPEN") return chargeOutcome(await settleFreeInvoice(runtime, sub, invoice.id, now));
  // No card (trial without card, Pix): an open invoice to pay by QR or link, and the dunning clock.
  if (sub.collectionMethod === "PIX_MANUAL") await issuePixCharge(runtime, { tenantId: sub.tenantId, invoiceId: invoice.id, expiresAt: pixExpiry(invoice.dueAt), now });
  return markInvoiceOverdue(runtime, sub, invoice, now);
}

/** pix_manual: the QR 3 days before the due date, past_due at the due date, suspension after D+9. */
async function pixRenewal(runtime: Runtime, sub: Subscription, now: Date): Promise<DutyOutcome> {
  const due = sub.currentPeriodEnd;
  if (!due) return idle(runtime, sub, null);
  if (at(pixIssueAt(due)) > now.getTime()) return idle(runtime, sub, pixIssueAt(due));
  const invoice = await ensureCycleInvoice(runtime, { tenantId: sub.tenantId, subscriptionId: sub.id, periodStart: due, anchorDay: sub.anchorDay ?? due.getUTCDate(), now });
  if (!invoice) return "closed";
  if (invoice.status !== "OPEN") return chargeOutcome(await settleFreeInvoice(runtime, sub, invoice.id, now));
  if (due.getTime() > now.getTime()) {
    await issuePixCharge(runtime, { tenantId: sub.tenantId, invoiceId: invoice.id, expiresAt: pixExpiry(due), now });
    await sqlExecute(runtime.db.prisma, SET_NEXT_DUTY, [sub.id, sub.tenantId, due, runtime.wallClock.now()]);
    return "pix_issued";
  }
  return markInvoiceOverdue(runtime, sub, invoice, now);
}

async function retryOpenInvoice(runtime: Runtime, sub: Subscription, now: Date): Promise<DutyOutcome> {
  const [invoice] = await sqlQuery<Invoice>(runtime.db.prisma, LATEST_OPEN_INVOICE, [sub.tenantId, sub.id]);
  if (!invoice) return idle(runtime, sub, null);
  if (sub.collectionMethod === "CARD_AUTO" && sub.paymentMethodId) return chargeOutcome(await chargeInvoice(runtime, { tenantId: sub.tenantId, invoiceId: invoice.id, now }));
  return markInvoiceOverdue(runtime, sub, invoice, now);
}

/** A 100%-off cycle: the invoice was born paid; the subscription moves on without a charge. */
async function settleFreeInvoice(runtime: Runtime, sub: Subscription, invoiceId: string, now: Date) {
  return runtime.db.prisma.$transaction(async (tx) => {
    const fresh = await tx.subscription.findFirstOrThrow({ where: { id: sub.id, tenantId: sub.tenantId }, include: { offer: { select: { interval: true } } } });
    const invoice = await tx.invoice.findFirstOrThrow({ where: { id: invoiceId, tenantId: sub.tenantId } });
    if (fresh.currentPeriodEnd && fresh.currentPeriodEnd.getTime() >= invoice.periodEnd.getTime()) return "already_settled" as const;
    await applyInvoicePaid(tx, { subscription: fresh, interval: fresh.offer.interval ?? "MONTH", invoice, paymentId: null, now, wallNow: runtime.wallClock.now() });
    return "paid" as const;
  });
}

/** Renewal QRs stay payable through the whole dunning window. */
function pixExpiry(due: Date): Date {
  return new Date(due.getTime() + RETRY_DAYS[RETRY_DAYS.length - 1]! * DAY_MS);
}

async function idle(runtime: Runtime, sub: Subscription, next: Date | null): Promise<"idle"> {
  await sqlExecute(runtime.db.prisma, SET_NEXT_DUTY, [sub.id, sub.tenantId, next, runtime.wallClock.now()]);
  return "idle";
}

/** What a charge's result means for the run (and for charge-now's answer, which promises events by it). */
export function chargeOutcome(result: ChargeInvoiceResult): DutyOutcome {
  switch (result) {
    case "paid":
      return "renewed";
    case "already_settled":
      return "settled";
    case "past_due":
    case "suspended":
    case "unknown":
    case "blocked":
    case "surplus":
      return result;
    case "retry_scheduled":
      return "charge_failed";
    case "none":
      return "closed";
  }
}
