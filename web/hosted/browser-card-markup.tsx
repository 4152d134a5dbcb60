// The markup a browser tokenizer's script works with (browser-tokenizers/types.ts › inlineScript), shared
// by the checkout and /pay: the form's data attributes, the card box (a mount point, the error line, the
// hidden token field; never a card input of ours) and the two script tags.
import type { BrowserCard } from "./browser-card.ts";
import type { FieldError } from "../ui/text-field.tsx";

/** Errors shown in the card box: the token field, a refused card (card_number) or a 3-D Secure failure. */
const CARD_BOX_FIELDS = ["card_number", "card_holder", "authentication_id"];

/** The form's attributes: the public key, the provider and, when 3-D Secure is asked, its handle. */
export function browserCardFormAttributes(bc: BrowserCard | null | undefined): Record<string, string> {
  if (!bc) return {};
  return {
    // An empty value renders as a bare attribute: the script finds the form by `form[data-browser-card]`.
    "data-browser-card": "",
    "data-provider": bc.provider,
    "data-public-key": bc.publicKey,
    ...(bc.nextAction ? { "data-next-action": bc.nextAction } : {}),
  };
}

/** `pixToo`: the form also offers Pix, which needs no script. */
export function BrowserCardFields({ card, error, values = {}, pixToo = false }: { card: BrowserCard; error: FieldError | null; values?: Record<string, string>; pixToo?: boolean }) {
  const err = error && [...CARD_BOX_FIELDS, card.tokenField.name].includes(error.field) ? error.error : "";
  // While 3-D Secure runs, the token posted first travels again with the authentication handle.
  const token = card.nextAction ? (values[card.tokenField.name] ?? "") : "";
  return (
    <fieldset class="card-fields">
      <legend>Cartão de crédito</legend>
      <div id="card-element" class="card-element"></div>
      <p class="err" id="e-card-element" role="alert">
        {err}
      </p>
      <input type="hidden" name={card.tokenField.name} value={token} />
      <input type="hidden" name="authentication_id" value="" />
      <noscript>
        <p class="muted">Para pagar com cartão, ative o JavaScript do navegador (o cartão é digitado no campo seguro do provedor de pagamento){pixToo ? ", ou escolha Pix" : ""}.</p>
      </noscript>
    </fieldset>
  );
}

/** Attribute names come from the tokenizer's code (data-…), never from input; values are escaped. */
const ATTRIBUTE_NAME = /^data-[a-z0-9-]+$/;

export function BrowserCardScripts({ card }: { card: BrowserCard }) {
  const attrs = Object.fromEntries(Object.entries(card.scriptAttributes ?? {}).filter(([name]) => ATTRIBUTE_NAME.test(name)));
  return (
    <>
      <script src={card.scriptUrl} {...attrs}></script>
      {/* The tokenizer's own code (inlineScript), let in by the response's nonce; never built from input. */}
      <script nonce={card.nonce} dangerouslySetInnerHTML={{ __html: card.script }} />
    </>
  );
}
