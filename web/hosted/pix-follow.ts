// The Pix pages' one script, served by us (CSP script-src 'self', no inline code): the "Copiar código"
// button, and polling the payment's status to open the result page once paid. The page works without it.
export const PIX_FOLLOW_PATH = "/pix/follow.js";

export const PIX_FOLLOW_JS = `"use strict";
(function () {
  var code = document.getElementById("pix-copy-paste");
  var copy = document.getElementById("pix-copy");
  if (code && copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText(code.value).then(function () {
        copy.textContent = "Código copiado";
      }, function () {
        code.select();
      });
    });
  }
  var follow = document.getElementById("pix-follow");
  if (!follow || !window.fetch) return;
  var statusUrl = follow.getAttribute("data-status-url");
  var resultUrl = follow.getAttribute("data-result-url");
  var delay = 3000;
  function poll() {
    fetch(statusUrl, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        var status = body && body.status;
        if (status === "paid" || status === "expired" || status === "failed") return window.location.assign(resultUrl);
        delay = Math.min(delay * 1.2, 15000);
        setTimeout(poll, delay);
      }, function () { setTimeout(poll, 15000); });
  }
  setTimeout(poll, delay);
})();
`;
