// What a change-plan request does (billing-api.md change-plan, service-contract §5), one row per rule
// of decidePlanChange. Expected charges, credits and instants are worked out by hand beside each row.
import { describe, expect, it } from "vitest";
import type { Interval } from "../../../core/shared/periods.ts";
import type { Cents } from "../../../core/shared/money.ts";
import {
  decidePlanChange,
  minimumChargeOf,
  type OfferFacts,
  type PlanChangeDecision,
  type SubscriptionFacts,
} from "../../../core/subscriptions/plan-change-decision.ts";

const d = (iso: string) => new Date(iso);
const c = (n: number) => n as Cents;

const offer = (priceCents: number, interval: Interval, gatewayAccountId = "gw_a"): OfferFacts => ({
  id: `off_${interval}_${priceCents}_${gatewayAccountId}`,
  priceCents: c(priceCents),
  interval,
  gatewayAccountId,
});

// A paid monthly period of 28 days (Jan 31 → Feb 28 2027), card on file, gateway minimum 100 cents.
const monthlySub: SubscriptionFacts = {
  status: "ACTIVE",
  collectionMethod: "CARD_AUTO",
  hasCard: true,
  currentPeriodStart: d("2027-01-31T00:00:00.000Z"),
  currentPeriodEnd: d("2027-02-28T00:00:00.000Z"),
  minimumChargeCents: c(100),
};
const MID = "2027-02-14T00:00:00.000Z"; // 14 of 28 days left: exactly half
const END = d("2027-02-28T00:00:00.000Z");
const pix = { collectionMethod: "PIX_MANUAL", hasCard: false } as const;
const trial = { status: "TRIALING" } as const;

// A paid yearly period from a leap day: Feb 29 2028 → Feb 28 2029 (365 d), seen on Aug 31 2028 (181 d left).
const yearlySub: SubscriptionFacts = {
  ...monthlySub,
  currentPeriodStart: d("2028-02-29T00:00:00.000Z"),
  currentPeriodEnd: d("2029-02-28T00:00:00.000Z"),
};
const YEAR_NOW = "2028-08-31T00:00:00.000Z";
const YEAR_END = d("2029-02-28T00:00:00.000Z");

const cur = offer(2000, "MONTH");
const curYear = offer(12_000, "YEAR");

type Row = [name: string, sub: SubscriptionFacts, current: OfferFacts, target: OfferFacts, now: string, expected: PlanChangeDecision];

