// MercadoPago.js v2 with Secure Fields (mercadopago.com.br/developers/en/docs/checkout-api/integration-configuration/
// card/web-integration): card number, expiry and CVV typed in Mercado Pago's own iframes, mp.fields.createCardToken
// -> a card token (32 hex characters) posted as `mercadopago_token`; the server saves it to a Mercado Pago customer
// (savePaymentMethod). The cardholder name (Mercado Pago requires it) is typed in a plain field of the card box,
// unnamed so it is never posted; the holder's CPF/CNPJ comes from the form's `doc` (checkout), or from a field of
// the card box where the form has none (/pay), also unnamed.
import type { BrowserTokenizer } from "./types.ts";

/**
 * The origins MercadoPago.js v2 and its Secure Fields reach: the library (sdk.mercadopago.com), its static
 * assets (http2.mlstatic.com), the secure-field frames (api-static.mercadopago.com) and the API it tokenizes
 * against (api.mercadopago.com). Mercado Pago publishes no CSP list on its developer pages; these are the
 * library's own hosts, to be confirmed against a real page before production.
 */
const CSP = {
  script: ["https://sdk.mercadopago.com", "https://http2.mlstatic.com"],
  frame: ["https://api-static.mercadopago.com", "https://sdk.mercadopago.com"],
  connect: ["https://api.mercadopago.com", "https://api.mercadolibre.com"],
  img: ["https://http2.mlstatic.com"],
};

const SCRIPT = `(function () {
  var form = document.querySelector("form[data-browser-card]");
  var err = document.getElementById("e-card-element");
  var box = document.getElementById("card-element");
  var mp = new MercadoPago(form.getAttribute("data-public-key"), { locale: "pt-BR" });
  var holder = document.createElement("input");
  holder.id = "mp-cardholder-name";
  holder.autocomplete = "cc-name";
  holder.placeholder = "Nome impresso no cartão";
  holder.setAttribute("aria-label", "Nome impresso no cartão");
  box.appendChild(holder);
  // Mercado Pago asks for the holder's CPF/CNPJ: the checkout's doc field, else (on /pay) one of the card box's own, never posted.
  var doc = form.querySelector("input[name=doc]");
  if (!doc) {
    doc = document.createElement("input");
    doc.id = "mp-identification-number";
    doc.inputMode = "numeric";
    doc.placeholder = "CPF ou CNPJ do titular";
    doc.setAttribute("aria-label", "CPF ou CNPJ do titular do cartão");
    box.appendChild(doc);
  }
  ["cardNumber", "expirationDate", "securityCode"].forEach(function (type) {
    var slot = document.createElement("div");
    slot.id = "mp-" + type;
    box.appendChild(slot);
    mp.fields.create(type, {}).mount(slot.id);
  });
  var busy = false;
  form.addEventListener("submit", function (ev) {
    var chosen = form.querySelector("input[name=method]:checked");
    if (chosen && chosen.value !== "card") return;
    ev.preventDefault();
    if (busy) return;
    busy = true;
    var digits = doc.value.replace(/\\D/g, "");
    mp.fields.createCardToken({ cardholderName: holder.value.trim(), identificationType: digits.length > 11 ? "CNPJ" : "CPF", identificationNumber: digits }).then(function (token) {
      busy = false;
      if (!token || !token.id) { err.textContent = "verifique os dados do cartão"; return; }
      form.querySelector("input[name=mercadopago_token]").value = token.id;
      form.submit();
    }, function () {
      busy = false;
      err.textContent = "verifique os dados do cartão";
    });
  });
})();`;

export const mercadopagoTokenizer: BrowserTokenizer = {
  provider: "mercadopago",
  publicKey: { field: "publicKey", pattern: /^(APP_USR|TEST)-[0-9A-Za-z-]{8,200}$/ },
  scriptUrl: "https://sdk.mercadopago.com/js/v2",
  csp: CSP,
  // The fake serves its MercadoPago.js stand-in at /js/v2, its field frames and its API on the same origin.
  overridden: (origin) => ({ scriptUrl: `${origin}/js/v2`, csp: { script: [origin], frame: [origin], connect: [origin] } }),
  tokenField: { name: "mercadopago_token", pattern: /^[0-9A-Za-z]{16,64}$/ },
  inlineScript: () => SCRIPT,
};
