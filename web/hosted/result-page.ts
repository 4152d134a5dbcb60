// The page after a successful POST /checkout/{offer_id}: subscription active, trial started, order
// paid, or a Pix to pay.
import type { CheckoutResult } from "../../core/checkout/checkout-input.ts";
import type { CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import { html, renderPage, type SafeHtml } from "../ui/layout.ts";

/** Dates are shown in Brasília time: the page is pt-BR and so is its reader. */
const WHEN = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone: "America/Sao_Paulo" });

/** Our own QR route, served by this host: its path works even when PUBLIC_URL points elsewhere (dev, tests). */
function qrSrc(url: string): string {
  try {
    const { pathname } = new URL(url);
    return /\/pix\/[^/]+\/qr\.png$/.test(pathname) ? pathname : url;
  } catch {
    return url;
  }
}

export function renderResultPage(offer: CheckoutOffer, result: CheckoutResult): string {
  const reference = html`<p class="muted">Referência: ${result.orderId ?? result.subscriptionId ?? ""}</p>`;
  if (result.pix) {
    const [heading, what] = result.orderId ? ["Pague com Pix para concluir a compra", offer.name] : ["Pague com Pix para ativar", `Assinatura ${offer.name}`];
    return pixPage(heading, `${what} (plano ${offer.planName}).`, result.pix, reference);
  }
  if (result.orderId) {
    const text = offer.renewsSubscription ? `Pagamento confirmado: sua assinatura do plano ${offer.planName} foi estendida.` : `Pagamento confirmado: ${offer.name}.`;
    return renderPage("Compra confirmada", html`<section class="card"><h1>Compra confirmada</h1><p>${text}</p>${reference}</section>`);
  }
  const trial = result.status === "trialing";
  const heading = trial ? "Período de teste iniciado" : result.status === "active" ? "Assinatura ativa" : "Assinatura criada";
  const text = trial
    ? `Seu teste grátis de ${offer.trialDays} ${offer.trialDays === 1 ? "dia" : "dias"} do plano ${offer.planName} começou.`
    : result.status === "active"
      ? `Sua assinatura do plano ${offer.planName} está ativa.`
      : "Estamos aguardando a confirmação do primeiro pagamento.";
  return renderPage(heading, html`<section class="card"><h1>${heading}</h1><p>${text}</p>${reference}</section>`);
}

function pixPage(heading: string, what: string, pix: NonNullable<CheckoutResult["pix"]>, reference: SafeHtml): string {
  return renderPage(
    "Pague com Pix",
    html`<section class="card">
<h1>${heading}</h1>
<p>${what} Escaneie o QR Code no app do seu banco ou use o Pix copia e cola.</p>
<img class="qr" src="${qrSrc(pix.qrPngUrl)}" alt="QR Code do Pix" width="256" height="256">
<label for="pix-copy-paste">Pix copia e cola</label>
<textarea id="pix-copy-paste" readonly rows="5">${pix.copyPaste}</textarea>
<p class="muted">Válido até ${WHEN.format(pix.expiresAt)} (horário de Brasília).</p>
${reference}
</section>`,
  );
}
