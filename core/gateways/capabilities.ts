// Capability record of a gateway adapter (service-contract §4). Sandbox accounts may override each value.
import { z } from "zod";

export const capabilitiesSchema = z.object({
  sumsPartialRefunds: z.boolean(),
  capturesCardOnlyOnPaymentPage: z.boolean(),
  minimumChargeCents: z.number().int().min(0),
  supportsPix: z.boolean(),
  supportsCard: z.boolean(),
});

export type Capabilities = z.infer<typeof capabilitiesSchema>;

export const ADAPTER_DEFAULTS: Record<string, Capabilities> = {
  sandbox: { sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: false, minimumChargeCents: 100, supportsPix: true, supportsCard: true },
  // Stripe's own values: R$0.50 minimum charge for BRL (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts);
  // several partial refunds up to the charge (docs.stripe.com/refunds); a card is saved without a charge
  // (SetupIntent, docs.stripe.com/payments/save-and-reuse); Pix for Brazilian accounts (docs.stripe.com/payments/pix).
  stripe: { sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: false, minimumChargeCents: 50, supportsPix: true, supportsCard: true },
  // Pagar.me v5: a card is saved to a customer's wallet from a tokenizecard.js token without a charge
  // (POST /customers/{id}/cards, docs.pagar.me/reference/criar-cartão); partial cancellations (DELETE
  // /charges/{id} with amount) add up to the charge, the charge staying paid until all of it is returned
  // (docs.pagar.me/v4/reference/estorno-parcial-de-uma-transação; v5: docs.pagar.me/reference/cancelar-cobrança);
  // Pix orders with expires_in up to 10 years (docs.pagar.me/reference/pix-2). Minimum: R$1.00, the floor
  // Brazilian acquirers apply to card charges (not stated on Pagar.me's v5 pages; conservative).
  pagarme: { sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: false, minimumChargeCents: 100, supportsPix: true, supportsCard: true },
  // Mercado Pago (Checkout API): a saved card is charged again only with its CVV captured anew on a page
  // (mercadopago.com.br/developers/en/docs/checkout-api/cards-and-customers-management/receive-payments-with-saved-cards);
  // card on file without CVV needs Automatic Payments, whose card is established by a payment too
  // (mercadopago.com.br/developers/en/docs/automatic-payments/recurring-charges): card captured only on a payment page.
  // Refunds: POST /v1/payments/{id}/refunds with amount, partial ones adding up to the payment
  // (mercadopago.com.br/developers/en/reference/chargebacks/_payments_id_refunds/post). Pix QR 30 min to 30 days,
  // 24 h by default (date_of_expiration, mercadopago.com.br/developers/en/docs/checkout-api/integration-configuration/integrate-pix).
  // Minimum: R$1.00 (not stated on Mercado Pago's pages; the floor Brazilian acquirers apply to card charges, conservative).
  mercadopago: { sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: true, minimumChargeCents: 100, supportsPix: true, supportsCard: true },
};

export const KNOWN_PROVIDERS = Object.keys(ADAPTER_DEFAULTS);

/**
 * Every provider a gateway account may name (GraphQL's GatewayProvider enum, lower-cased). An account
 * can be created only for a provider whose adapter this process runs (Gateways.has).
 */
export const GATEWAY_PROVIDERS = ["sandbox", "stripe", "pagarme", "mercadopago"] as const;
export type GatewayProvider = (typeof GATEWAY_PROVIDERS)[number];
