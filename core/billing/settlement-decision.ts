// What a gateway verdict on one payment attempt does, decided from the rows as they stand (read under
// the subscription lock), with no database: settle-payment.ts applies it, one payment or a whole batch.
//   approved: the invoice or order it pays is paid (and what that opens follows), or, when that invoice
//             or order was closed meanwhile (paid another way, voided, canceled) or the plan change it
//             charged can no longer apply, the money is a surplus: recorded and refunded in full.
//             The money is what the gateway says it received, not what we asked: received short (a Pix
//             paid in part) it pays nothing and is refunded in full, the invoice or order left open as an
//             unpaid one (a proration's is void, as on a decline); received over, it pays and the excess
//             is refunded at once.
//   declined: the attempt failed; an open invoice counts a dunning attempt (not a customer's own try
//             on /pay), a proration's invoice is void (the change is not applied), an order is canceled.
//   unknown:  the attempt waits for reconciliation; a proration's invoice is void at once.
import type { InvoiceKind, InvoiceStatus, OrderStatus, PaymentStatus, SubscriptionStatus } from "../../generated/prisma/client.ts";
import { UNSETTLED } from "../shared/status-sets.ts";

export interface SettlementFacts {
  /** amountCents: what the attempt charged. */
  payment: { status: PaymentStatus; amountCents: number };
  /** What the gateway says it received, in cents; null: it did not say (our own charge call), the amount charged. */
  receivedCents?: number | null;
  invoice: { status: InvoiceStatus; kind: InvoiceKind } | null;
  order: { status: OrderStatus } | null;
  subscription: { status: SubscriptionStatus; offerId: string } | null;
  outcome: "approved" | "declined" | "unknown";
  /** A declined attempt counts in the dunning schedule (false: a manual attempt, or never received). */
  dunning: boolean;
  /** A live plan change's proration: it applies only to the subscription as it was when decided. */
  planChange: { offerId: string; status: SubscriptionStatus } | null;
}

export type PaymentItemKind = "plan" | "proration";

export type SettlementDecision =
  | { result: "already_settled" }
  /** `mark`: the payment moves to UNKNOWN (false when it already waits there). */
  | { result: "unknown"; mark: boolean; voidInvoice: boolean }
  /** receivedCents: the money taken; excessCents: what it took over the charge, refunded right after. */
  | { result: "paid"; item: PaymentItemKind; then: "invoice" | "plan_change" | "order" | "nothing"; receivedCents: number; excessCents: number }
  /** All of receivedCents is refunded right after: `closed`, nothing left to pay; `underpaid`, it did not cover the charge. */
  | { result: "surplus"; item: PaymentItemKind; voidInvoice: boolean; receivedCents: number; why: "closed" | "underpaid" }
  | { result: "failed"; voidInvoice: boolean; cancelOrder: boolean; dunning: boolean };

export function decideSettlement(f: SettlementFacts): SettlementDecision {
  if (!(UNSETTLED as readonly string[]).includes(f.payment.status)) return { result: "already_settled" };
  const openInvoice = f.invoice?.status === "OPEN";
  const proration = f.invoice?.kind === "PRORATION";
  if (f.outcome === "unknown") return { result: "unknown", mark: f.payment.status !== "UNKNOWN", voidInvoice: proration && openInvoice };
  if (f.outcome === "declined") {
    return {
      result: "failed",
      voidInvoice: proration && openInvoice,
      cancelOrder: f.order?.status === "PENDING",
      dunning: f.dunning && openInvoice && !proration && f.subscription !== null,
    };
  }
  const item: PaymentItemKind = proration ? "proration" : "plan";
  const charged = f.payment.amountCents;
  // A gateway's figure that is not a positive whole number of cents is not a figure: the amount charged.
  const received = Number.isSafeInteger(f.receivedCents) && f.receivedCents! > 0 ? f.receivedCents! : charged;
  const excessCents = Math.max(0, received - charged);
  const surplus = (voidInvoice: boolean) => ({ result: "surplus" as const, item, voidInvoice, receivedCents: received, why: "closed" as const });
  // Short: nothing is bought with part of the money. The invoice or order stays as it is, owed (a
  // proration's is void: its change is not applied, as on a decline).
  const paid = (then: "invoice" | "plan_change" | "order" | "nothing"): SettlementDecision =>
    received < charged
      ? { result: "surplus", item, voidInvoice: proration && openInvoice, receivedCents: received, why: "underpaid" }
      : { result: "paid", item, then, receivedCents: received, excessCents };
  if (f.invoice) {
    // A proration heard without its live plan change (reconciliation after a crash or a lost answer),
    // or whose subscription moved meanwhile (a cancel, a refund): the change will not be applied.
    const stillApplies = !proration || (f.planChange !== null && f.subscription?.offerId === f.planChange.offerId && f.subscription.status === f.planChange.status);
    // An invoice still open on a canceled subscription (made by a duty that read it live just before the
    // cancel committed) buys nothing: the subscription never comes back, so the money goes back.
    const ended = f.subscription?.status === "CANCELED";
    if (!openInvoice || !stillApplies || ended) return surplus(openInvoice);
    return paid(proration ? "plan_change" : f.subscription ? "invoice" : "nothing");
  }
  if (f.order) return f.order.status === "PENDING" ? paid("order") : surplus(false);
  return paid("nothing");
}
