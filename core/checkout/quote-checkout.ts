// What a subscription checkout charges, computed once: the page's order summary shows these figures
// and startCheckout charges them, so the two cannot disagree. Pure: offer, coupon and time in.
import type { Coupon } from "../../generated/prisma/client.ts";
import { chargeSchedule, type CouponTerms } from "../shared/next-charge.ts";
import { invoiceAmount, type InvoiceAmount } from "../shared/invoice-amount.ts";
import { cents, type Cents } from "../shared/money.ts";
import type { OrderFigures } from "../shared/order-figures.ts";
import { periodEnd, trialEnd, type Interval } from "../shared/periods.ts";

export interface QuoteInput {
  offer: { priceCents: number; currency: string; interval: "month" | "year" | null; trialDays: number };
  coupon: Pick<Coupon, "code" | "percentOff" | "amountOffCents" | "cycles"> | null;
  /** The tenant's business time (the checkout's clock). */
  now: Date;
}

export interface CheckoutQuote extends OrderFigures {
  /** The invoice billed at checkout (null in a trial) and the cycle it pays for. */
  firstInvoice: (InvoiceAmount & { periodEnd: Date }) | null;
}

export function quoteCheckout({ offer, coupon, now }: QuoteInput): CheckoutQuote {
  const price = cents(offer.priceCents);
  const interval: Interval = offer.interval === "year" ? "YEAR" : "MONTH";
  const terms: CouponTerms | null = coupon ? { percentOff: coupon.percentOff, amountOffCents: coupon.amountOffCents, cyclesRemaining: coupon.cycles } : null;
  // The billing run's own sequence: the first billed cycle spends the coupon's first cycle.
  const [first, second] = chargeSchedule(price, terms, 2) as [Cents, Cents];
  const discount = invoiceAmount(price, terms);
  const shownCoupon = coupon && {
    code: coupon.code,
    percentOff: coupon.percentOff,
    amountOffCents: coupon.amountOffCents,
    cycles: coupon.cycles,
    discountCents: discount.discountCents,
    discountedPriceCents: discount.amountCents,
  };
  if (offer.trialDays > 0) {
    const ends = trialEnd(now, offer.trialDays);
    return { priceCents: price, currency: offer.currency, interval, coupon: shownCoupon, trialEndsAt: ends, todayCents: cents(0), firstInvoice: null, nextChargeAt: ends, nextChargeCents: first };
  }
  const end = periodEnd(now, interval, now.getUTCDate());
  return {
    priceCents: price,
    currency: offer.currency,
    interval,
    coupon: shownCoupon,
    trialEndsAt: null,
    todayCents: first,
    firstInvoice: { ...discount, periodEnd: end },
    nextChargeAt: end,
    nextChargeCents: second,
  };
}
