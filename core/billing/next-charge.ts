// Pure maths for the amount of the next cycle: offer price less the active coupon. Integer cents only.

export interface CouponTerms {
  percentOff: number | null;
  amountOffCents: number | null;
  /** Discounted cycles left; null = forever. */
  cyclesRemaining: number | null;
}

/** Discount of one cycle, rounded half up, never more than the price. */
export function couponDiscountCents(priceCents: number, coupon: CouponTerms | null): number {
  if (!coupon || coupon.cyclesRemaining === 0) return 0;
  let discount = 0;
  if (coupon.percentOff) discount = Math.floor((priceCents * coupon.percentOff + 50) / 100);
  else if (coupon.amountOffCents) discount = coupon.amountOffCents;
  return Math.min(priceCents, Math.max(0, discount));
}

export function nextChargeAmountCents(priceCents: number, coupon: CouponTerms | null): number {
  return priceCents - couponDiscountCents(priceCents, coupon);
}
