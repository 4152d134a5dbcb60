// Amount of the next cycle's invoice: the offer price less the active coupon (integer cents).
import { couponDiscountCents, type CouponTerms } from "./next-charge.ts";

export interface InvoiceAmount {
  amountCents: number;
  discountCents: number;
}

export function invoiceAmount(priceCents: number, coupon: CouponTerms | null): InvoiceAmount {
  const discountCents = couponDiscountCents(priceCents, coupon);
  return { amountCents: priceCents - discountCents, discountCents };
}
