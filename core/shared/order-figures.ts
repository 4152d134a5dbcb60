// The figures an order summary shows (web/ui/order-summary.tsx), whoever computed them: the checkout's
// quote (quote-checkout.ts) or a /pay link's (quote-pay-link.ts), each the calculation that charges.
import type { Cents } from "./money.ts";
import type { Interval } from "./periods.ts";

export interface OrderFigures {
  priceCents: Cents;
  currency: string;
  interval: Interval;
  /**
   * The coupon as it applies: its discount per cycle, for how many cycles (null = forever) and the price
   * after it. `running`: a subscription's coupon already in use, whose `cycles` are the ones left.
   */
  coupon: { code: string; percentOff: number | null; amountOffCents: number | null; cycles: number | null; discountCents: Cents; discountedPriceCents: Cents; running?: boolean } | null;
  /** Null without a trial. */
  trialEndsAt: Date | null;
  /** Charged now, on this page (0 in a trial or when only a card is saved). */
  todayCents: Cents;
  nextChargeAt: Date;
  nextChargeCents: Cents;
}
