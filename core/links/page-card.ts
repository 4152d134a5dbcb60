// Card handling shared by the /pay kinds: read the card the page got (typed on a sandbox page, or the
// provider's browser token at a real gateway: PCI SAQ A), save it at the account it will be charged at
// (tokenizeCard / savePaymentMethod; the number and CVC of a typed card live only in memory until the
// adapter), the page's lease on a subscription so two submissions (or a submission and the billing run)
// never charge at once, and the refusal (one generic text, refusal-texts.ts).
import type { CardInput, TokenizeResult } from "../gateways/adapter.ts";
import { savePaymentMethod, tokenizeCard, type GatewayCallContext } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";
import { parseCardForm, postedCardData, type BrowserTokenSpec } from "../checkout/checkout-form.ts";
import { authenticationNeeded, declineText } from "../checkout/refusal-texts.ts";
import { AppError } from "../shared/errors.ts";
import { cardTypedInBrowser } from "./link-rules.ts";

/**
 * The card a /pay page got. `typed`: the sandbox's own form. `browser`: the provider's token
 * (Stripe: pm_…), and after a 3-D Secure challenge the handle the browser authenticated with.
 */
export type PageCard = { kind: "typed"; card: CardInput } | { kind: "browser"; paymentMethodId: string; authentication: string | null };

export function cardRefusal(code: string): AppError {
  return new AppError("invalid_field", { error: declineText(code), extra: { field: "card_number" } });
}

const NO_CARD_HERE = () => new AppError("invalid_field", { error: "forma de pagamento indisponível nesta oferta", extra: { field: "method" } });
/** A 3-D Secure handle as posted back (opaque; the adapter checks it with the provider). */
const HANDLE = /^[A-Za-z0-9_]{1,500}$/;

/**
 * PCI SAQ A: at an account whose card is typed in the provider's browser script, a posted card field
 * (number, expiry, CVC) is refused before anything is read, whatever the link or method.
 */
export function refusePostedCard(provider: string | undefined, body: Record<string, unknown>): void {
  if (!cardTypedInBrowser(provider)) return;
  const posted = postedCardData(body);
  if (posted) throw new AppError("invalid_field", { error: posted.error, extra: { field: posted.field } });
}

/**
 * The card in a /pay post, for a card saved at `provider`. `browserToken`: the field the page's
 * tokenizer posts (web/browser-tokenizers), or null when the page could load none
 * (then a real gateway takes no card here).
 */
export function readPageCard(body: Record<string, unknown>, now: Date, provider: string | undefined, browserToken: BrowserTokenSpec | null | undefined): PageCard {
  if (!cardTypedInBrowser(provider)) {
    const parsed = parseCardForm(body, now);
    if (!parsed.ok) throw new AppError("invalid_field", { error: parsed.error, extra: { field: parsed.field } });
    return { kind: "typed", card: parsed.card };
  }
  if (!browserToken) throw NO_CARD_HERE();
  const token = body[browserToken.name];
  if (typeof token !== "string" || token === "") throw new AppError("invalid_field", { error: "informe os dados do cartão", extra: { field: browserToken.name } });
  if (!browserToken.pattern.test(token)) throw new AppError("invalid_field", { error: "cartão inválido", extra: { field: browserToken.name } });
  const auth = body.authentication_id;
  const authentication = typeof auth === "string" && auth !== "" ? auth : null;
  if (authentication !== null && !HANDLE.test(authentication)) throw new AppError("invalid_field", { error: "cartão inválido", extra: { field: "authentication_id" } });
  return { kind: "browser", paymentMethodId: token, authentication };
}

type Account = Parameters<typeof accountRef>[0] & { provider: string };

export function gatewayContext(runtime: Runtime, account: Account, now: Date, refs: { subscriptionId?: string | null; paymentId?: string | null; orderId?: string | null }): GatewayCallContext {
  return { prisma: runtime.db.prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), now, ...refs };
}

/**
 * A saved-card token for the page's card at `gw`'s account, or the refusal the page shows. A browser
 * token is saved for the customer (their provider customer reused when they already hold a card at this
 * account); a card that wants 3-D Secure first is a 422 carrying next_action for the page's script.
 * `chargeFollows`: the page charges the card right after (see SavePaymentMethodRequest).
 */
export async function tokenizeOnPage(
  gw: GatewayCallContext,
  reference: string,
  card: PageCard,
  owner: { tenantId: string; customerId: string },
  opts: { chargeFollows: boolean },
): Promise<Extract<TokenizeResult, { ok: true }>> {
  let result: TokenizeResult;
  if (card.kind === "typed") {
    result = await tokenizeCard(gw, reference, card.card);
  } else {
    const customer = await gw.prisma.customer.findFirstOrThrow({ where: { id: owner.customerId, tenantId: owner.tenantId }, select: { id: true, name: true, email: true } });
    const held = await gw.prisma.paymentMethod.findFirst({
      where: { tenantId: owner.tenantId, customerId: owner.customerId, gatewayAccountId: gw.account.id },
      orderBy: { id: "desc" },
      select: { token: true },
    });
    result = await savePaymentMethod(gw, reference, {
      paymentMethodId: card.paymentMethodId,
      customerRef: customer.id,
      email: customer.email,
      name: customer.name,
      existingToken: held?.token ?? null,
      authentication: card.authentication ? { handle: card.authentication } : null,
      chargeFollows: opts.chargeFollows,
    });
  }
  if (!result.ok && result.code === "authentication_required" && result.nextAction && card.kind === "browser" && !card.authentication) throw authenticationNeeded(result.nextAction);
  if (!result.ok) throw cardRefusal(result.code);
  return result;
}

const LEASE_MS = 2 * 60_000;

/** Runs `fn` holding the subscription's billing lease (the billing run skips a leased row); 409 when held. */
export async function withSubscriptionLease<T>(runtime: Runtime, tenantId: string, subscriptionId: string, fn: () => Promise<T>): Promise<T> {
  const prisma = runtime.db.prisma;
  const wallNow = runtime.wallClock.now();
  const taken = await prisma.subscription.updateMany({
    where: { id: subscriptionId, tenantId, OR: [{ billingLeaseUntil: null }, { billingLeaseUntil: { lt: wallNow } }] },
    data: { billingLeaseUntil: new Date(wallNow.getTime() + LEASE_MS) },
  });
  if (taken.count !== 1) throw new AppError("conflict", { error: "um pagamento desta assinatura já está em andamento; tente novamente em instantes" });
  try {
    return await fn();
  } finally {
    await prisma.subscription.updateMany({ where: { id: subscriptionId, tenantId }, data: { billingLeaseUntil: null } });
  }
}
