// Pagar.me's tokenizecard.js (docs.pagar.me/docs/tokenizecard-js): the card goes from the visitor's browser
// straight to Pagar.me's POST /core/v5/tokens with the account's public key (pk_…), and only the token_…
// reaches us. Unlike Stripe.js it draws no iframe: the card inputs are plain inputs on our page, marked
// `data-pagarmecheckout-element` and given NO `name`, so the browser never posts them to us; the library
// reads them, gets the token and submits the form. (PCI: the page hosting these inputs is in the
// merchant's scope as SAQ A-EP, not SAQ A; SECURITY.md says so for Pagar.me.)
import type { BrowserTokenizer } from "./types.ts";

/** tokenizecard.js is served from checkout.pagar.me and calls api.pagar.me; it opens no frame. */
const CSP = {
  script: ["https://checkout.pagar.me"],
  frame: ["'none'"],
  connect: ["https://api.pagar.me"],
};

/**
 * Draws the card inputs (no `name`: never posted), hands the form to tokenizecard.js and, when Pix is
 * chosen instead, keeps the library out of that submit (our listener runs first and stops the others).
 */
const SCRIPT = `(function () {
  var form = document.querySelector("form[data-browser-card]");
  var box = document.getElementById("card-element");
  var err = document.getElementById("e-card-element");
  var rows = [
    ["holder_name", "Nome impresso no cartão", "cc-name", "text", 64],
    ["number", "Número do cartão", "cc-number", "numeric", 19],
    ["exp_month", "Mês de validade (MM)", "cc-exp-month", "numeric", 2],
    ["exp_year", "Ano de validade (AA)", "cc-exp-year", "numeric", 4],
    ["cvv", "Código de segurança (CVV)", "cc-csc", "numeric", 4]
  ];
  rows.forEach(function (r) {
    var label = document.createElement("label");
    label.textContent = r[1];
    var input = document.createElement("input");
    input.setAttribute("data-pagarmecheckout-element", r[0]);
    input.setAttribute("autocomplete", r[2]);
    input.setAttribute("inputmode", r[3]);
    input.setAttribute("maxlength", String(r[4]));
    input.id = "pagarme-" + r[0];
    label.htmlFor = input.id;
    box.appendChild(label);
    box.appendChild(input);
  });
  form.setAttribute("data-pagarmecheckout-form", "");
  form.addEventListener("submit", function (ev) {
    var chosen = form.querySelector("input[name=method]:checked");
    if (chosen && chosen.value !== "card") ev.stopImmediatePropagation();
    else err.textContent = "";
  });
  PagarmeCheckout.init(function (data) {
    if (!data || typeof data.id !== "string") { err.textContent = "verifique os dados do cartão"; return false; }
    form.querySelector("input[name=pagarme_token]").value = data.id;
    var extra = form.querySelectorAll("input[name^=pagarmetoken-]");
    Array.prototype.forEach.call(extra, function (e) { e.parentNode.removeChild(e); });
    return true;
  }, function () {
    err.textContent = "verifique os dados do cartão";
  });
})();`;

export const pagarmeTokenizer: BrowserTokenizer = {
  provider: "pagarme",
  publicKey: { field: "publicKey", pattern: /^pk_(test_)?[A-Za-z0-9]+$/ },
  scriptUrl: "https://checkout.pagar.me/v1/tokenizecard.js",
  // tokenizecard.js reads its app id (the public key) from its own tag as it loads: it must be there in the HTML.
  scriptAttributes: (publicKey) => ({ "data-pagarmecheckout-app-id": publicKey }),
  csp: CSP,
  // The fake serves its tokenizecard.js stand-in at /v1/tokenizecard.js and its /core/v5/tokens on the same origin.
  overridden: (origin) => ({ scriptUrl: `${origin}/v1/tokenizecard.js`, csp: { script: [origin], frame: ["'none'"], connect: [origin] } }),
  tokenField: { name: "pagarme_token", pattern: /^token_[A-Za-z0-9]{1,200}$/ },
  inlineScript: () => SCRIPT,
};
