// The registry of browser tokenizers: one line per provider whose card is typed only into its own
// script's fields (types.ts says what a tokenizer declares and how to add one).
import { mercadopagoTokenizer } from "./mercadopago.ts";
import { pagarmeTokenizer } from "./pagarme.ts";
import { stripeTokenizer } from "./stripe.ts";
import type { BrowserTokenizer } from "./types.ts";

const TOKENIZERS: BrowserTokenizer[] = [
  stripeTokenizer,
  pagarmeTokenizer,
  mercadopagoTokenizer,
];

const BY_PROVIDER = new Map(TOKENIZERS.map((t) => [t.provider, t]));

/** The provider's tokenizer, or undefined (sandbox: the card is typed on our own page, test cards only). */
export function browserTokenizer(provider: string | null | undefined): BrowserTokenizer | undefined {
  return provider ? BY_PROVIDER.get(provider) : undefined;
}

export type { BrowserTokenizer, CspOrigins, TokenField } from "./types.ts";
