// Card handling shared by the /pay kinds: tokenize the typed card (the number and CVC live only in
// memory until the adapter's tokenizer), the page's lease on a subscription so two submissions (or a
// submission and the billing run) never charge at once, and the refusal (one generic text, refusal-texts.ts).
import type { CardInput, TokenizeResult } from "../gateways/adapter.ts";
import { tokenizeCard, type GatewayCallContext } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";
import { declineText } from "../checkout/refusal-texts.ts";
import { AppError } from "../shared/errors.ts";

export function cardRefusal(code: string): AppError {
  return new AppError("invalid_field", { error: declineText(code), extra: { field: "card_number" } });
}

type Account = Parameters<typeof accountRef>[0] & { provider: string };

export function gatewayContext(runtime: Runtime, account: Account, now: Date, refs: { subscriptionId?: string | null; paymentId?: string | null; orderId?: string | null }): GatewayCallContext {
  return { prisma: runtime.db.prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), now, ...refs };
}

/** A saved-card token for the typed card, or the field refusal the page shows. */
export async function tokenizeOnPage(gw: GatewayCallContext, reference: string, card: CardInput): Promise<Extract<TokenizeResult, { ok: true }>> {
  const result = await tokenizeCard(gw, reference, card);
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
