// GET /pay/{token}: one page for every link kind (payment-method change, renewal, open invoice), and
// the page after a submission. pt-BR, mobile first; card_number and card_cvc are never written back
// into the page. No JavaScript, except at a real gateway: there the card box is the provider's own
// script (browser-tokenizers/, chosen by the account the card is saved at) and only its token is posted.
import type { PayOutcome, PayPageView } from "../../core/links/pay-link.ts";
import { formatPrice } from "./checkout-page.ts";
import type { BrowserCard } from "./browser-card.ts";
import { browserCardFields, browserCardForm, browserCardScripts } from "./browser-card-markup.ts";
import { html, renderPage, type SafeHtml } from "../ui/layout.ts";

const WHEN = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone: "America/Sao_Paulo" });
const DAY = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeZone: "America/Sao_Paulo" });

const KEPT = ["method", "card_holder", "card_exp_month", "card_exp_year"];

export interface PayPageInput {
  token: string;
  view: PayPageView;
  values: Record<string, string>;
  error: { field: string; error: string } | null;
  /** The card account's browser tokenizer (real gateways): no card fields of ours, the provider's script instead. */
  browserCard?: BrowserCard | null;
}

const HEADINGS: Record<string, string> = {
  PAYMENT_METHOD: "Atualize seu cartão",
  SUBSCRIPTION_RENEWAL: "Renove sua assinatura",
  RENEWAL_CAMPAIGN: "Renove com bônus",
  OPEN_INVOICE: "Pague sua fatura em aberto",
  ORDER_PIX: "Pague seu pedido com Pix",
};

function heading(view: PayPageView): string {
  return HEADINGS[view.kind] ?? "Pagamento";
}

function summary(view: PayPageView): SafeHtml {
  const intro =
    view.kind === "PAYMENT_METHOD"
      ? view.chargesOpenInvoice
        ? "Neste meio de pagamento o cartão só é registrado junto com um pagamento: o novo cartão paga a fatura em aberto e passa a ser usado nas próximas cobranças."
        : "Informe o novo cartão. Nada será cobrado agora; as próximas cobranças usarão este cartão."
      : view.kind === "SUBSCRIPTION_RENEWAL"
        ? "Pague agora e sua assinatura é estendida por mais um ciclo."
        : view.kind === "RENEWAL_CAMPAIGN"
          ? `Pague agora e sua assinatura é estendida por mais um ciclo${view.bonus ? `, mais ${view.bonus}` : ""}.`
        : view.kind === "OPEN_INVOICE"
          ? "Ao pagar, sua assinatura volta a ficar ativa."
          : view.kind === "ORDER_PIX"
            ? "Escaneie o QR Code no app do seu banco ou use o Pix copia e cola."
            : "";
  return html`<section class="card">
${view.sandbox ? html`<span class="badge">Ambiente de testes</span>` : ""}
<h1>${heading(view)}</h1>
<p class="muted">${view.planName ? `Plano ${view.planName} · ` : ""}${view.tenantName}</p>
${view.amountCents !== null ? html`<p class="price">${formatPrice(view.amountCents, view.currency)}</p>` : ""}
${view.currentCard && view.kind === "PAYMENT_METHOD" ? html`<p class="muted">Cartão atual: ${view.currentCard.brand} final ${view.currentCard.last4}</p>` : ""}
${intro ? html`<p>${intro}</p>` : ""}
</section>`;
}

