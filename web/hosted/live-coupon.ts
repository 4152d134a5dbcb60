// The checkout's "Aplicar" with JavaScript: our own script (CSP script-src 'self', no inline code) posts
// the coupon form as the browser would (apply=coupon, the same route and answer as without JavaScript),
// and swaps in the order summary of the answer, and the coupon the pay form carries, without leaving the
// page (the typed name, e-mail and card stay). Any other answer (a refusal page, a network failure)
// submits the form the ordinary way, so the shopper sees what the server said.
export const LIVE_COUPON_PATH = "/checkout/coupon.js";

export const LIVE_COUPON_JS = `"use strict";
(function () {
  if (!window.fetch || !window.DOMParser || !window.FormData || !window.URLSearchParams) return;
  var SUMMARY = 'section[aria-labelledby="order-summary"]';
  var busy = false;
  function swapCoupon(doc) {
    var pay = document.getElementById("pay-form");
    var freshPay = doc.getElementById("pay-form");
    if (!pay || !freshPay) return;
    var old = pay.querySelector('input[type="hidden"][name="coupon"]');
    var fresh = freshPay.querySelector('input[type="hidden"][name="coupon"]');
    if (old) old.parentNode.removeChild(old);
    if (fresh) pay.insertBefore(document.importNode(fresh, true), pay.firstChild);
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-live-coupon")) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    var button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    function fallback() { busy = false; form.submit(); }
    fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "text/html" },
      credentials: "same-origin",
      cache: "no-store"
    }).then(function (r) {
      return r.status === 200 || r.status === 422 ? r.text() : null;
    }).then(function (html) {
      var doc = html ? new DOMParser().parseFromString(html, "text/html") : null;
      var fresh = doc && doc.querySelector(SUMMARY);
      var current = document.querySelector(SUMMARY);
      if (!fresh || !current) return fallback();
      current.parentNode.replaceChild(document.importNode(fresh, true), current);
      swapCoupon(doc);
      busy = false;
      var field = document.querySelector(SUMMARY + ' input[name="coupon"]');
      if (field) field.focus();
    }, fallback);
  });
})();
`;
