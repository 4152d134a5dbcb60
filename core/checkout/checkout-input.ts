// What the hosted checkout hands to the core once the form is valid (service-contract §3).
import type { CardInput } from "../gateways/adapter.ts";
import type { CheckoutQuote } from "./quote-checkout.ts";

/** The contract's tracking object, as stored on the subscription. No IP, no user agent, no personal data. */
export interface Tracking {
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  gclid: string | null;
  fbclid: string | null;
  fbc: string | null;
  fbp: string | null;
  referrer: string | null;
  landing_url: string | null;
  params: Record<string, string>;
  captured_at: string;
  inherited: boolean;
}

/** Validated form fields (checkout-form.ts makes these from the raw body). */
export interface CheckoutFields {
  externalId: string | null;
  name: string;
  email: string;
  /** E.164 mobile. */
  phone: string;
  /** CPF or CNPJ, digits only, check digits valid. */
  doc: string;
  method: "card" | "pix";
  /** Present exactly when method is card. */
  card: CardInput | null;
  /** Browser-tokenized card (Stripe.js pm_ id) for offers at a real gateway: then `card` is null (PCI SAQ A). */
  paymentMethodId?: string | null;
  /** After the provider's 3-D Secure challenge in the browser: the handle it authenticated with (checked with the provider, never trusted). */
  authenticationId?: string | null;
  coupon: string | null;
  ref: string | null;
  /** Units bought; one-time offers only (always 1 for a subscription). */
  quantity: number;
}

export interface CheckoutInput extends CheckoutFields {
  offerId: string;
  tracking: Tracking | null;
}

export interface CheckoutPix {
  copyPaste: string;
  qrPngUrl: string;
  expiresAt: Date;
}

/** A subscription checkout answers active, trialing or pending_first_payment; an order paid or pending. */
export interface CheckoutResult {
  status: "active" | "trialing" | "pending_first_payment" | "paid" | "pending";
  /** The subscription born, or the one an early-renewal order extends; null for other orders. */
  subscriptionId: string | null;
  orderId: string | null;
  pix: CheckoutPix | null;
  /** Subscription checkouts: the figures charged (the result page's summary) and the card's brand and last 4. */
  quote?: CheckoutQuote;
  card?: { brand: string; last4: string } | null;
}
