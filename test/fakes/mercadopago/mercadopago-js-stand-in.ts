// The fake's stand-in for MercadoPago.js v2 (https://sdk.mercadopago.com/js/v2), served at {fake}/js/v2 with
// its secure-field frame at {fake}/js/v2/field.html. Only the subset the hosted checkout uses, with the
// shapes of MercadoPago.js' Secure Fields ("Core methods", mercadopago.com.br/developers/en/docs/checkout-api/
// integration-configuration/card/web-integration): `new MercadoPago(publicKey)`,
// `mp.fields.create("cardNumber" | "expirationDate" | "securityCode", opts).mount(elementId)`,
// `mp.fields.createCardToken({cardholderName, identificationType, identificationNumber})` -> Promise<{id, …}>
// (rejects with an array of causes). As with the real library, each field is an iframe of the provider's
// origin: the page never sees the number, expiry or CVC. The frames hand their values to the card-number
// frame through MessageChannels, and that frame posts them to the fake's /v1/card_tokens?public_key=.

export function standInScript(): string {
  return `(function () {
  var origin = new URL(document.currentScript.src).origin;
  function MercadoPago(publicKey) {
    if (!(this instanceof MercadoPago)) throw new Error("MercadoPago: use new MercadoPago(publicKey)");
    if (typeof publicKey !== "string" || !/^(TEST|APP_USR)-/.test(publicKey)) throw new Error("MercadoPago: a public key (APP_USR-… or TEST-…) is required");
    var frames = {};
    this.fields = {
      create: function (type) {
        if (["cardNumber", "expirationDate", "securityCode"].indexOf(type) < 0) throw new Error("stand-in: unknown field " + type);
        return {
          mount: function (id) {
            var el = document.getElementById(id);
            if (!el) throw new Error("stand-in: no element #" + id);
            var f = document.createElement("iframe");
            f.name = "mp-" + type;
            f.title = type;
            f.src = origin + "/js/v2/field.html#" + type;
            f.style.cssText = "width:100%;height:2.8rem;border:1px solid #c4cad6;border-radius:8px";
            el.appendChild(f);
            el.setAttribute("data-mp-mounted", type);
            frames[type] = f;
            return this;
          },
        };
      },
      createCardToken: function (data) {
        return new Promise(function (resolve, reject) {
          if (!frames.cardNumber || !frames.expirationDate || !frames.securityCode) return reject([{ code: "fields_not_mounted", message: "secure fields not mounted" }]);
          var reply = new MessageChannel();
          var exp = new MessageChannel();
          var cvc = new MessageChannel();
          reply.port1.onmessage = function (e) { e.data && e.data.id ? resolve(e.data) : reject(e.data && e.data.cause ? e.data.cause : [{ code: "invalid", message: "invalid card" }]); };
          frames.expirationDate.contentWindow.postMessage({ type: "share" }, origin, [exp.port1]);
          frames.securityCode.contentWindow.postMessage({ type: "share" }, origin, [cvc.port1]);
          frames.cardNumber.contentWindow.postMessage({ type: "tokenize", publicKey: publicKey, cardholderName: (data && data.cardholderName) || "", identificationType: (data && data.identificationType) || "CPF", identificationNumber: (data && data.identificationNumber) || "" }, origin, [reply.port2, exp.port2, cvc.port2]);
        });
      },
    };
  }
  window.MercadoPago = MercadoPago;
})();`;
}

export function cardFrameHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<input autocomplete="off" inputmode="numeric" style="width:100%;height:2.6rem;border:0;font:16px system-ui;padding:0 .5rem">
<script>
var type = location.hash.slice(1);
var input = document.querySelector("input");
input.name = type;
input.placeholder = type === "cardNumber" ? "1234 1234 1234 1234" : type === "expirationDate" ? "MM/AA" : "CVV";
function valueFrom(port) { return new Promise(function (resolve) { port.onmessage = function (e) { resolve(e.data); }; }); }
window.addEventListener("message", function (e) {
  if (e.data && e.data.type === "share" && e.ports[0]) return e.ports[0].postMessage(input.value);
  if (!e.data || e.data.type !== "tokenize" || e.ports.length !== 3) return;
  var reply = e.ports[0], d = e.data;
  Promise.all([valueFrom(e.ports[1]), valueFrom(e.ports[2])]).then(function (v) {
    var exp = String(v[0]).split("/");
    var year = Number(exp[1]);
    return fetch(location.origin + "/v1/card_tokens?public_key=" + encodeURIComponent(d.publicKey), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ card_number: input.value.replace(/\\D/g, ""), security_code: String(v[1]), expiration_month: Number(exp[0]), expiration_year: year < 100 ? 2000 + year : year,
        cardholder: { name: d.cardholderName, identification: { type: d.identificationType, number: d.identificationNumber } } }),
    }).then(function (r) { return r.json(); });
  }).then(function (token) { reply.postMessage(token); }, function () { reply.postMessage({ cause: [{ code: "network", message: "network error" }] }); });
});
</script></body></html>`;
}
