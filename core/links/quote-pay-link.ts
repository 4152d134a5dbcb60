// What a /pay link charges and what comes next, computed once for the page's order summary from the
// same values the payment uses: a renewal charges the link's price and moves the period as a paid
// renewal order does (renewedPeriodEnd); an open invoice charges its amount and, when discounted,
// spends one coupon cycle (the billing run's rule); a card change charges nothing. The next charge is
// the subscription's next cycle with its coupon (nextChargeAmountCents, as the billing run bills it).
// Pure: the subscription, its coupon and the charge in.
import { afterDiscountedCycle, couponDiscountCents, nextChargeAmountCents, type CouponTerms } from "../shared/next-charge.ts";
import { cents } from "../shared/money.ts";
import type { OrderFigures } from "../shared/order-figures.ts";
import { renewedPeriodEnd, type Interval } from "../shared/periods.ts";

export interface PayQuoteInput {
  subscription: {
    status: string;
    currency: string;
    interval: Interval;
    /** The current offer's price per cycle. */
    priceCents: number;
    /** The next cycle's price: a scheduled plan change's offer, else the current one. */
    nextPriceCents: number;
    currentPeriodEnd: Date;
    anchorDay: number | null;
    trialEndsAt: Date | null;
  };
  /** The subscription's active coupon, with the cycles it has left. */
  coupon: { code: string; percentOff: number | null; amountOffCents: number | null; cyclesRemaining: number | null } | null;
  /** What paying on this page charges. */
  charge:
    | { kind: "renewal"; amountCents: number; bonus: { cycles: number; unit: string } | null }
    | { kind: "invoice"; amountCents: number; discountCents: number; periodEnd: Date }
    | { kind: "none" };
}

export function quotePayLink({ subscription: s, coupon, charge }: PayQuoteInput): OrderFigures {
  const terms: CouponTerms | null = coupon && coupon.cyclesRemaining !== 0 ? { percentOff: coupon.percentOff, amountOffCents: coupon.amountOffCents, cyclesRemaining: coupon.cyclesRemaining } : null;
  const price = cents(s.priceCents);
  const discount = couponDiscountCents(price, terms);
  const shownCoupon =
    coupon && terms
      ? { code: coupon.code, percentOff: coupon.percentOff, amountOffCents: coupon.amountOffCents, cycles: coupon.cyclesRemaining, discountCents: discount, discountedPriceCents: cents(price - discount), running: true }
      : null;
  const base = { priceCents: price, currency: s.currency, interval: s.interval, coupon: shownCoupon, trialEndsAt: null };
  const anchor = s.anchorDay ?? s.currentPeriodEnd.getUTCDate();
  switch (charge.kind) {
    case "renewal":
      // A renewal order spends no coupon cycle: the next cycle is billed as it would have been.
      return {
        ...base,
        todayCents: cents(charge.amountCents),
        nextChargeAt: renewedPeriodEnd(s.currentPeriodEnd, s.interval, anchor, 1, charge.bonus),
        nextChargeCents: nextChargeAmountCents(cents(s.nextPriceCents), terms),
      };
    case "invoice": {
      // A paid discounted invoice uses up one coupon cycle.
      let after = terms;
      if (terms && charge.discountCents > 0) {
        const left = afterDiscountedCycle(terms.cyclesRemaining);
        after = left.active ? { ...terms, cyclesRemaining: left.cyclesRemaining } : null;
      }
      return { ...base, todayCents: cents(charge.amountCents), nextChargeAt: charge.periodEnd, nextChargeCents: nextChargeAmountCents(cents(s.nextPriceCents), after) };
    }
    case "none": {
      const trial = s.status === "TRIALING" && s.trialEndsAt ? s.trialEndsAt : null;
      return { ...base, trialEndsAt: trial, todayCents: cents(0), nextChargeAt: trial ?? s.currentPeriodEnd, nextChargeCents: nextChargeAmountCents(cents(s.nextPriceCents), terms) };
    }
  }
}
