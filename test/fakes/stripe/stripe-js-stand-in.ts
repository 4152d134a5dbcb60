// The fake's stand-in for Stripe.js (https://js.stripe.com/v3/), served at {fake}/v3/ with its card
// frame at {fake}/v3/card-frame.html. Only the subset the hosted pages use: Stripe(pk),
// elements(), create("card"), mount(selector), createPaymentMethod({type: "card", card}) ->
// {paymentMethod: {id}} or {error: {message}}, and handleNextAction({clientSecret}) (also confirmCardSetup(clientSecret))
// for a SetupIntent in requires_action -> {setupIntent} or {error: {code: "setup_intent_authentication_failure", setup_intent}}
// (docs.stripe.com/js/setup_intents/handle_next_action):
// as Stripe.js does, it shows the issuer's 3-D Secure challenge in a modal iframe (here {fake}/v3/three-d-secure.html,
// with Stripe's test-page buttons "Complete authentication" / "Fail authentication"). As with the real library, the card is typed inside
// an iframe of the provider's origin: the page (ours) never sees the number. The frame maps Stripe's
// documented test card numbers to their test PaymentMethods (pm_card_visa, …), which the fake's API knows.

/** Stripe's test numbers -> the test PaymentMethod the fake keeps for them (test-payment-methods.ts). */
export const TEST_NUMBERS: Record<string, string> = {
  "4242424242424242": "pm_card_visa",
  "5555555555554444": "pm_card_mastercard",
  "4000000000000002": "pm_card_chargeDeclined",
  "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
  "4000000000000069": "pm_card_chargeDeclinedExpiredCard",
  "4000000000000341": "pm_card_chargeCustomerFail",
  "4000002760003184": "pm_card_authenticationRequired",
  "4000002500003155": "pm_card_authenticationRequiredOnSetup",
  "4000008260003178": "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds",
  "4000000000003220": "pm_card_threeDSecure2Required",
};

export function standInScript(): string {
  return `(function () {
  var origin = new URL(document.currentScript.src).origin;
  function Stripe(pk) {
    if (typeof pk !== "string" || pk.indexOf("pk_") !== 0) throw new Error("Stripe(): a publishable key (pk_…) is required");
    var frame = null;
    return {
      elements: function () {
        return {
          create: function (type) {
            if (type !== "card") throw new Error("stand-in: only the card element");
            return {
              mount: function (target) {
                var el = typeof target === "string" ? document.querySelector(target) : target;
                frame = document.createElement("iframe");
                frame.name = "stripe-card-frame";
                frame.title = "Campo seguro do cartão";
                frame.src = origin + "/v3/card-frame.html";
                frame.style.cssText = "width:100%;height:3rem;border:1px solid #c4cad6;border-radius:8px";
                el.appendChild(frame);
                el.setAttribute("data-stripe-mounted", "true");
              },
            };
          },
        };
      },
      handleNextAction: function (opts) {
        return this.confirmCardSetup(opts && opts.clientSecret);
      },
      confirmCardSetup: function (clientSecret) {
        return new Promise(function (resolve) {
          var m = /^(seti_[A-Za-z0-9]+)_secret_/.exec(String(clientSecret || ""));
          if (!m) return resolve({ error: { type: "invalid_request_error", code: "resource_missing", message: "Invalid client_secret" } });
          var modal = document.createElement("iframe");
          modal.name = "stripe-challenge-frame";
          modal.title = "Autenticação do cartão";
          modal.src = origin + "/v3/three-d-secure.html?setup_intent=" + encodeURIComponent(m[1]) + "&client_secret=" + encodeURIComponent(clientSecret);
          modal.style.cssText = "position:fixed;inset:10% 5%;width:90%;height:80%;background:#fff;border:1px solid #888;z-index:1000";
          function onMessage(e) {
            if (e.origin !== origin || e.source !== modal.contentWindow || !e.data || e.data.type !== "three_d_secure_result") return;
            window.removeEventListener("message", onMessage);
            modal.remove();
            var si = e.data.setupIntent;
            if (si && si.status === "succeeded") return resolve({ setupIntent: si });
            resolve({ error: { type: "invalid_request_error", code: "setup_intent_authentication_failure", message: "We are unable to authenticate your payment method.", setup_intent: si || null } });
          }
          window.addEventListener("message", onMessage);
          document.body.appendChild(modal);
        });
      },
      createPaymentMethod: function (opts) {
        return new Promise(function (resolve) {
          if (!opts || opts.type !== "card" || !frame) return resolve({ error: { type: "validation_error", message: "card element not mounted" } });
          var channel = new MessageChannel();
          channel.port1.onmessage = function (e) { resolve(e.data); };
          frame.contentWindow.postMessage({ type: "createPaymentMethod", pk: pk }, origin, [channel.port2]);
        });
      },
    };
  }
  window.Stripe = Stripe;
})();`;
}

