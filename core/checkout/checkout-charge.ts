// The checkout's card steps, shared by subscriptions and orders: tokenize the typed card, then the
// first charge. A refusal names the card_number field with one generic pt-BR text (refusal-texts.ts);
// a timeout is settled on the spot by asking the gateway, never guessed.
import { chargeCard, fetchChargeStatus, savePaymentMethod, tokenizeCard, type GatewayCallContext } from "../gateways/gateway-calls.ts";
import { fieldError } from "./checkout-guards.ts";
import type { CheckoutInput } from "./checkout-input.ts";
import type { SavedCard } from "./create-checkout-records.ts";
import { announceCharge, dropChargeIntent } from "./checkout-charge-intent.ts";
import { declineText } from "./refusal-texts.ts";
import { cents } from "../shared/money.ts";

/** A checkout Pix QR is payable for one day; unpaid, the pending subscription is canceled (an order stays pending). */
export const CHECKOUT_PIX_TTL_MS = 86_400_000;

/** `customerRef`: our cus_ id, under which a real gateway keeps its customer (browser-tokenized cards only). */
export async function tokenize(gw: GatewayCallContext, reference: string, input: CheckoutInput, customerRef = reference): Promise<SavedCard> {
  const result = input.paymentMethodId
    ? await savePaymentMethod(gw, reference, { paymentMethodId: input.paymentMethodId, customerRef, email: input.email, name: input.name })
    : await tokenizeCard(gw, reference, input.card!);
  if (!result.ok) throw fieldError("card_number", declineText(result.code));
  return { token: result.token, brand: result.brand, last4: result.last4, expMonth: result.expMonth, expYear: result.expYear };
}

/** The first charge, announced first (checkout-charge-intent.ts): `wallNow` dates the intent. */
export async function chargeAtCheckout(gw: GatewayCallContext, card: SavedCard, amountCents: number, currency: string, reference: string, idempotencyKey: string, wallNow: Date) {
  await announceCharge(gw.prisma, { tenantId: gw.account.tenantId, gatewayAccountId: gw.account.id, idempotencyKey, reference, amountCents, at: wallNow });
  let result = await chargeCard(gw, { token: card.token, amountCents: cents(amountCents), currency, idempotencyKey, reference });
  if (result.outcome === "unknown") {
    const status = await fetchChargeStatus(gw, reference, idempotencyKey);
    if (status?.outcome === "approved" || status?.outcome === "declined") result = { outcome: status.outcome, chargeId: status.chargeId, detailCode: status.detailCode };
  }
  if (result.outcome === "approved") return result.chargeId;
  if (result.outcome === "declined") await dropChargeIntent(gw.prisma, idempotencyKey);
  if (result.outcome === "unknown") throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
  throw fieldError("card_number", declineText(result.detailCode));
}
