// PCI SAQ A on the hosted pages: for an offer at Stripe the card is typed into Stripe.js' own iframe
// and the page posts only the PaymentMethod id (payment_method_id). This file decides which library
// the page loads and the CSP that lets exactly that provider in; sandbox pages keep the script-less CSP.
import { randomBytes } from "node:crypto";
import type { Response } from "express";
import type { Runtime } from "../../core/runtime.ts";

/** Stripe's origins for Stripe.js (docs.stripe.com, "Content Security Policy"). */
const STRIPE = { script: "https://js.stripe.com", scriptUrl: "https://js.stripe.com/v3/", frame: ["https://js.stripe.com", "https://hooks.stripe.com"], connect: ["https://api.stripe.com"] };

export interface BrowserCard {
  provider: "stripe";
  /** pk_…: public by nature (it ships to every browser); stored with the credentials. */
  publishableKey: string;
  scriptUrl: string;
  /** Per response: only the page's one inline script carries it; the library is let in by its origin alone. */
  nonce: string;
  csp: { script: string[]; frame: string[]; connect: string[] };
}

/** Providers whose card is tokenized in the browser: the form has no card fields. */
export function tokenizesInBrowser(provider: string): boolean {
  return provider === "stripe";
}

/**
 * The browser library for the offer's gateway account, or null for the sandbox. A Stripe account
 * without a publishable key cannot take cards (null card: the caller drops the card method).
 * With GATEWAY_ALLOW_BASE_URL_OVERRIDE the library and its frames come from the account's apiBaseUrl
 * (the tests' fake, which serves a stand-in at /v3/).
 */
export async function browserCardFor(runtime: Runtime, account: { id: string; tenantId: string; provider: string }): Promise<BrowserCard | null> {
  if (!tokenizesInBrowser(account.provider)) return null;
  const { credentials, apiBaseUrl } = await runtime.gateways.credentials(account);
  const publishableKey = credentials.publishableKey;
  if (typeof publishableKey !== "string" || !/^pk_(test|live)_[A-Za-z0-9]+$/.test(publishableKey)) return null;
  const nonce = randomBytes(16).toString("base64");
  if (apiBaseUrl && runtime.config.allowGatewayBaseUrlOverride) {
    const origin = new URL(apiBaseUrl).origin;
    return { provider: "stripe", publishableKey, scriptUrl: `${origin}/v3/`, nonce, csp: { script: [origin], frame: [origin], connect: [origin] } };
  }
  return { provider: "stripe", publishableKey, scriptUrl: STRIPE.scriptUrl, nonce, csp: { script: [STRIPE.script], frame: STRIPE.frame, connect: STRIPE.connect } };
}

/**
 * Replaces the hosted pages' CSP (send-page.ts) for a page that loads the provider's library: the same
 * policy plus exactly the provider's script, frame and connect origins and the page's nonce.
 */
export function setBrowserCardCsp(res: Response, runtime: Runtime, card: BrowserCard): void {
  const img = ["'self'"];
  try {
    img.push(new URL(runtime.config.publicUrl).origin);
  } catch {
    /* same-origin images only */
  }
  const directives = [
    "default-src 'none'",
    `script-src 'nonce-${card.nonce}' ${card.csp.script.join(" ")}`,
    `frame-src ${card.csp.frame.join(" ")}`,
    `connect-src ${card.csp.connect.join(" ")}`,
    "style-src 'unsafe-inline'",
    `img-src ${img.join(" ")}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  res.set("Content-Security-Policy", directives.join(";"));
}

/** The page's inline script: mounts the card element and, on submit with card chosen, posts only the pm_ id. */
export function browserCardScript(): string {
  return `(function () {
  var form = document.querySelector("form[data-browser-card]");
  var stripe = Stripe(form.getAttribute("data-publishable-key"));
  var cardElement = stripe.elements().create("card");
  cardElement.mount("#card-element");
  var busy = false;
  form.addEventListener("submit", function (ev) {
    var chosen = form.querySelector("input[name=method]:checked");
    if (chosen && chosen.value !== "card") return;
    ev.preventDefault();
    if (busy) return;
    busy = true;
    var err = document.getElementById("e-card-element");
    stripe.createPaymentMethod({ type: "card", card: cardElement }).then(function (r) {
      busy = false;
      if (r.error || !r.paymentMethod) { err.textContent = "verifique os dados do cartão"; return; }
      form.querySelector("input[name=payment_method_id]").value = r.paymentMethod.id;
      form.submit();
    });
  });
})();`;
}
