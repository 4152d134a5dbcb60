// Shared rules of the /pay links of a subscription: lifetime, what the offer takes, the public URL.
import type { Runtime } from "../runtime.ts";

/** Payment-method and renewal links live 7 days on the tenant's clock (billing-api.md Limits). */
export const SUBSCRIPTION_LINK_TTL_MS = 7 * 86_400_000;

interface OfferWithAccount {
  collectionMethods: string[];
  gatewayAccount: { capabilities: unknown; provider?: string };
}

export interface OfferPayMethods {
  card: boolean;
  pix: boolean;
  capturesCardOnlyOnPaymentPage: boolean;
}

/** Which methods the offer and its gateway take on a /pay page. */
export function offerPayMethods(offer: OfferWithAccount): OfferPayMethods {
  const caps = (offer.gatewayAccount.capabilities ?? {}) as { supportsPix?: boolean; supportsCard?: boolean; capturesCardOnlyOnPaymentPage?: boolean };
  return {
    card: offer.collectionMethods.includes("CARD_AUTO") && caps.supportsCard !== false,
    pix: offer.collectionMethods.includes("PIX_MANUAL") && caps.supportsPix !== false,
    capturesCardOnlyOnPaymentPage: caps.capturesCardOnlyOnPaymentPage === true,
  };
}

/**
 * The methods a /pay page takes: the offer's. A card at a gateway that tokenizes in the browser is typed
 * only into the provider's own field (PCI SAQ A): the page loads that provider's script, and when it
 * cannot (no tokenizer, no public key) the hosted router takes the card method off the page.
 */
export function payPageMethods(offer: OfferWithAccount): OfferPayMethods {
  return offerPayMethods(offer);
}

/**
 * Gateways whose card is tokenized by their browser library: our pages never take the number. Every
 * real gateway (PCI SAQ A); only the sandbox takes a typed card (test cards only). Which library a
 * page loads is the hosted pages' registry (web/browser-tokenizers/).
 */
export function cardTypedInBrowser(provider: string | undefined): boolean {
  return provider !== undefined && provider !== "sandbox";
}

export function linkUrl(runtime: Runtime, path: string): string {
  return `${runtime.config.publicUrl}${path}`;
}
