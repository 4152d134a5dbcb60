// Stripe.js (docs.stripe.com/js): the card element in Stripe's iframe -> a PaymentMethod id (pm_…), and
// 3-D Secure for a SetupIntent our server confirmed (requires_action) by stripe.handleNextAction({clientSecret})
// (docs.stripe.com/js/setup_intents/handle_next_action; "finalize payments on the server").
import type { BrowserTokenizer } from "./types.ts";

/** Stripe's CSP origins for Stripe.js, Elements and 3-D Secure (docs.stripe.com/security/guide#content-security-policy). */
const CSP = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};

const SCRIPT = `(function () {
  var form = document.querySelector("form[data-browser-card]");
  var err = document.getElementById("e-card-element");
  var stripe = Stripe(form.getAttribute("data-public-key"));
  var cardElement = stripe.elements().create("card");
  cardElement.mount("#card-element");
  var busy = false;
  // 3-D Secure asked by the server (a SetupIntent in requires_action): authenticate here, then post again.
  var nextAction = form.getAttribute("data-next-action");
  if (nextAction) {
    busy = true;
    stripe.handleNextAction({ clientSecret: nextAction }).then(function (r) {
      busy = false;
      if (r.error || !r.setupIntent || r.setupIntent.status !== "succeeded") {
        form.removeAttribute("data-next-action");
        form.querySelector("input[name=payment_method_id]").value = "";
        form.querySelector("input[name=authentication_id]").value = "";
        err.textContent = "a autenticação do cartão não foi concluída; tente de novo ou use outro cartão";
        return;
      }
      // The SetupIntent's PaymentMethod (Stripe may give a new id): the server checks it against Stripe's record.
      if (typeof r.setupIntent.payment_method === "string") form.querySelector("input[name=payment_method_id]").value = r.setupIntent.payment_method;
      form.querySelector("input[name=authentication_id]").value = nextAction;
      form.submit();
    });
  }
  form.addEventListener("submit", function (ev) {
    var chosen = form.querySelector("input[name=method]:checked");
    if (chosen && chosen.value !== "card") return;
    ev.preventDefault();
    if (busy) return;
    busy = true;
    var auth = form.querySelector("input[name=authentication_id]");
    if (auth) auth.value = "";
    stripe.createPaymentMethod({ type: "card", card: cardElement }).then(function (r) {
      busy = false;
      if (r.error || !r.paymentMethod) { err.textContent = "verifique os dados do cartão"; return; }
      form.querySelector("input[name=payment_method_id]").value = r.paymentMethod.id;
      form.submit();
    });
  });
})();`;

export const stripeTokenizer: BrowserTokenizer = {
  provider: "stripe",
  publicKey: { field: "publishableKey", pattern: /^pk_(test|live)_[A-Za-z0-9]+$/ },
  scriptUrl: "https://js.stripe.com/v3/",
  csp: CSP,
  // The fake serves its Stripe.js stand-in at /v3/ and its card / challenge frames and API on the same origin.
  overridden: (origin) => ({ scriptUrl: `${origin}/v3/`, csp: { script: [origin], frame: [origin], connect: [origin] } }),
  tokenField: { name: "payment_method_id", pattern: /^pm_[A-Za-z0-9_]{1,200}$/ },
  inlineScript: () => SCRIPT,
};
