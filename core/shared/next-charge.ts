// Pure maths for the amount of the next cycle: offer price less the active coupon. Integer cents only.
import { cents, type Cents } from "./money.ts";

export interface CouponTerms {
  percentOff: number | null;
  amountOffCents: number | null;
  /** Discounted cycles left; null = forever. */
  cyclesRemaining: number | null;
}

/** Discount of one cycle, rounded half up, never more than the price. */
export function couponDiscountCents(priceCents: Cents, coupon: CouponTerms | null): Cents {
  if (!coupon || coupon.cyclesRemaining === 0) return cents(0);
  let discount = 0;
  if (coupon.percentOff) discount = Math.floor((priceCents * coupon.percentOff + 50) / 100);
  else if (coupon.amountOffCents) discount = coupon.amountOffCents;
  return cents(Math.min(priceCents, Math.max(0, discount)));
}

export function nextChargeAmountCents(priceCents: Cents, coupon: CouponTerms | null): Cents {
  return cents(priceCents - couponDiscountCents(priceCents, coupon));
}

/** A discounted cycle was paid: one cycle fewer left (null = forever stays forever). Inactive at zero. */
export function afterDiscountedCycle(cyclesRemaining: number | null): { cyclesRemaining: number | null; active: boolean } {
  if (cyclesRemaining === null) return { cyclesRemaining: null, active: true };
  const left = Math.max(0, cyclesRemaining - 1);
  return { cyclesRemaining: left, active: left > 0 };
}

/** The amounts of the next `cycles` cycles for a coupon with `cyclesRemaining` left (the billing run's sequence). */
export function chargeSchedule(priceCents: Cents, coupon: CouponTerms | null, cycles: number): Cents[] {
  const out: Cents[] = [];
  let terms = coupon;
  for (let i = 0; i < cycles; i++) {
    const discount = couponDiscountCents(priceCents, terms);
    out.push(cents(priceCents - discount));
    if (terms && discount > 0) {
      const next = afterDiscountedCycle(terms.cyclesRemaining);
      terms = next.active ? { ...terms, cyclesRemaining: next.cyclesRemaining } : null;
    }
  }
  return out;
}
