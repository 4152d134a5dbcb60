// The checkout's quote, a table of cases: what is charged today and next, with coupons, trials and
// the calendar's edges (day 31, February 29, year boundary).
import { describe, expect, it } from "vitest";
import { quoteCheckout } from "../../../core/checkout/quote-checkout.ts";

const month = { priceCents: 4990, currency: "BRL", interval: "month" as const, trialDays: 0 };
const year = { ...month, priceCents: 49900, interval: "year" as const };
const pct = (percentOff: number, cycles: number | null) => ({ code: "C", percentOff, amountOffCents: null, cycles });
const off = (amountOffCents: number, cycles: number | null) => ({ code: "C", percentOff: null, amountOffCents, cycles });

describe("quoteCheckout", () => {
  it.each([
    ["monthly, no coupon", month, null, "2027-03-10T10:00:00.000Z", 4990, 4990, "2027-04-10T10:00:00.000Z"],
    ["10% for 3 cycles: the second is discounted too", month, pct(10, 3), "2027-03-10T10:00:00.000Z", 4491, 4491, "2027-04-10T10:00:00.000Z"],
    ["10% for 1 cycle: the next is full price", month, pct(10, 1), "2027-03-10T10:00:00.000Z", 4491, 4990, "2027-04-10T10:00:00.000Z"],
    ["forever", month, pct(50, null), "2027-03-10T10:00:00.000Z", 2495, 2495, "2027-04-10T10:00:00.000Z"],
    ["amount off above the price: nothing today", month, off(10000, 2), "2027-03-10T10:00:00.000Z", 0, 0, "2027-04-10T10:00:00.000Z"],
    ["day 31 -> February 28", month, null, "2027-01-31T12:00:00.000Z", 4990, 4990, "2027-02-28T12:00:00.000Z"],
    ["December -> January (year boundary)", month, null, "2027-12-15T12:00:00.000Z", 4990, 4990, "2028-01-15T12:00:00.000Z"],
    ["yearly from February 29 -> February 28", year, null, "2028-02-29T12:00:00.000Z", 49900, 49900, "2029-02-28T12:00:00.000Z"],
  ])("%s", (_name, offer, coupon, now, today, next, nextAt) => {
    const q = quoteCheckout({ offer, coupon, now: new Date(now) });
    expect([q.todayCents, q.nextChargeCents, q.nextChargeAt.toISOString()]).toEqual([today, next, nextAt]);
    expect(q.firstInvoice?.amountCents).toBe(today);
    expect(q.firstInvoice?.periodEnd.toISOString()).toBe(nextAt);
    expect(q.trialEndsAt).toBeNull();
  });

  it("a trial charges nothing today and the coupon's first cycle at its end", () => {
    const q = quoteCheckout({ offer: { ...month, trialDays: 7 }, coupon: pct(10, 3), now: new Date("2027-02-25T10:00:00.000Z") });
    expect(q).toMatchObject({ todayCents: 0, firstInvoice: null, nextChargeCents: 4491 });
    expect(q.trialEndsAt?.toISOString()).toBe("2027-03-04T10:00:00.000Z");
    expect(q.nextChargeAt).toEqual(q.trialEndsAt);
    expect(q.coupon).toMatchObject({ cycles: 3, discountCents: 499, discountedPriceCents: 4491 });
  });
});
