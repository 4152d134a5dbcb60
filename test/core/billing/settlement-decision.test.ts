// The settlement decision as a table: every verdict on every kind of payment (invoice, proration,
// order) in the states a race can leave it in.
import { describe, expect, it } from "vitest";
import { decideSettlement, type SettlementFacts } from "../../../core/billing/settlement-decision.ts";

const base: SettlementFacts = {
  payment: { status: "PROCESSING" },
  invoice: { status: "OPEN", kind: "CYCLE" },
  order: null,
  subscription: { status: "ACTIVE", offerId: "offer_a" },
  outcome: "approved",
  dunning: true,
  planChange: null,
};
const proration = { invoice: { status: "OPEN", kind: "PRORATION" } } as const;
const order = (status: "PENDING" | "PAID" | "CANCELED") => ({ invoice: null, subscription: null, order: { status } });
const change = { planChange: { offerId: "offer_a", status: "ACTIVE" } } as const;

const cases: [string, Partial<SettlementFacts>, ReturnType<typeof decideSettlement>][] = [
  // Already settled: nothing moves, whatever the verdict.
  ["paid payment, approved again", { payment: { status: "PAID" } }, { result: "already_settled" }],
  ["failed payment, declined again", { payment: { status: "FAILED" }, outcome: "declined" }, { result: "already_settled" }],
  ["refunded payment, unknown", { payment: { status: "REFUNDED" }, outcome: "unknown" }, { result: "already_settled" }],
  // Invoices.
  ["open invoice approved", {}, { result: "paid", item: "plan", then: "invoice" }],
  ["unknown payment approved by reconciliation", { payment: { status: "UNKNOWN" } }, { result: "paid", item: "plan", then: "invoice" }],
  ["invoice paid another way, approved", { invoice: { status: "PAID", kind: "CYCLE" } }, { result: "surplus", item: "plan", voidInvoice: false }],
  ["invoice voided by a cancel, approved", { invoice: { status: "VOID", kind: "CYCLE" }, subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "plan", voidInvoice: false }],
  ["invoice made just as the subscription was canceled, approved", { subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "plan", voidInvoice: true }],
  ["open invoice of a suspended subscription, approved (reactivates)", { subscription: { status: "SUSPENDED", offerId: "offer_a" } }, { result: "paid", item: "plan", then: "invoice" }],
  ["open invoice declined (dunning)", { outcome: "declined" }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: true }],
  ["open invoice declined on /pay (no dunning)", { outcome: "declined", dunning: false }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: false }],
  ["voided invoice declined", { outcome: "declined", invoice: { status: "VOID", kind: "CYCLE" } }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: false }],
  ["invoice unknown", { outcome: "unknown" }, { result: "unknown", mark: true, voidInvoice: false }],
  ["already unknown, unknown again", { outcome: "unknown", payment: { status: "UNKNOWN" } }, { result: "unknown", mark: false, voidInvoice: false }],
  // Prorations (plan changes).
  ["live plan change approved, subscription unchanged", { ...proration, ...change }, { result: "paid", item: "proration", then: "plan_change" }],
  ["live plan change approved, subscription canceled meanwhile", { ...proration, ...change, subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "proration", voidInvoice: true }],
  ["live plan change approved, offer changed meanwhile", { ...proration, ...change, subscription: { status: "ACTIVE", offerId: "offer_b" } }, { result: "surplus", item: "proration", voidInvoice: true }],
  ["proration approved, heard only by reconciliation", { ...proration }, { result: "surplus", item: "proration", voidInvoice: true }],
  ["proration declined", { ...proration, ...change, outcome: "declined" }, { result: "failed", voidInvoice: true, cancelOrder: false, dunning: false }],
  ["proration declined, heard by reconciliation", { ...proration, outcome: "declined" }, { result: "failed", voidInvoice: true, cancelOrder: false, dunning: false }],
  ["proration unknown", { ...proration, ...change, outcome: "unknown" }, { result: "unknown", mark: true, voidInvoice: true }],
  ["proration already void, approved late", { invoice: { status: "VOID", kind: "PRORATION" } }, { result: "surplus", item: "proration", voidInvoice: false }],
  // Orders (checkout Pix, renewal links).
  ["pending order approved", order("PENDING"), { result: "paid", item: "plan", then: "order" }],
  ["order paid by another attempt, approved", order("PAID"), { result: "surplus", item: "plan", voidInvoice: false }],
  ["canceled order approved", order("CANCELED"), { result: "surplus", item: "plan", voidInvoice: false }],
  ["pending order declined", { ...order("PENDING"), outcome: "declined" }, { result: "failed", voidInvoice: false, cancelOrder: true, dunning: false }],
  ["pending order unknown", { ...order("PENDING"), outcome: "unknown" }, { result: "unknown", mark: true, voidInvoice: false }],
];

describe("decideSettlement", () => {
  it.each(cases)("%s", (_name, facts, expected) => {
    expect(decideSettlement({ ...base, ...facts })).toEqual(expected);
  });
});
