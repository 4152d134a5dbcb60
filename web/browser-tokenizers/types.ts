// What a provider's browser tokenizer declares, so the hosted pages (checkout, /pay) can take a card
// at that provider without our server ever seeing the number (PCI SAQ A). One file per provider in this
// folder, one line in index.ts: pages, routers and the CSP code only ask the registry.

/** The origins a page may reach for the provider's library, each a scheme://host[:port] (no path). */
export interface CspOrigins {
  /** script-src: where the library's <script src> and its own loaders come from. */
  script: string[];
  /** frame-src: the provider's card iframes and its 3-D Secure / challenge frames. */
  frame: string[];
  /** connect-src: the provider's API the library calls from the browser (tokens, intents). */
  connect: string[];
  /** img-src additions (card brand logos served by the provider); omit when none. */
  img?: string[];
}

/** A form field the page's script fills and the server reads, with the value's whole pattern (anchored). */
export interface TokenField {
  name: string;
  pattern: RegExp;
}

/**
 * A provider whose card is tokenized in the browser by the provider's own script.
 *
 * How to add one (pagarme, mercadopago): write `browser-tokenizers/<provider>.ts` exporting a
 * `BrowserTokenizer`, add one line to the `TOKENIZERS` list in `index.ts`, and have the provider's
 * adapter implement `savePaymentMethod` (core/gateways/adapter.ts) for the token field's value. The
 * checkout and /pay then render no card fields for that provider's accounts, load `scriptUrl`
 * under a CSP of exactly `csp` plus the page's nonce, run `inlineScript()` (nonce'd), refuse any
 * posted `card_*` field (except `card_holder`) with 422, and hand the posted token to
 * `savePaymentMethod` as `paymentMethodId`.
 */
export interface BrowserTokenizer {
  /** The provider key, as in gateway_accounts.provider and the adapter's `provider` ("stripe"). */
  readonly provider: string;
  /**
   * The credentials field (createGatewayAccount's `credentials`) holding the provider's PUBLIC key, and
   * that key's pattern. An account without a matching value takes no card on the pages (Pix only).
   * The key is printed in the form's `data-public-key`: never name a secret field here.
   */
  readonly publicKey: { field: string; pattern: RegExp };
  /** The production library, loaded by `<script src>` (never bundled, never self-hosted). */
  readonly scriptUrl: string;
  /**
   * Attributes the library's own `<script src>` tag must carry when it loads (a library that reads its
   * configuration from its tag at load time: Pagar.me's `data-pagarmecheckout-app-id`). Values are escaped.
   */
  scriptAttributes?(publicKey: string): Record<string, string>;
  /** The production CSP origins, exactly what the library needs (from the provider's CSP documentation). */
  readonly csp: CspOrigins;
  /**
   * The test override: with GATEWAY_ALLOW_BASE_URL_OVERRIDE=true and an account `apiBaseUrl`, the page
   * loads the library and lets frames/connections reach only `origin` (the apiBaseUrl's origin: the
   * local fake, which serves a stand-in of the library). Return the stand-in's script URL and origins.
   */
  overridden(origin: string): { scriptUrl: string; csp: CspOrigins };
  /**
   * The hidden field the inline script fills with the provider's token and posts; the server refuses
   * (422, naming this field) anything not matching `pattern`. Stripe: `payment_method_id`, `pm_…`.
   */
  readonly tokenField: TokenField;
  /**
   * The page's one inline script (it runs with the page's nonce; keep it self-contained, no eval).
   * The page gives it, in the DOM:
   * - `form[data-browser-card]` with `data-public-key` (the public key) and `data-provider`;
   * - `#card-element`: an empty mount point for the provider's card field(s) (iframes of its origin);
   * - `#e-card-element`: where to write a refusal text (pt-BR) for the visitor;
   * - `input[name=<tokenField.name>]`: hidden, to fill before submitting;
   * - `input[name=method]` radios (card / pix) when both are offered: tokenize only when card is chosen;
   * - when the server asks for authentication (3-D Secure), the form also carries `data-next-action`
   *   (the provider's browser handle, e.g. Stripe's SetupIntent client_secret) and an empty hidden
   *   `authentication_id` input: the script runs the provider's challenge and, once it succeeds, fills
   *   `authentication_id` with that handle and submits; on failure it shows the error in `#e-card-element`.
   * On submit with card chosen: prevent the default, tokenize, fill the field, then `form.submit()`.
   */
  inlineScript(): string;
}
