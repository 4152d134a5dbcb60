// Amount of a cycle's invoice: the offer price less the active coupon (integer cents, branded).
import { cents, type Cents } from "./money.ts";
import { couponDiscountCents, type CouponTerms } from "./next-charge.ts";

export interface InvoiceAmount {
  amountCents: Cents;
  discountCents: Cents;
}

export function invoiceAmount(priceCents: Cents, coupon: CouponTerms | null): InvoiceAmount {
  const discountCents = cents(couponDiscountCents(priceCents, coupon));
  return { amountCents: cents(priceCents - discountCents), discountCents };
}
