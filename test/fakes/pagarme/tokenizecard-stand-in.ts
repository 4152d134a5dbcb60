// The fake's stand-in for Pagar.me's tokenizecard.js (https://checkout.pagar.me/v1/tokenizecard.js), served
// at {fake}/v1/tokenizecard.js. The subset the hosted checkout uses, as documented
// (docs.pagar.me/docs/tokenizecard-js): the script tag carries `data-pagarmecheckout-app-id` (the public
// key); a form marked `data-pagarmecheckout-form` has inputs marked `data-pagarmecheckout-element` =
// holder_name | number | exp_month | exp_year | exp_date | cvv (no `name`: they are never posted);
// `PagarmeCheckout.init(success, fail)`. On submit the card goes from the browser straight to Pagar.me's
// POST /core/v5/tokens?appId=<public key> (here: the fake's origin, the script's own), a hidden input
// `pagarmetoken-0` gets the token_ id, and the form is submitted when `success` returns true.
export function tokenizeCardScript(): string {
  return `(function () {
  var me = document.currentScript;
  var origin = new URL(me.src).origin;
  // Read once, as the script loads (as tokenizecard.js does): an app id added to the tag later is not seen.
  var appId = me.getAttribute("data-pagarmecheckout-app-id") || "";
  function field(form, name) {
    var el = form.querySelector('[data-pagarmecheckout-element="' + name + '"]');
    return el ? String(el.value || "").trim() : "";
  }
  function card(form) {
    var month = field(form, "exp_month"), year = field(form, "exp_year"), both = field(form, "exp_date");
    if (both) { var p = both.split(/\\D+/); month = p[0]; year = p[1]; }
    return { number: field(form, "number").replace(/\\D/g, ""), holder_name: field(form, "holder_name"), exp_month: Number(month), exp_year: Number(year), cvv: field(form, "cvv") };
  }
  window.PagarmeCheckout = {
    init: function (success, fail) {
      var forms = document.querySelectorAll("form[data-pagarmecheckout-form]");
      Array.prototype.forEach.call(forms, function (form) {
        form.addEventListener("submit", function (ev) {
          ev.preventDefault();
          fetch(origin + "/core/v5/tokens?appId=" + encodeURIComponent(appId), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ type: "card", card: card(form) }),
          }).then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); }).then(function (r) {
            if (!r.ok) { if (fail) fail(r.body); return; }
            var hidden = document.createElement("input");
            hidden.type = "hidden"; hidden.name = "pagarmetoken-0"; hidden.value = r.body.id;
            form.appendChild(hidden);
            if (!success || success(r.body) === true) form.submit();
          }, function (e) { if (fail) fail({ message: String(e) }); });
        });
      });
    },
  };
})();`;
}
