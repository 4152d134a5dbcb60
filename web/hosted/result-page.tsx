// The page after a successful POST /checkout/{offer_id}: subscription active, trial started, order
// paid, or a Pix to pay.
import type { ComponentChildren } from "preact";
import type { CheckoutResult } from "../../core/checkout/checkout-input.ts";
import type { CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import { formatDay, formatMoney } from "../../core/shared/format-money.ts";
import { Page, renderDocument } from "../ui/layout.tsx";
import { OrderSummary } from "../ui/order-summary.tsx";
import type { Seller } from "../../core/tenants/get-seller.ts";
import { PixCode, type PixFollow } from "./pix-code.tsx";

/** Our own QR route, served by this host: its path works even when PUBLIC_URL points elsewhere (dev, tests). */
function qrSrc(url: string): string {
  try {
    const { pathname } = new URL(url);
    return /\/pix\/[^/]+\/qr\.png$/.test(pathname) ? pathname : url;
  } catch {
    return url;
  }
}

function Outcome({ heading, text, reference, children, summary }: { heading: string; text: string; reference: string; children?: ComponentChildren; summary?: ComponentChildren }) {
  return (
    <Page title={heading}>
      <section class="card">
        <h1>{heading}</h1>
        <p>{text}</p>
        {children}
        <Reference id={reference} />
      </section>
      {summary}
    </Page>
  );
}

function Reference({ id }: { id: string }) {
  return <p class="muted">Referência: {id}</p>;
}

/** The summary the checkout showed, with the figures charged (result.quote); orders have none. */
function Summary({ offer, result }: { offer: CheckoutOffer; result: CheckoutResult }) {
  if (!result.quote) return null;
  return <OrderSummary heading="h2" offerName={offer.name} planName={offer.planName} sellerName={offer.tenantName} sandbox={offer.tenantMode === "SANDBOX"} quote={result.quote} />;
}

/** What was charged and how, the next charge, where the e-mails go and how to stop it. */
function Charged({ offer, result, email }: { offer: CheckoutOffer; result: CheckoutResult; email: string }) {
  const q = result.quote;
  if (!q) return null;
  const money = (c: number) => formatMoney(c, q.currency);
  const method = result.card ? `no cartão ${result.card.brand} final ${result.card.last4}` : "via Pix";
  const charged = q.todayCents > 0 ? `Cobrado hoje: ${money(q.todayCents)} ${method}.` : `Nada foi cobrado hoje; ${result.card ? `o cartão ${result.card.brand} final ${result.card.last4}` : "o Pix"} será usado na próxima cobrança.`;
  const receipt = result.status === "trialing" ? `Os avisos e recibos serão enviados para ${email}.` : `O recibo foi enviado para ${email}.`;
  return (
    <>
      <p>{charged}</p>
      <p>
        Próxima cobrança: {money(q.nextChargeCents)} em {formatDay(q.nextChargeAt)}.
      </p>
      <p>{receipt}</p>
      <p class="muted">Para cancelar, responda ao e-mail do recibo ou fale com {offer.tenantName}: depois do cancelamento, nada mais é cobrado.</p>
    </>
  );
}

function PixToPay({ heading, what, pix, reference, summary, follow }: { heading: string; what: string; pix: NonNullable<CheckoutResult["pix"]>; reference: string; summary: ComponentChildren; follow?: PixFollow | null }) {
  return (
    <Page title="Pague com Pix">
      <section class="card">
        <h1>{heading}</h1>
        <p>{what} Escaneie o QR Code no app do seu banco ou use o Pix copia e cola.</p>
        <PixCode qrSrc={qrSrc(pix.qrPngUrl)} copyPaste={pix.copyPaste} expiresAt={pix.expiresAt} follow={follow} />
        <Reference id={reference} />
      </section>
      {summary}
    </Page>
  );
}

export function ResultPage({ offer, result, email, follow }: { offer: CheckoutOffer; result: CheckoutResult; email: string; follow?: PixFollow | null }) {
  const reference = result.orderId ?? result.subscriptionId ?? "";
  if (result.pix) {
    const [heading, what] = result.orderId ? ["Pague com Pix para concluir a compra", offer.name] : ["Pague com Pix para ativar", `Assinatura ${offer.name}`];
    return <PixToPay heading={heading} what={`${what} (plano ${offer.planName}).`} pix={result.pix} reference={reference} summary={<Summary offer={offer} result={result} />} follow={follow} />;
  }
  if (result.orderId) {
    const text = offer.renewsSubscription ? `Pagamento confirmado: sua assinatura do plano ${offer.planName} foi estendida.` : `Pagamento confirmado: ${offer.name}.`;
    return <Outcome heading="Compra confirmada" text={text} reference={reference} />;
  }
  const trial = result.status === "trialing";
  const heading = trial ? "Período de teste iniciado" : result.status === "active" ? "Assinatura ativa" : "Assinatura criada";
  const text = trial
    ? `Seu teste grátis de ${offer.trialDays} ${offer.trialDays === 1 ? "dia" : "dias"} do plano ${offer.planName} começou.`
    : result.status === "active"
      ? `Sua assinatura do plano ${offer.planName} está ativa.`
      : "Estamos aguardando a confirmação do primeiro pagamento.";
  return (
    <Outcome heading={heading} text={text} reference={reference} summary={<Summary offer={offer} result={result} />}>
      <Charged offer={offer} result={result} email={email} />
    </Outcome>
  );
}

/** `seller` signs the page (footer); `follow`: a Pix page's status and result URLs (pix-router.ts). */
export function renderResultPage(offer: CheckoutOffer, result: CheckoutResult, email: string, seller?: Seller | null, follow?: PixFollow | null): string {
  return renderDocument(<ResultPage offer={offer} result={result} email={email} follow={follow} />, seller);
}