export function cardFrameHtml(): string {
  // The listener is registered in <head>, before the input exists: once a test can type the card, the
  // frame can already hear createPaymentMethod (a message to a frame with no listener is lost for good).
  return `<!doctype html><html><head><meta charset="utf-8">
<script>
// As Stripe.js' frame does, the card goes from this frame (the provider's origin) straight to the provider's
// POST /v1/payment_methods with the publishable key; the page (ours) only ever hears the new pm_ id.
window.addEventListener("message", function (e) {
  if (!e.data || e.data.type !== "createPaymentMethod" || !e.ports[0]) return;
  var port = e.ports[0];
  var digits = document.querySelector("input").value.replace(/\\D/g, "");
  var body = new URLSearchParams({ type: "card", "card[number]": digits, "card[exp_month]": "12", "card[exp_year]": String(new Date().getFullYear() + 3), "card[cvc]": "123" });
  fetch("/v1/payment_methods", { method: "POST", headers: { Authorization: "Bearer " + e.data.pk }, body: body })
    .then(function (r) { return r.json(); })
    .then(function (pm) { port.postMessage(pm.error ? { error: pm.error } : { paymentMethod: pm }); })
    .catch(function () { port.postMessage({ error: { type: "api_connection_error", message: "network" } }); });
});
</script></head><body style="margin:0">
<input name="cardnumber" autocomplete="cc-number" inputmode="numeric" placeholder="1234 1234 1234 1234" style="width:100%;height:2.8rem;border:0;font:16px system-ui;padding:0 .5rem">
</body></html>`;
}

/** The issuer's 3-D Secure page of Stripe's test mode: the payer completes or fails it; the answer goes back to Stripe.js. */
export function challengeFrameHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="font:16px system-ui;padding:1rem">
<p>3D Secure 2 Test Page</p>
<button type="button" id="complete" data-outcome="complete" disabled>Complete authentication</button>
<button type="button" id="fail" data-outcome="fail" disabled>Fail authentication</button>
<script>
var q = new URLSearchParams(location.search);
function answer(outcome) {
  var body = new URLSearchParams({ client_secret: q.get("client_secret") || "", outcome: outcome });
  fetch("/_test/3ds/" + encodeURIComponent(q.get("setup_intent") || ""), { method: "POST", body: body })
    .then(function (r) { return r.json(); })
    .then(function (si) { return si.error ? null : si; }, function () { return null; })
    // Always an answer: a lost request is a failed authentication on the page, never a page left waiting.
    .then(function (si) { parent.postMessage({ type: "three_d_secure_result", setupIntent: si }, "*"); });
}
// Enabled only once they answer: a click as soon as they are drawn (a test under load) is never lost.
["complete", "fail"].forEach(function (id) {
  var b = document.getElementById(id);
  b.onclick = function () { answer(id); };
  b.disabled = false;
});
</script></body></html>`;
}