function field(p: PayPageInput, name: string, label: string, attrs: { autocomplete: string; inputmode?: string; placeholder?: string; maxlength: number }): SafeHtml {
  const err = p.error?.field === name ? p.error.error : null;
  const value = name === "card_number" || name === "card_cvc" ? "" : (p.values[name] ?? "");
  return html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="text" value="${value}" autocomplete="${attrs.autocomplete}"${
    attrs.inputmode ? html` inputmode="${attrs.inputmode}"` : ""
  }${attrs.placeholder ? html` placeholder="${attrs.placeholder}"` : ""} maxlength="${attrs.maxlength}"${err ? html` aria-invalid="true" aria-describedby="e-${name}"` : ""}>${
    err ? html`<p class="err" id="e-${name}">${err}</p>` : ""
  }</div>`;
}

function cardFields(p: PayPageInput): SafeHtml {
  return html`<fieldset class="card-fields"><legend>Cartão de crédito</legend>
${field(p, "card_holder", "Nome impresso no cartão", { autocomplete: "cc-name", maxlength: 100 })}
${field(p, "card_number", "Número do cartão", { autocomplete: "cc-number", inputmode: "numeric", maxlength: 23 })}
<div class="row">
${field(p, "card_exp_month", "Mês", { autocomplete: "cc-exp-month", inputmode: "numeric", placeholder: "MM", maxlength: 2 })}
${field(p, "card_exp_year", "Ano", { autocomplete: "cc-exp-year", inputmode: "numeric", placeholder: "AAAA", maxlength: 4 })}
${field(p, "card_cvc", "CVC", { autocomplete: "cc-csc", inputmode: "numeric", maxlength: 4 })}
</div></fieldset>`;
}

function methodChoice(p: PayPageInput): SafeHtml {
  const methods = p.view.methods;
  if (methods.length < 2) return html`<input type="hidden" name="method" value="${methods[0] ?? "card"}">`;
  const chosen = methods.includes(p.values.method as "card" | "pix") ? p.values.method : methods[0];
  const label = { card: "Cartão de crédito", pix: "Pix" } as const;
  return html`<fieldset><legend>Forma de pagamento</legend>${methods.map(
    (m) => html`<label class="choice"><input type="radio" name="method" value="${m}"${m === chosen ? html` checked` : ""} required> ${label[m]}</label>`,
  )}</fieldset>`;
}

function pixBlock(pix: NonNullable<PayPageView["pix"]>): SafeHtml {
  return html`<section class="card">
<h2>Pague com Pix</h2>
<p>Escaneie o QR Code no app do seu banco ou use o Pix copia e cola.</p>
<img class="qr" src="/pix/${pix.paymentId}/qr.png" alt="QR Code do Pix" width="256" height="256">
<label for="pix-copy-paste">Pix copia e cola</label>
<textarea id="pix-copy-paste" readonly rows="5">${pix.copyPaste}</textarea>
<p class="muted">Válido até ${WHEN.format(pix.expiresAt)} (horário de Brasília).</p>
</section>`;
}

export function renderPayPage(p: PayPageInput): string {
  const { view } = p;
  if (view.blocker) return renderPage(heading(view), html`${summary(view)}<p class="card">${view.blocker}</p>`);
  const bc = p.browserCard ?? null;
  const cardBox = ["card_holder", "card_number", "card_exp_month", "card_exp_year", "card_cvc", ...(bc ? ["authentication_id", bc.tokenField.name] : [])];
  const banner = p.error && !cardBox.includes(p.error.field)
    ? html`<p class="alert" role="alert">${p.error.error}</p>`
    : "";
  const values = Object.fromEntries(Object.entries(p.values).filter(([k]) => KEPT.includes(k) || (bc && k === bc.tokenField.name)));
  const input = { ...p, values };
  // An open invoice with a live QR shows it; the form then only offers the card.
  const formMethods = view.kind === "OPEN_INVOICE" && view.pix ? view.methods.filter((m) => m === "card") : view.methods;
  const button = view.kind === "PAYMENT_METHOD" && !view.chargesOpenInvoice ? "Salvar cartão" : "Pagar";
  const withCard = formMethods.includes("card");
  const browser = withCard ? bc : null;
  const form = formMethods.length
    ? html`<form class="card" method="post" action="/pay/${p.token}"${browserCardForm(browser)}>
${banner}
${methodChoice({ ...input, view: { ...view, methods: formMethods } })}
${withCard ? (browser ? browserCardFields(browser, p.error, values, formMethods.includes("pix")) : cardFields(input)) : ""}
<button type="submit">${button}</button>
</form>`
    : banner;
  // An open invoice or a pending order with a live QR shows it.
  return renderPage(heading(view), html`${summary(view)}${view.pix ? pixBlock(view.pix) : ""}${form}${browser ? browserCardScripts(browser) : ""}`);
}

export function renderPayResultPage(view: PayPageView, outcome: PayOutcome): string {
  if (outcome.pix) return renderPage("Pague com Pix", html`${summary(view)}${pixBlock(outcome.pix)}`);
  let title: string;
  let text: string;
  if (outcome.status === "card_updated") {
    title = "Cartão atualizado";
    text = `As próximas cobranças usarão o cartão ${outcome.card?.brand ?? ""} final ${outcome.card?.last4 ?? ""}.`;
  } else if (outcome.kind === "SUBSCRIPTION_RENEWAL" || outcome.kind === "RENEWAL_CAMPAIGN") {
    title = "Renovação confirmada";
    text = outcome.currentPeriodEnd ? `Pagamento aprovado. Sua assinatura está garantida até ${DAY.format(outcome.currentPeriodEnd)}.` : "Pagamento aprovado.";
  } else {
    title = "Pagamento aprovado";
    text = outcome.card ? `Pago com o cartão ${outcome.card.brand} final ${outcome.card.last4}. Sua assinatura está ativa.` : "Sua assinatura está ativa.";
  }
  return renderPage(title, html`<section class="card"><h1>${title}</h1><p>${text}</p></section>`);
}