const rows: Row[] = [
  // --- Same interval (proration by seconds left, half up) ---
  // 3000 × 14/28 = 1500
  ["same interval, pricier: upgrade charged now, prorated", monthlySub, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(1500), appliesAt: d(MID) }],
  // 200 × ½ = 100 = the minimum: charged
  ["a proration equal to the gateway minimum is charged", monthlySub, cur, offer(2200, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(100), appliesAt: d(MID) }],
  // 150 × ½ = 75 < 100
  ["a proration below the gateway minimum applies now, free", monthlySub, cur, offer(2150, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  // 1 × 7/28 = 0.25 → 0
  ["a proration that rounds to 0 applies now, free, even with no minimum", { ...monthlySub, minimumChargeCents: c(0) }, cur, offer(2001, "MONTH"), "2027-02-21T00:00:00.000Z",
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d("2027-02-21T00:00:00.000Z") }],
  // now before the period start: the whole 3000 difference
  ["before the period starts, the whole difference is charged", monthlySub, cur, offer(5000, "MONTH"), "2027-01-30T00:00:00.000Z",
    { kind: "upgrade", effect: "immediate", chargeCents: c(3000), appliesAt: d("2027-01-30T00:00:00.000Z") }],
  ["same interval, same price: crossgrade now, no charge", monthlySub, cur, offer(2000, "MONTH", "gw_a"), MID,
    { kind: "crossgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["same interval, cheaper: downgrade scheduled for the period end", monthlySub, cur, offer(1000, "MONTH"), MID,
    { kind: "downgrade", effect: "scheduled", chargeCents: c(0), appliesAt: END }],
  // 3000 × 181/365 = 1487.67 → 1488
  ["yearly, pricier: upgrade prorated over a 365-day year from Feb 29", yearlySub, curYear, offer(15_000, "YEAR"), YEAR_NOW,
    { kind: "upgrade", effect: "immediate", chargeCents: c(1488), appliesAt: d(YEAR_NOW) }],
  ["yearly, cheaper: downgrade scheduled for the period end (Feb 28 2029)", yearlySub, curYear, offer(9000, "YEAR"), YEAR_NOW,
    { kind: "downgrade", effect: "scheduled", chargeCents: c(0), appliesAt: YEAR_END }],

  // --- A charge needs a saved card ---
  ["Pix subscription: a change that charges is scheduled", { ...monthlySub, ...pix }, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "scheduled", chargeCents: c(0), appliesAt: END }],
  ["card subscription without a saved card: a change that charges is scheduled", { ...monthlySub, hasCard: false }, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "scheduled", chargeCents: c(0), appliesAt: END }],
  ["Pix subscription: a crossgrade charges nothing, so it applies now", { ...monthlySub, ...pix }, cur, offer(2000, "MONTH"), MID,
    { kind: "crossgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["Pix subscription: a proration below the minimum applies now, free", { ...monthlySub, ...pix }, cur, offer(2150, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],

  // --- Monthly to yearly ---
  // annualized 24 000 → 30 000 rises; credit 2000 × 14/28 = 1000; charge 30 000 − 1000 = 29 000; a year from Feb 14 (anchor 14)
  ["monthly → yearly, rising: yearly price less the credit, a yearly cycle from now", monthlySub, cur, offer(30_000, "YEAR"), MID,
    { kind: "interval_change", effect: "immediate", chargeCents: c(29_000), appliesAt: d(MID),
      period: { start: d(MID), end: d("2028-02-14T00:00:00.000Z"), anchorDay: 14 } }],
  // period Feb 29 → Mar 29 2028 (29 d), now Feb 29 12:00: 28.5 d left; credit 2000 × 28.5/29 = 1965.52 → 1966;
  // charge 30 000 − 1966 = 28 034; the yearly cycle keeps anchor 29 and ends Feb 28 2029
  ["monthly → yearly on a leap day: anchor 29, the cycle ends Feb 28 2029",
    { ...monthlySub, currentPeriodStart: d("2028-02-29T00:00:00.000Z"), currentPeriodEnd: d("2028-03-29T00:00:00.000Z") },
    cur, offer(30_000, "YEAR"), "2028-02-29T12:00:00.000Z",
    { kind: "interval_change", effect: "immediate", chargeCents: c(28_034), appliesAt: d("2028-02-29T12:00:00.000Z"),
      period: { start: d("2028-02-29T12:00:00.000Z"), end: d("2029-02-28T12:00:00.000Z"), anchorDay: 29 } }],
  // 12 × 2000 = 24 000 = 24 000: a tie across intervals waits
  ["monthly → yearly at the same annualized value: scheduled", monthlySub, cur, offer(24_000, "YEAR"), MID,
    { kind: "interval_change", effect: "scheduled", chargeCents: c(0), appliesAt: END }],
  ["monthly → yearly, falling: scheduled", monthlySub, cur, offer(20_000, "YEAR"), MID,
    { kind: "interval_change", effect: "scheduled", chargeCents: c(0), appliesAt: END }],
  ["monthly → yearly on Pix: it charges, so it is scheduled", { ...monthlySub, ...pix }, cur, offer(30_000, "YEAR"), MID,
    { kind: "interval_change", effect: "scheduled", chargeCents: c(0), appliesAt: END }],
  // charge 29 000 < minimum 30 000: applies free, the yearly cycle still starts now
  ["monthly → yearly below the gateway minimum: a free yearly cycle from now", { ...monthlySub, minimumChargeCents: c(30_000) }, cur, offer(30_000, "YEAR"), MID,
    { kind: "interval_change", effect: "immediate", chargeCents: c(0), appliesAt: d(MID),
      period: { start: d(MID), end: d("2028-02-14T00:00:00.000Z"), anchorDay: 14 } }],

  // --- Yearly to monthly ---
  // annualized 12 000 → 13 200 rises; credit 12 000 × 181/365 = 5950.68 → 5951; the month from Aug 31 ends Sep 30
  // (30 d = 2 592 000 s); 2 592 000 × 5951/1100 = 14 022 720 s = 162 d 7 h 12 min → Feb 9 2029 07:12, anchor 9
  ["yearly → monthly, rising: the credit becomes time at the new price, no charge", yearlySub, curYear, offer(1100, "MONTH"), YEAR_NOW,
    { kind: "interval_change", effect: "immediate", chargeCents: c(0), appliesAt: d(YEAR_NOW),
      period: { start: d(YEAR_NOW), end: d("2029-02-09T07:12:00.000Z"), anchorDay: 9 } }],
  ["yearly → monthly, rising, on Pix: no charge, so it applies now", { ...yearlySub, ...pix }, curYear, offer(1100, "MONTH"), YEAR_NOW,
    { kind: "interval_change", effect: "immediate", chargeCents: c(0), appliesAt: d(YEAR_NOW),
      period: { start: d(YEAR_NOW), end: d("2029-02-09T07:12:00.000Z"), anchorDay: 9 } }],
  // 12 × 1000 = 12 000: tie
  ["yearly → monthly at the same annualized value: scheduled", yearlySub, curYear, offer(1000, "MONTH"), YEAR_NOW,
    { kind: "interval_change", effect: "scheduled", chargeCents: c(0), appliesAt: YEAR_END }],
  // 12 × 999 = 11 988 < 12 000
  ["yearly → monthly, falling: scheduled", yearlySub, curYear, offer(999, "MONTH"), YEAR_NOW,
    { kind: "interval_change", effect: "scheduled", chargeCents: c(0), appliesAt: YEAR_END }],

  // --- Another gateway: a payment link, less the unused part of the period ---
  // credit 2000 × 14/28 = 1000; link 5000 − 1000 = 4000
  ["another gateway: a payment link at the new price less the credit", monthlySub, cur, offer(5000, "MONTH", "gw_b"), MID,
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(4000) }],
  ["another gateway comes first, even with another interval", monthlySub, cur, offer(30_000, "YEAR", "gw_b"), MID,
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(29_000) }],
  ["another gateway on Pix without a card: still a link (no card crosses gateways)", { ...monthlySub, ...pix }, cur, offer(5000, "MONTH", "gw_b"), MID,
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(4000) }],
  // credit 1000 > 800: the link never drops below 1 cent
  ["another gateway, credit above the new price: the link costs 1 cent", monthlySub, cur, offer(800, "MONTH", "gw_b"), MID,
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(1) }],
  ["another gateway, credit equal to the new price: the link costs 1 cent", monthlySub, cur, offer(1000, "MONTH", "gw_b"), MID,
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(1) }],
  ["another gateway during a trial: no credit, the full price", { ...monthlySub, ...trial }, cur, offer(5000, "MONTH", "gw_b"), MID,
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(5000) }],
  ["another gateway once the period has ended: no credit", monthlySub, cur, offer(5000, "MONTH", "gw_b"), "2027-02-28T00:00:00.000Z",
    { kind: "gateway_migration", effect: "payment_link", chargeCents: c(0), appliesAt: null, linkPriceCents: c(5000) }],

  // --- Nothing paid for this period: every change applies now, free ---
  ["trial, pricier: applies now, free", { ...monthlySub, ...trial }, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["trial, cheaper: applies now, not at the period end", { ...monthlySub, ...trial }, cur, offer(1000, "MONTH"), MID,
    { kind: "downgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["trial, monthly → yearly: applies now, free, no new cycle", { ...monthlySub, ...trial }, cur, offer(30_000, "YEAR"), MID,
    { kind: "interval_change", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["trial on Pix without a card, pricier: applies now, free", { ...monthlySub, ...trial, ...pix }, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["active without period dates: applies now, free", { ...monthlySub, currentPeriodStart: null, currentPeriodEnd: null }, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["active with only a start date: applies now, free", { ...monthlySub, currentPeriodEnd: null }, cur, offer(5000, "MONTH"), MID,
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d(MID) }],
  ["active, period ended at now (renewal pending): applies now, free", monthlySub, cur, offer(5000, "MONTH"), "2027-02-28T00:00:00.000Z",
    { kind: "upgrade", effect: "immediate", chargeCents: c(0), appliesAt: d("2027-02-28T00:00:00.000Z") }],
  ["active, period ended before now, cheaper: applies now, not scheduled in the past", monthlySub, cur, offer(1000, "MONTH"), "2027-03-02T00:00:00.000Z",
    { kind: "downgrade", effect: "immediate", chargeCents: c(0), appliesAt: d("2027-03-02T00:00:00.000Z") }],
];

describe("decidePlanChange", () => {
  it.each(rows)("%s", (_name, sub, current, target, now, expected) => {
    const got = decidePlanChange(sub, current, target, d(now));
    expect(got).toEqual(expected);
    expect(Number.isSafeInteger(got.chargeCents)).toBe(true);
    if (got.linkPriceCents !== undefined) expect(Number.isSafeInteger(got.linkPriceCents)).toBe(true);
    // A decision without a new cycle carries no `period` key at all (the change keeps the current period).
    if (!expected.period) expect(got).not.toHaveProperty("period");
  });
});

describe("minimumChargeOf (the gateway account's capabilities)", () => {
  it.each([
    ["no capabilities (undefined): no minimum", undefined, 0],
    ["no capabilities (null): no minimum", null, 0],
    ["capabilities without the key: no minimum", {}, 0],
    ["a partial record with the key", { minimumChargeCents: 100 }, 100],
    ["an explicit zero", { minimumChargeCents: 0 }, 0],
    ["the sandbox defaults", { sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: false, minimumChargeCents: 100, supportsPix: true, supportsCard: true }, 100],
  ])("%s → %i", (_name, capabilities, expected) => {
    expect(minimumChargeOf(capabilities)).toBe(expected);
  });

  it.each([
    ["a negative minimum", { minimumChargeCents: -1 }],
    ["a fractional minimum", { minimumChargeCents: 1.5 }],
    ["a minimum given as text", { minimumChargeCents: "100" }],
    ["a wrongly typed other capability", { supportsPix: "yes" }],
  ])("refuses %s (malformed capabilities are not read as 0)", (_name, capabilities) => {
    expect(() => minimumChargeOf(capabilities)).toThrow();
  });
});
