// The fake's test payment methods, named as in Stripe's testing guide
// (https://docs.stripe.com/testing#cards, #declined-payments, #authentication-and-setup, #disputes).
// Stripe.js would turn the test card number into one of these; the server only ever sees the pm_ id.

export type CardBehaviour =
  | "approve"
  | "generic_decline"
  | "insufficient_funds"
  | "expired_card"
  | "charge_customer_fail"
  | "authentication_required"
  | "authentication_on_setup"
  | "authentication_then_insufficient_funds"
  | "dispute";

export interface TestCard {
  brand: string;
  last4: string;
  behaviour: CardBehaviour;
}

const visa = (last4: string, behaviour: CardBehaviour): TestCard => ({ brand: "visa", last4, behaviour });

export const TEST_PAYMENT_METHODS: Record<string, TestCard> = {
  pm_card_visa: visa("4242", "approve"),
  pm_card_mastercard: { brand: "mastercard", last4: "4444", behaviour: "approve" },
  // 4000000000000002: generic decline (the brief's shorter names are kept as aliases).
  pm_card_visa_chargeDeclined: visa("0002", "generic_decline"),
  pm_card_chargeDeclined: visa("0002", "generic_decline"),
  // 4000000000009995: insufficient funds; a zero-amount setup still succeeds.
  pm_card_visa_chargeDeclinedInsufficientFunds: visa("9995", "insufficient_funds"),
  pm_card_chargeDeclinedInsufficientFunds: visa("9995", "insufficient_funds"),
  // 4000000000000069: expired card.
  pm_card_chargeDeclinedExpiredCard: visa("0069", "expired_card"),
  // 4000000000000341: attaches to a customer, every charge declines.
  pm_card_chargeCustomerFail: visa("0341", "charge_customer_fail"),
  // 4000002760003184: 3-D Secure on every payment; off-session it is declined authentication_required.
  pm_card_authenticationRequired: visa("3184", "authentication_required"),
  // 4000002500003155: 3-D Secure to set it up (or for a one-time payment); once set up, later charges need none.
  pm_card_authenticationRequiredOnSetup: visa("3155", "authentication_on_setup"),
  // 4000008260003178: 3-D Secure, then every charge declines insufficient_funds.
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: visa("3178", "authentication_then_insufficient_funds"),
  // 4000000000003220: 3-D Secure 2 must be completed, for the setup and every payment.
  pm_card_threeDSecure2Required: visa("3220", "authentication_required"),
  // 4000000000000259: approved, then disputed (charge.dispute.created).
  pm_card_createDispute: visa("0259", "dispute"),
};
