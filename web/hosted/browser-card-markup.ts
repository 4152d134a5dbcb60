// The markup a browser tokenizer's script works with (browser-tokenizers/types.ts › inlineScript), shared
// by the checkout and /pay: the form's data attributes, the card box (a mount point, the error line, the
// hidden token field; never a card input of ours) and the two script tags.
import type { BrowserCard } from "./browser-card.ts";
import { html, SafeHtml } from "../ui/layout.ts";

/** Errors shown in the card box: the token field, a refused card (card_number) or a 3-D Secure failure. */
const CARD_BOX_FIELDS = ["card_number", "card_holder", "authentication_id"];

/** The form's attributes: the public key, the provider and, when 3-D Secure is asked, its handle. */
export function browserCardForm(bc: BrowserCard | null | undefined): SafeHtml {
  if (!bc) return html``;
  return html` data-browser-card data-provider="${bc.provider}" data-public-key="${bc.publicKey}"${bc.nextAction ? html` data-next-action="${bc.nextAction}"` : ""}`;
}

/** `pixToo`: the form also offers Pix, which needs no script. */
export function browserCardFields(bc: BrowserCard, error: { field: string; error: string } | null, values: Record<string, string> = {}, pixToo = false): SafeHtml {
  const err = error && [...CARD_BOX_FIELDS, bc.tokenField.name].includes(error.field) ? error.error : "";
  // While 3-D Secure runs, the token posted first travels again with the authentication handle.
  const token = bc.nextAction ? (values[bc.tokenField.name] ?? "") : "";
  return html`<fieldset class="card-fields"><legend>Cartão de crédito</legend>
<div id="card-element" class="card-element"></div>
<p class="err" id="e-card-element" role="alert">${err}</p>
<input type="hidden" name="${bc.tokenField.name}" value="${token}">
<input type="hidden" name="authentication_id" value="">
<noscript><p class="muted">Para pagar com cartão, ative o JavaScript do navegador (o cartão é digitado no campo seguro do provedor de pagamento)${pixToo ? ", ou escolha Pix" : ""}.</p></noscript>
</fieldset>`;
}

/** Attribute names come from the tokenizer's code (data-…), never from input; values are escaped. */
const ATTRIBUTE_NAME = /^data-[a-z0-9-]+$/;

export function browserCardScripts(bc: BrowserCard): SafeHtml {
  const attrs = Object.entries(bc.scriptAttributes ?? {})
    .filter(([name]) => ATTRIBUTE_NAME.test(name))
    .map(([name, value]) => html` ${new SafeHtml(name)}="${value}"`);
  return html`<script src="${bc.scriptUrl}"${attrs}></script><script nonce="${bc.nonce}">${new SafeHtml(bc.script)}</script>`;
}
