// PCI SAQ A on the hosted pages: for an account at a provider with a browser tokenizer (Stripe.js, …)
// the card is typed into the provider's own iframe and the page posts only its token. This file asks
// the registry (browser-tokenizers/) which library the page loads and builds the CSP that lets exactly
// that provider in; sandbox pages keep the script-less CSP of send-page.ts.
import { randomBytes } from "node:crypto";
import type { Response } from "express";
import { CredentialsUnavailable } from "../../core/gateways/adapter.ts";
import type { Runtime } from "../../core/runtime.ts";
import { browserTokenizer, type BrowserTokenizer, type CspOrigins, type TokenField } from "../browser-tokenizers/index.ts";

export interface BrowserCard {
  provider: string;
  /** The provider's public key (Stripe pk_…): public by nature (it ships to every browser); stored with the credentials. */
  publicKey: string;
  scriptUrl: string;
  /** Attributes on the library's <script src> tag, there when it loads (BrowserTokenizer.scriptAttributes). */
  scriptAttributes: Record<string, string>;
  /** Per response: only the page's one inline script carries it; the library is let in by its origin alone. */
  nonce: string;
  csp: CspOrigins;
  /** The hidden field the script posts and its pattern. */
  tokenField: TokenField;
  /** The page's inline script (nonce'd). */
  script: string;
  /** Set when the server asks the browser to authenticate the card (3-D Secure): the provider's handle. */
  nextAction?: string | null;
}

/** Providers whose card is tokenized in the browser: the form has no card fields. */
export function tokenizesInBrowser(provider: string | null | undefined): boolean {
  return browserTokenizer(provider) !== undefined;
}

/** The token field a browser-tokenizing provider posts (null for the sandbox). */
export function browserTokenField(provider: string | null | undefined): TokenField | null {
  return browserTokenizer(provider)?.tokenField ?? null;
}

/**
 * The browser library for a gateway account, or null for the sandbox. An account whose public key is
 * missing or malformed cannot take cards (null card: the caller drops the card method).
 * With GATEWAY_ALLOW_BASE_URL_OVERRIDE the library and its frames come from the account's apiBaseUrl
 * (the tests' fake, which serves a stand-in of the provider's library).
 */
export async function browserCardFor(runtime: Runtime, account: { id: string; tenantId: string; provider: string }): Promise<BrowserCard | null> {
  const tokenizer = browserTokenizer(account.provider);
  if (!tokenizer) return null;
  // Credentials that cannot be opened (none stored, or sealed under a key this process lacks) take no card here, never a 500.
  const opened = await runtime.gateways.credentials(account).catch((err: unknown) => {
    if (err instanceof CredentialsUnavailable) return null;
    throw err;
  });
  if (!opened) return null;
  const { credentials, apiBaseUrl } = opened;
  const publicKey = credentials[tokenizer.publicKey.field];
  if (typeof publicKey !== "string" || !tokenizer.publicKey.pattern.test(publicKey)) return null;
  const nonce = randomBytes(16).toString("base64");
  const where = apiBaseUrl && runtime.config.allowGatewayBaseUrlOverride ? tokenizer.overridden(new URL(apiBaseUrl).origin) : { scriptUrl: tokenizer.scriptUrl, csp: tokenizer.csp };
  const scriptAttributes = tokenizer.scriptAttributes?.(publicKey) ?? {};
  return { provider: tokenizer.provider, publicKey, nonce, ...where, scriptAttributes, tokenField: tokenizer.tokenField, script: tokenizer.inlineScript() };
}

/**
 * Replaces the hosted pages' CSP (send-page.ts) for a page that loads the provider's library: the same
 * policy plus exactly the provider's script, frame, connect (and img) origins and the page's nonce.
 */
export function setBrowserCardCsp(res: Response, runtime: Runtime, card: BrowserCard): void {
  const img = ["'self'"];
  try {
    img.push(new URL(runtime.config.publicUrl).origin);
  } catch {
    /* same-origin images only */
  }
  img.push(...(card.csp.img ?? []));
  const directives = [
    "default-src 'none'",
    `script-src 'nonce-${card.nonce}' ${card.csp.script.join(" ")}`,
    `frame-src ${card.csp.frame.join(" ")}`,
    `connect-src ${card.csp.connect.join(" ")}`,
    "style-src 'unsafe-inline'",
    `img-src ${[...new Set(img)].join(" ")}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  res.set("Content-Security-Policy", directives.join(";"));
}

export type { BrowserTokenizer };
