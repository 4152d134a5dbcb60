// The settlement decision as a table: every verdict on every kind of payment (invoice, proration,
// order) in the states a race can leave it in.
import { describe, expect, it } from "vitest";
import { decideSettlement, type SettlementFacts } from "../../../core/billing/settlement-decision.ts";

const base: SettlementFacts = {
  payment: { status: "PROCESSING", amountCents: 4990 },
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
  ["paid payment, approved again", { payment: { status: "PAID", amountCents: 4990 } }, { result: "already_settled" }],
  ["failed payment, declined again", { payment: { status: "FAILED", amountCents: 4990 }, outcome: "declined" }, { result: "already_settled" }],
  ["refunded payment, unknown", { payment: { status: "REFUNDED", amountCents: 4990 }, outcome: "unknown" }, { result: "already_settled" }],
  // Invoices.
  ["open invoice approved", {}, { result: "paid", item: "plan", then: "invoice", receivedCents: 4990, excessCents: 0 }],
  ["unknown payment approved by reconciliation", { payment: { status: "UNKNOWN", amountCents: 4990 } }, { result: "paid", item: "plan", then: "invoice", receivedCents: 4990, excessCents: 0 }],
  ["invoice paid another way, approved", { invoice: { status: "PAID", kind: "CYCLE" } }, { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 4990, why: "closed" }],
  ["invoice voided by a cancel, approved", { invoice: { status: "VOID", kind: "CYCLE" }, subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 4990, why: "closed" }],
  ["invoice made just as the subscription was canceled, approved", { subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "plan", voidInvoice: true, receivedCents: 4990, why: "closed" }],
  ["open invoice of a suspended subscription, approved (reactivates)", { subscription: { status: "SUSPENDED", offerId: "offer_a" } }, { result: "paid", item: "plan", then: "invoice", receivedCents: 4990, excessCents: 0 }],
  ["open invoice declined (dunning)", { outcome: "declined" }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: true }],
  ["open invoice declined on /pay (no dunning)", { outcome: "declined", dunning: false }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: false }],
  ["voided invoice declined", { outcome: "declined", invoice: { status: "VOID", kind: "CYCLE" } }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: false }],
  ["invoice unknown", { outcome: "unknown" }, { result: "unknown", mark: true, voidInvoice: false }],
  ["already unknown, unknown again", { outcome: "unknown", payment: { status: "UNKNOWN", amountCents: 4990 } }, { result: "unknown", mark: false, voidInvoice: false }],
  // Prorations (plan changes).
  ["live plan change approved, subscription unchanged", { ...proration, ...change }, { result: "paid", item: "proration", then: "plan_change", receivedCents: 4990, excessCents: 0 }],
  ["live plan change approved, subscription canceled meanwhile", { ...proration, ...change, subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "proration", voidInvoice: true, receivedCents: 4990, why: "closed" }],
  ["live plan change approved, offer changed meanwhile", { ...proration, ...change, subscription: { status: "ACTIVE", offerId: "offer_b" } }, { result: "surplus", item: "proration", voidInvoice: true, receivedCents: 4990, why: "closed" }],
  ["proration approved, heard only by reconciliation", { ...proration }, { result: "surplus", item: "proration", voidInvoice: true, receivedCents: 4990, why: "closed" }],
  ["proration declined", { ...proration, ...change, outcome: "declined" }, { result: "failed", voidInvoice: true, cancelOrder: false, dunning: false }],
  ["proration declined, heard by reconciliation", { ...proration, outcome: "declined" }, { result: "failed", voidInvoice: true, cancelOrder: false, dunning: false }],
  ["proration unknown", { ...proration, ...change, outcome: "unknown" }, { result: "unknown", mark: true, voidInvoice: true }],
  ["proration already void, approved late", { invoice: { status: "VOID", kind: "PRORATION" } }, { result: "surplus", item: "proration", voidInvoice: false, receivedCents: 4990, why: "closed" }],
  // Orders (checkout Pix, renewal links).
  ["pending order approved", order("PENDING"), { result: "paid", item: "plan", then: "order", receivedCents: 4990, excessCents: 0 }],
  ["order paid by another attempt, approved", order("PAID"), { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 4990, why: "closed" }],
  ["canceled order approved", order("CANCELED"), { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 4990, why: "closed" }],
  ["pending order declined", { ...order("PENDING"), outcome: "declined" }, { result: "failed", voidInvoice: false, cancelOrder: true, dunning: false }],
  ["pending order unknown", { ...order("PENDING"), outcome: "unknown" }, { result: "unknown", mark: true, voidInvoice: false }],
  // What the gateway received, when it says (a Pix paid short or over); absent or not a figure: the amount charged.
  ["open invoice paid short: pays nothing, all received refunded, the invoice stays open", { receivedCents: 100 }, { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 100, why: "underpaid" }],
  ["open invoice paid over: paid, the excess refunded", { receivedCents: 5000 }, { result: "paid", item: "plan", then: "invoice", receivedCents: 5000, excessCents: 10 }],
  ["open invoice paid exactly", { receivedCents: 4990 }, { result: "paid", item: "plan", then: "invoice", receivedCents: 4990, excessCents: 0 }],
  ["closed invoice paid short: all received refunded", { receivedCents: 100, invoice: { status: "PAID", kind: "CYCLE" } }, { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 100, why: "closed" }],
  ["invoice of a canceled subscription paid short: all received refunded", { receivedCents: 100, subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "plan", voidInvoice: true, receivedCents: 100, why: "closed" }],
  ["invoice of a canceled subscription paid over: all received refunded", { receivedCents: 5000, subscription: { status: "CANCELED", offerId: "offer_a" } }, { result: "surplus", item: "plan", voidInvoice: true, receivedCents: 5000, why: "closed" }],
  ["live plan change paid short: not applied, its invoice void", { ...proration, ...change, receivedCents: 100 }, { result: "surplus", item: "proration", voidInvoice: true, receivedCents: 100, why: "underpaid" }],
  ["pending order paid short: stays pending", { ...order("PENDING"), receivedCents: 100 }, { result: "surplus", item: "plan", voidInvoice: false, receivedCents: 100, why: "underpaid" }],
  ["a gateway figure of 0: the amount charged", { receivedCents: 0 }, { result: "paid", item: "plan", then: "invoice", receivedCents: 4990, excessCents: 0 }],
  ["a gateway figure that is a fraction: the amount charged", { receivedCents: 12.5 }, { result: "paid", item: "plan", then: "invoice", receivedCents: 4990, excessCents: 0 }],
  ["declined: the figure is not read", { receivedCents: 100, outcome: "declined" }, { result: "failed", voidInvoice: false, cancelOrder: false, dunning: true }],
];

describe("decideSettlement", () => {
  it.each(cases)("%s", (_name, facts, expected) => {
    expect(decideSettlement({ ...base, ...facts })).toEqual(expected);
  });
});
