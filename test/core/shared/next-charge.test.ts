import { describe, expect, it } from "vitest";
import { afterDiscountedCycle, chargeSchedule, couponDiscountCents, nextChargeAmountCents } from "../../../core/shared/next-charge.ts";
import { cents } from "../../../core/shared/money.ts";

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
    expect(nextChargeAmountCents(cents(price), coupon)).toBe(expected);
    expect(Number.isInteger(couponDiscountCents(cents(price), coupon))).toBe(true);
  });
});

describe("coupon discounts over N cycles", () => {
  const pct = (percentOff: number, cyclesRemaining: number | null) => ({ percentOff, amountOffCents: null, cyclesRemaining });
  const amt = (amountOffCents: number, cyclesRemaining: number | null) => ({ percentOff: null, amountOffCents, cyclesRemaining });
  it.each([
    ["no coupon", 4990, null, 3, [4990, 4990, 4990]],
    ["10% for 3 cycles", 4990, pct(10, 3), 5, [4491, 4491, 4491, 4990, 4990]],
    ["10% forever", 4990, pct(10, null), 4, [4491, 4491, 4491, 4491]],
    ["R$10 off for 1 cycle", 4990, amt(1000, 1), 3, [3990, 4990, 4990]],
    ["100% for 2 cycles", 4990, pct(100, 2), 4, [0, 0, 4990, 4990]],
    ["amount above price", 500, amt(1000, 2), 3, [0, 0, 500]],
    ["coupon already used up", 4990, pct(50, 0), 2, [4990, 4990]],
    ["yearly 25% once", 49900, pct(25, 1), 2, [37425, 49900]],
    ["half-up on .5", 4995, pct(10, 2), 3, [4495, 4495, 4995]],
  ] as const)("%s", (_name, price, coupon, n, expected) => {
    const schedule = chargeSchedule(cents(price), coupon, n);
    expect(schedule).toEqual(expected);
    expect(schedule.every(Number.isSafeInteger)).toBe(true);
  });

  it.each([
    [3, { cyclesRemaining: 2, active: true }],
    [1, { cyclesRemaining: 0, active: false }],
    [0, { cyclesRemaining: 0, active: false }],
    [null, { cyclesRemaining: null, active: true }],
  ] as const)("after a discounted cycle with %s left", (left, expected) => {
    expect(afterDiscountedCycle(left)).toEqual(expected);
  });
});
