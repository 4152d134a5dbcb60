// Mercado Pago's test cards and how its test environment decides an outcome: by the cardholder NAME
// typed with the card (mercadopago.com.br/developers/en/docs/checkout-api/integration-test/test-cards):
// APRO approved, OTHE rejected (general error), CONT pending, CALL rejected (call to authorize), FUND
// insufficient amount, SECU invalid security code, EXPI expiration date, FORM form error. The numbers are
// the documented Brazilian test cards; the fake derives brand, BIN and last four from them.

export type CardBehaviour = "approve" | "other_reason" | "pending" | "call_for_authorize" | "insufficient_amount" | "bad_security_code" | "bad_expiration" | "bad_form";

/** Cardholder name -> what a payment with that card does (and status_detail of a rejection). */
export const HOLDER_BEHAVIOURS: Record<string, CardBehaviour> = {
  APRO: "approve",
  OTHE: "other_reason",
  CONT: "pending",
  CALL: "call_for_authorize",
  FUND: "insufficient_amount",
  SECU: "bad_security_code",
  EXPI: "bad_expiration",
  FORM: "bad_form",
};

export const STATUS_DETAIL: Record<Exclude<CardBehaviour, "approve" | "pending">, string> = {
  other_reason: "cc_rejected_other_reason",
  call_for_authorize: "cc_rejected_call_for_authorize",
  insufficient_amount: "cc_rejected_insufficient_amount",
  bad_security_code: "cc_rejected_bad_filled_security_code",
  bad_expiration: "cc_rejected_bad_filled_date",
  bad_form: "cc_rejected_bad_filled_other",
};

/** The documented test numbers -> payment_method_id (Mercado Pago's brand ids). */
export const TEST_NUMBERS: Record<string, { paymentMethodId: string; issuer: string }> = {
  "5031433215406351": { paymentMethodId: "master", issuer: "Mastercard" },
  "4235647728025682": { paymentMethodId: "visa", issuer: "Visa" },
  "375365153556885": { paymentMethodId: "amex", issuer: "American Express" },
  "5067766783888311": { paymentMethodId: "elo", issuer: "Elo" },
};
