// The page after a successful POST /checkout/{offer_id}: subscription active, trial started, order
// paid, or a Pix to pay.
import type { CheckoutResult } from "../../core/checkout/checkout-input.ts";
import type { CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import { Page, renderDocument } from "../ui/layout.tsx";
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

function Outcome({ heading, text, reference }: { heading: string; text: string; reference: string }) {
  return (
    <Page title={heading}>
      <section class="card">
        <h1>{heading}</h1>
        <p>{text}</p>
        <Reference id={reference} />
      </section>
    </Page>
  );
}

function Reference({ id }: { id: string }) {
  return <p class="muted">Referência: {id}</p>;
}

function PixToPay({ heading, what, pix, reference, follow }: { heading: string; what: string; pix: NonNullable<CheckoutResult["pix"]>; reference: string; follow?: PixFollow | null }) {
  return (
    <Page title="Pague com Pix">
      <section class="card">
        <h1>{heading}</h1>
        <p>{what} Escaneie o QR Code no app do seu banco ou use o Pix copia e cola.</p>
        <PixCode qrSrc={qrSrc(pix.qrPngUrl)} copyPaste={pix.copyPaste} expiresAt={pix.expiresAt} follow={follow} />
        <Reference id={reference} />
      </section>
    </Page>
  );
}

export function ResultPage({ offer, result, follow }: { offer: CheckoutOffer; result: CheckoutResult; follow?: PixFollow | null }) {
  const reference = result.orderId ?? result.subscriptionId ?? "";
  if (result.pix) {
    const [heading, what] = result.orderId ? ["Pague com Pix para concluir a compra", offer.name] : ["Pague com Pix para ativar", `Assinatura ${offer.name}`];
    return <PixToPay heading={heading} what={`${what} (plano ${offer.planName}).`} pix={result.pix} reference={reference} follow={follow} />;
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
  return <Outcome heading={heading} text={text} reference={reference} />;
}

/** `seller` signs the page (footer); `follow`: a Pix page's status and result URLs (pix-router.ts). */
export function renderResultPage(offer: CheckoutOffer, result: CheckoutResult, seller?: Seller | null, follow?: PixFollow | null): string {
  return renderDocument(<ResultPage offer={offer} result={result} follow={follow} />, seller);
}
