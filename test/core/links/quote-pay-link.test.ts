// quotePayLink, the /pay page's figures, as a table: what each link charges today and the next charge,
// with a coupon's cycles spent or kept, a trial, a scheduled plan change and a renewal across day 31.
import { describe, expect, it } from "vitest";
import { quotePayLink, type PayQuoteInput } from "../../../core/links/quote-pay-link.ts";

const SUB: PayQuoteInput["subscription"] = {
  status: "ACTIVE",
  currency: "brl",
  interval: "MONTH",
  priceCents: 4990,
  nextPriceCents: 4990,
  currentPeriodEnd: new Date("2027-04-10T10:00:00.000Z"),
  anchorDay: 10,
  trialEndsAt: null,
};
const TEN = (cyclesRemaining: number | null) => ({ code: "BEMVINDO10", percentOff: 10, amountOffCents: null, cyclesRemaining });

describe("quotePayLink", () => {
  it.each<[string, Partial<PayQuoteInput["subscription"]>, PayQuoteInput["coupon"], PayQuoteInput["charge"], number, string, number]>([
    ["renewal at the link's price, coupon kept", {}, TEN(2), { kind: "renewal", amountCents: 4491, bonus: null }, 4491, "2027-05-10T10:00:00.000Z", 4491],
    ["renewal with a campaign's month of bonus", {}, null, { kind: "renewal", amountCents: 3000, bonus: { cycles: 1, unit: "month" } }, 3000, "2027-06-10T10:00:00.000Z", 4990],
    ["renewal from day 31 into February", { currentPeriodEnd: new Date("2027-01-31T10:00:00.000Z"), anchorDay: 31 }, null, { kind: "renewal", amountCents: 4990, bonus: null }, 4990, "2027-02-28T10:00:00.000Z", 4990],
    ["renewal across the year", { currentPeriodEnd: new Date("2027-12-10T10:00:00.000Z") }, null, { kind: "renewal", amountCents: 4990, bonus: null }, 4990, "2028-01-10T10:00:00.000Z", 4990],
    ["discounted invoice spends the coupon's last cycle", {}, TEN(1), { kind: "invoice", amountCents: 4491, discountCents: 499, periodEnd: new Date("2027-05-10T10:00:00.000Z") }, 4491, "2027-05-10T10:00:00.000Z", 4990],
    ["undiscounted invoice keeps the coupon", {}, TEN(1), { kind: "invoice", amountCents: 4990, discountCents: 0, periodEnd: new Date("2027-05-10T10:00:00.000Z") }, 4990, "2027-05-10T10:00:00.000Z", 4491],
    ["a forever coupon stays", {}, TEN(null), { kind: "invoice", amountCents: 4491, discountCents: 499, periodEnd: new Date("2027-05-10T10:00:00.000Z") }, 4491, "2027-05-10T10:00:00.000Z", 4491],
    ["card change: nothing today, next renewal", {}, TEN(1), { kind: "none" }, 0, "2027-04-10T10:00:00.000Z", 4491],
    ["card change in a trial: the trial's end", { status: "TRIALING", trialEndsAt: new Date("2027-03-17T10:00:00.000Z"), currentPeriodEnd: new Date("2027-03-17T10:00:00.000Z") }, null, { kind: "none" }, 0, "2027-03-17T10:00:00.000Z", 4990],
    ["a scheduled plan change prices the next cycle", { nextPriceCents: 9990 }, null, { kind: "none" }, 0, "2027-04-10T10:00:00.000Z", 9990],
  ])("%s", (_name, sub, coupon, charge, today, nextAt, next) => {
    const q = quotePayLink({ subscription: { ...SUB, ...sub }, coupon, charge });
    expect([q.todayCents, q.nextChargeAt.toISOString(), q.nextChargeCents]).toEqual([today, nextAt, next]);
  });

  it("shows a running coupon with its cycles left, and none once they are spent", () => {
    const q = quotePayLink({ subscription: SUB, coupon: TEN(2), charge: { kind: "none" } });
    expect(q.coupon).toEqual({ code: "BEMVINDO10", percentOff: 10, amountOffCents: null, cycles: 2, discountCents: 499, discountedPriceCents: 4491, running: true });
    expect(quotePayLink({ subscription: SUB, coupon: TEN(0), charge: { kind: "none" } }).coupon).toBeNull();
    expect(quotePayLink({ subscription: { ...SUB, status: "TRIALING", trialEndsAt: new Date("2027-03-17T10:00:00.000Z") }, coupon: null, charge: { kind: "none" } }).trialEndsAt?.toISOString()).toBe("2027-03-17T10:00:00.000Z");
  });
});
