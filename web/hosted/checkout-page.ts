// GET /checkout/{offer_id}: the hosted checkout form (service-contract §3), and the same form again
// with a field's error after a refused POST. card_number and card_cvc are never written back.
import type { CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import type { Tracking } from "../../core/checkout/checkout-input.ts";
import { trackingHiddenFields } from "../../core/checkout/tracking.ts";
import type { BrowserCard } from "./browser-card.ts";
import { browserCardFields, browserCardForm, browserCardScripts } from "./browser-card-markup.ts";
import { html, renderPage, SafeHtml } from "../ui/layout.ts";

export interface CheckoutPageInput {
  offer: CheckoutOffer;
  /** Prefill (GET query) or the submitted values (POST); card_number and card_cvc are ignored. */
  values: Record<string, string>;
  tracking: Tracking | null;
  error: { field: string; error: string } | null;
  /** Offer at Stripe: the card is typed in Stripe.js' iframe, the form has no card fields (PCI SAQ A). */
  browserCard?: BrowserCard | null;
}

/** Integer cents to "R$ 1.234,56" by string arithmetic: no floating point touches money. */
export function formatPrice(cents: number, currency: string): string {
  const digits = String(Math.abs(Math.trunc(cents))).padStart(3, "0");
  const units = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ".");
  const symbol = currency.toUpperCase() === "BRL" ? "R$" : currency.toUpperCase();
  return `${cents < 0 ? "-" : ""}${symbol} ${units},${digits.slice(-2)}`;
}

/** Fields the page shows; an error on any other field (external_id…) goes to the banner. */
const VISIBLE = new Set(["name", "email", "phone", "doc", "quantity", "method", "card_holder", "card_number", "card_exp_month", "card_exp_year", "card_cvc", "coupon", "ref"]);
/** Never echoed back into the page, whatever was submitted. */
const SECRET = new Set(["card_number", "card_cvc"]);

interface InputSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "tel";
  autocomplete?: string;
  inputmode?: "numeric" | "tel" | "email";
  placeholder?: string;
  maxlength?: number;
  required?: boolean;
}

function field(spec: InputSpec, p: CheckoutPageInput): SafeHtml {
  const err = p.error?.field === spec.name ? p.error.error : null;
  const value = SECRET.has(spec.name) ? "" : (p.values[spec.name] ?? "");
  return html`<div><label for="f-${spec.name}">${spec.label}</label><input id="f-${spec.name}" name="${spec.name}" type="${spec.type ?? "text"}" value="${value}"${
    spec.autocomplete ? html` autocomplete="${spec.autocomplete}"` : ""
  }${spec.inputmode ? html` inputmode="${spec.inputmode}"` : ""}${spec.placeholder ? html` placeholder="${spec.placeholder}"` : ""}${
    spec.maxlength ? html` maxlength="${spec.maxlength}"` : ""
  }${spec.required ? html` required` : ""}${err ? html` aria-invalid="true" aria-describedby="e-${spec.name}"` : ""}>${
    err ? html`<p class="err" id="e-${spec.name}">${err}</p>` : ""
  }</div>`;
}

function methodChoice(p: CheckoutPageInput): SafeHtml {
  const chosen = p.offer.methods.includes(p.values.method as "card" | "pix") ? p.values.method : p.offer.methods[0];
  const label = { card: "Cartão de crédito", pix: "Pix" } as const;
  const err = p.error?.field === "method" ? p.error.error : null;
  return html`<fieldset><legend>Forma de pagamento</legend>${p.offer.methods.map(
    (m) => html`<label class="choice"><input type="radio" name="method" value="${m}"${m === chosen ? html` checked` : ""} required> ${label[m]}</label>`,
  )}${err ? html`<p class="err" id="e-method">${err}</p>` : ""}</fieldset>`;
}

function cardFields(p: CheckoutPageInput): SafeHtml {
  if (!p.offer.methods.includes("card")) return html``;
  if (p.browserCard) return browserCardFields(p.browserCard, p.error, p.values, p.offer.methods.includes("pix"));
  return html`<fieldset class="card-fields"><legend>Cartão de crédito</legend>
${field({ name: "card_holder", label: "Nome impresso no cartão", autocomplete: "cc-name", maxlength: 100 }, p)}
${field({ name: "card_number", label: "Número do cartão", autocomplete: "cc-number", inputmode: "numeric", maxlength: 23 }, p)}
<div class="row">
${field({ name: "card_exp_month", label: "Mês", autocomplete: "cc-exp-month", inputmode: "numeric", placeholder: "MM", maxlength: 2 }, p)}
${field({ name: "card_exp_year", label: "Ano", autocomplete: "cc-exp-year", inputmode: "numeric", placeholder: "AAAA", maxlength: 4 }, p)}
${field({ name: "card_cvc", label: "CVC", autocomplete: "cc-csc", inputmode: "numeric", maxlength: 4 }, p)}
</div></fieldset>`;
}

