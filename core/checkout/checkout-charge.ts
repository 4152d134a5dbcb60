// The checkout's card steps, shared by subscriptions and orders: tokenize the typed card, then the
// first charge. A refusal names the card_number field with one generic pt-BR text (refusal-texts.ts);
// a timeout is settled on the spot by asking the gateway, never guessed.
import type { Verdict } from "../billing/settle-payment.ts";
import { askChargeOutcome } from "../gateways/ask-charge-outcome.ts";
import { chargeCard, savePaymentMethod, tokenizeCard, type GatewayCallContext } from "../gateways/gateway-calls.ts";
import { fieldError } from "./checkout-guards.ts";
import type { CheckoutInput } from "./checkout-input.ts";
import type { SavedCard } from "./create-checkout-records.ts";
import { announceCharge, dropChargeIntent } from "./checkout-charge-intent.ts";
import { authenticationNeeded, declineText } from "./refusal-texts.ts";
import { cents } from "../shared/money.ts";
import { logGatewayEvents, type GatewayEventInput } from "../gateways/log-gateway-event.ts";

/** A checkout Pix QR is payable for one day; unpaid, the pending subscription is canceled (an order stays pending). */
export const CHECKOUT_PIX_TTL_MS = 86_400_000;

/**
 * `customer`: our cus_ id, under which a real gateway keeps its customer (browser-tokenized cards only),
 * and whether it is new (not written yet). Answers the saved card and the customer id to write: after a
 * 3-D Secure challenge a new customer keeps the cus_ id minted on the first post (the one the provider's
 * record carries), so the provider's customer and ours stay one. `chargeFollows`: the first charge comes right
 * after (no trial), which a provider with single-use browser tokens pays before saving the card; its
 * gateway row is then held (`log`) for chargeAtCheckout to write with the charge's announcement, and
 * written at once when the card is refused.
 */
export async function tokenize(
  gw: GatewayCallContext,
  reference: string,
  input: CheckoutInput,
  customer: { id: string; isNew: boolean },
  chargeFollows: boolean,
): Promise<{ card: SavedCard; customerId: string; log: GatewayEventInput[] }> {
  const log: GatewayEventInput[] = [];
  const call: GatewayCallContext = chargeFollows ? { ...gw, log: (e) => void log.push(e) } : gw;
  try {
    const authentication = input.paymentMethodId && input.authenticationId ? { handle: input.authenticationId, newCustomer: customer.isNew } : null;
    const result = input.paymentMethodId
      ? await savePaymentMethod(call, reference, { paymentMethodId: input.paymentMethodId, customerRef: customer.id, email: input.email, name: input.name, authentication, chargeFollows })
      : await tokenizeCard(call, reference, input.card!);
    // 3-D Secure at setup: the page runs the provider's challenge with next_action and posts again.
    if (!result.ok && result.code === "authentication_required" && result.nextAction && !authentication) throw authenticationNeeded(result.nextAction);
    if (!result.ok) throw fieldError("card_number", declineText(result.code));
    let customerId = customer.id;
    if (customer.isNew && result.customerRef && result.customerRef !== customer.id) {
      // Never adopt an id a customer row already has (a second completion of the same challenge).
      if (await gw.prisma.customer.findUnique({ where: { id: result.customerRef }, select: { id: true } })) throw fieldError("card_number", declineText("authentication_failed"));
      customerId = result.customerRef;
    }
    return { card: { token: result.token, brand: result.brand, last4: result.last4, expMonth: result.expMonth, expYear: result.expYear }, customerId, log };
  } catch (err) {
    await logGatewayEvents(gw.prisma, log);
    throw err;
  }
}

/**
 * The first charge, announced first (checkout-charge-intent.ts): `wallNow` dates the intent, written with
 * `tokenizeLog` (tokenize's held rows). Answers the approved verdict, which the caller settles with the
 * sale's records (settle-payment.ts).
 */
export async function chargeAtCheckout(
  gw: GatewayCallContext,
  card: SavedCard,
  amountCents: number,
  currency: string,
  reference: string,
  idempotencyKey: string,
  wallNow: Date,
  tokenizeLog: GatewayEventInput[] = [],
): Promise<Verdict> {
  await announceCharge(gw.prisma, { tenantId: gw.account.tenantId, gatewayAccountId: gw.account.id, idempotencyKey, reference, amountCents, at: wallNow }, tokenizeLog);
  let result = await chargeCard(gw, { token: card.token, amountCents: cents(amountCents), currency, idempotencyKey, reference });
  if (result.outcome === "unknown") {
    // A charge the gateway never got stays unknown here: the customer is asked to try again.
    const asked = await askChargeOutcome(gw, reference, idempotencyKey);
    if (asked && !asked.neverReceived) result = asked.verdict;
  }
  if (result.outcome === "approved") return result;
  if (result.outcome === "declined") await dropChargeIntent(gw.prisma, idempotencyKey);
  if (result.outcome === "unknown") throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
  throw fieldError("card_number", declineText(result.detailCode));
}
