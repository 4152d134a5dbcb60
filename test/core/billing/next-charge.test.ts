import { describe, expect, it } from "vitest";
import { couponDiscountCents, nextChargeAmountCents } from "../../../core/billing/next-charge.ts";

describe("next_charge_amount_cents", () => {
  it.each([
    // price, coupon, expected
    [4990, null, 4990],
    [4990, { percentOff: 10, amountOffCents: null, cyclesRemaining: 3 }, 4491], // 499 off, half up
    [4995, { percentOff: 10, amountOffCents: null, cyclesRemaining: 1 }, 4495], // 499.5 rounds up to 500
    [4990, { percentOff: 100, amountOffCents: null, cyclesRemaining: null }, 0],
    [4990, { percentOff: null, amountOffCents: 1000, cyclesRemaining: null }, 3990],
    [500, { percentOff: null, amountOffCents: 1000, cyclesRemaining: 2 }, 0], // never below zero
    [4990, { percentOff: 50, amountOffCents: null, cyclesRemaining: 0 }, 4990], // cycles used up
    [1, { percentOff: 50, amountOffCents: null, cyclesRemaining: 1 }, 0], // 0.5 rounds up to 1
  ])("price %i with %j is %i", (price, coupon, expected) => {
    expect(nextChargeAmountCents(price, coupon)).toBe(expected);
    expect(Number.isInteger(couponDiscountCents(price, coupon))).toBe(true);
  });
});