function summary(offer: CheckoutOffer): SafeHtml {
  const per = offer.kind === "one_time" ? "por unidade" : offer.interval === "year" ? "/ano" : "/mês";
  const trial = offer.trialDays > 0 ? `${offer.trialDays} ${offer.trialDays === 1 ? "dia" : "dias"} grátis; a primeira cobrança vem depois do teste.` : null;
  return html`<section class="card">
${offer.tenantMode === "SANDBOX" ? html`<span class="badge">Ambiente de testes</span>` : ""}
<h1>${offer.name}</h1>
<p class="muted">Plano ${offer.planName} · ${offer.tenantName}</p>
<p class="price">${formatPrice(offer.priceCents, offer.currency)} <small>${per}</small></p>
${trial ? html`<p class="muted">${trial}</p>` : ""}
${oneTimeNote(offer)}
</section>`;
}

function oneTimeNote(offer: CheckoutOffer): SafeHtml {
  if (offer.kind !== "one_time") return html``;
  if (offer.renewsSubscription) return html`<p class="muted">Pagamento único: cada unidade estende sua assinatura ativa deste plano por mais um ciclo.</p>`;
  return offer.grantDays > 0
    ? html`<p class="muted">Pagamento único: acesso por ${offer.grantDays} ${offer.grantDays === 1 ? "dia" : "dias"} a partir da confirmação.</p>`
    : html`<p class="muted">Pagamento único.</p>`;
}

export function renderCheckoutPage(p: CheckoutPageInput): string {
  const { offer } = p;
  // A refusal about the provider's card box (its token, 3-D Secure) shows inside that box, not in the banner.
  const inCardBox = !!p.browserCard && !!p.error && [p.browserCard.tokenField.name, "authentication_id"].includes(p.error.field);
  const banner = p.error && !VISIBLE.has(p.error.field) && !inCardBox ? html`<p class="alert" role="alert">${p.error.error}</p>` : "";
  if (offer.methods.length === 0) {
    return renderPage(offer.name, html`${summary(offer)}<p class="card">Esta oferta não está disponível para assinatura no momento.</p>`);
  }
  const oneTime = offer.kind === "one_time";
  const hidden = Object.entries(trackingHiddenFields(p.tracking));
  if (p.values.external_id) hidden.push(["external_id", p.values.external_id]);
  const bc = p.browserCard;
  const form = html`<form class="card" method="post" action="/checkout/${offer.id}"${browserCardForm(bc)}>
${banner}
<h2>Seus dados</h2>
${hidden.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
${field({ name: "name", label: "Nome completo", autocomplete: "name", maxlength: 200, required: true }, p)}
${field({ name: "email", label: "E-mail", type: "email", autocomplete: "email", inputmode: "email", maxlength: 254, required: true }, p)}
${field({ name: "phone", label: "Celular com DDD", type: "tel", autocomplete: "tel", inputmode: "tel", placeholder: "(11) 98765-4321", maxlength: 30, required: true }, p)}
${field({ name: "doc", label: "CPF ou CNPJ", inputmode: "numeric", maxlength: 18, required: true }, p)}
${oneTime ? field({ name: "quantity", label: "Quantidade", inputmode: "numeric", maxlength: 2 }, { ...p, values: { quantity: "1", ...p.values } }) : ""}
${methodChoice(p)}
${cardFields(p)}
${oneTime ? "" : field({ name: "coupon", label: "Cupom de desconto (opcional)", maxlength: 100 }, p)}
${oneTime ? "" : field({ name: "ref", label: "Código de indicação (opcional)", maxlength: 100 }, p)}
<button type="submit">${oneTime ? "Comprar" : "Assinar"}</button>
</form>`;
  const scripts = bc && offer.methods.includes("card") ? browserCardScripts(bc) : "";
  return renderPage(`${offer.name} · ${oneTime ? "Compra" : "Assinatura"}`, html`${summary(offer)}${form}${scripts}`);
}
