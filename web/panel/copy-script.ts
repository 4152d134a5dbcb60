// The panel's copy buttons, served by us (CSP script-src 'self', nothing inline). A button
// `data-copy="<field id>"` stays hidden without JavaScript; the field itself is readonly and selectable.
export const PANEL_COPY_PATH = "/panel/assets/copy.js";

export const PANEL_COPY_JS = `"use strict";
(function () {
  var buttons = document.querySelectorAll("button[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field || !navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = "Copiado";
        }, function () {
          field.select();
        });
      });
    })(buttons[i]);
  }
})();
`;
