// GET /pay/{token}: one page for every link kind (payment-method change, renewal, open invoice), and
// the page after a submission. pt-BR, mobile first; card_number and card_cvc are never written back
// into the page. No JavaScript, except at a real gateway: there the card box is the provider's own
// script (browser-tokenizers/, chosen by the account the card is saved at) and only its token is posted.
import type { PayOutcome, PayPageView } from "../../core/links/pay-link.ts";
import { formatDay, formatPrice } from "../ui/format.ts";
import { Page, renderDocument } from "../ui/layout.tsx";
import { OrderSummary } from "../ui/order-summary.tsx";
import type { FieldError } from "../ui/text-field.tsx";
import type { BrowserCard } from "./browser-card.ts";
import { BrowserCardFields, BrowserCardScripts, browserCardFormAttributes } from "./browser-card-markup.tsx";
import { MethodChoice, SandboxCardFields } from "./payment-fields.tsx";
import type { Seller } from "../../core/tenants/get-seller.ts";
import { PixCode, type PixFollow } from "./pix-code.tsx";

const KEPT = ["method", "card_holder", "card_exp_month", "card_exp_year"];

export interface PayPageInput {
  token: string;
  view: PayPageView;
  values: Record<string, string>;
  error: FieldError | null;
  /** The Pix shown (view.pix): its status and result URLs (pix-router.ts). */
  follow?: PixFollow | null;
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

function intro(view: PayPageView): string {
  switch (view.kind) {
    case "PAYMENT_METHOD":
      return view.chargesOpenInvoice
        ? "Neste meio de pagamento o cartão só é registrado junto com um pagamento: o novo cartão paga a fatura em aberto e passa a ser usado nas próximas cobranças."
        : "Informe o novo cartão. Nada será cobrado agora; as próximas cobranças usarão este cartão.";
    case "SUBSCRIPTION_RENEWAL":
      return "Pague agora e sua assinatura é estendida por mais um ciclo.";
    case "RENEWAL_CAMPAIGN":
      return `Pague agora e sua assinatura é estendida por mais um ciclo${view.bonus ? `, mais ${view.bonus}` : ""}.`;
    case "OPEN_INVOICE":
      return "Ao pagar, sua assinatura volta a ficar ativa.";
    case "ORDER_PIX":
      return "Escaneie o QR Code no app do seu banco ou use o Pix copia e cola.";
    default:
      return "";
  }
}

function Summary({ view }: { view: PayPageView }) {
  const text = intro(view);
  const card =
    view.currentCard && view.kind === "PAYMENT_METHOD" ? (
      <p class="muted">
        Cartão atual: {view.currentCard.brand} final {view.currentCard.last4}
      </p>
    ) : null;
  // A link on a subscription shows the checkout's order summary, with the figures this page charges.
  if (view.figures && view.offerName) {
    return (
      <>
        <section class="card">
          <h1>{heading(view)}</h1>
          {text ? <p>{text}</p> : null}
          {card}
        </section>
        <OrderSummary heading="h2" offerName={view.offerName} planName={view.planName ?? ""} sellerName={view.tenantName} sandbox={view.sandbox} quote={view.figures} />
      </>
    );
  }
  return (
    <section class="card">
      {view.sandbox ? <span class="badge">Ambiente de testes</span> : null}
      <h1>{heading(view)}</h1>
      <p class="muted">
        {view.planName ? `Plano ${view.planName} · ` : ""}
        {view.tenantName}
      </p>
      {view.amountCents !== null ? <p class="price">{formatPrice(view.amountCents, view.currency)}</p> : null}
      {card}
      {text ? <p>{text}</p> : null}
    </section>
  );
}

function PixBlock({ pix, follow }: { pix: NonNullable<PayPageView["pix"]>; follow?: PixFollow | null }) {
  return (
    <section class="card">
      <h2>Pague com Pix</h2>
      <p>Escaneie o QR Code no app do seu banco ou use o Pix copia e cola.</p>
      <PixCode qrSrc={`/pix/${pix.paymentId}/qr.png`} copyPaste={pix.copyPaste} expiresAt={pix.expiresAt} follow={follow} />
    </section>
  );
}

/** One method needs no choice: it travels as a hidden field. */
function PayMethodChoice({ methods, value }: { methods: PayPageView["methods"]; value: string | undefined }) {
  if (methods.length < 2) return <input type="hidden" name="method" value={methods[0] ?? "card"} />;
  return <MethodChoice methods={methods} value={value} />;
}

export function PayPage(p: PayPageInput) {
  const { view } = p;
  if (view.blocker) {
    return (
      <Page title={heading(view)}>
        <Summary view={view} />
        <p class="card">{view.blocker}</p>
      </Page>
    );
  }
  const bc = p.browserCard ?? null;
  const cardBox = ["card_holder", "card_number", "card_exp_month", "card_exp_year", "card_cvc", ...(bc ? ["authentication_id", bc.tokenField.name] : [])];
  const banner =
    p.error && !cardBox.includes(p.error.field) ? (
      <p class="alert" role="alert">
        {p.error.error}
      </p>
    ) : null;
  const values = Object.fromEntries(Object.entries(p.values).filter(([k]) => KEPT.includes(k) || (bc && k === bc.tokenField.name)));
  // An open invoice with a live QR shows it; the form then only offers the card.
  const formMethods = view.kind === "OPEN_INVOICE" && view.pix ? view.methods.filter((m) => m === "card") : view.methods;
  const button = view.kind === "PAYMENT_METHOD" && !view.chargesOpenInvoice ? "Salvar cartão" : "Pagar";
  const withCard = formMethods.includes("card");
  const browser = withCard ? bc : null;
  return (
    <Page title={heading(view)}>
      <Summary view={view} />
      {/* An open invoice or a pending order with a live QR shows it. */}
      {view.pix ? <PixBlock pix={view.pix} follow={p.follow} /> : null}
      {formMethods.length ? (
        <form class="card" method="post" action={`/pay/${p.token}`} {...browserCardFormAttributes(browser)}>
          {banner}
          <PayMethodChoice methods={formMethods} value={values.method} />
          {withCard ? browser ? <BrowserCardFields card={browser} error={p.error} values={values} pixToo={formMethods.includes("pix")} /> : <SandboxCardFields values={values} error={p.error} /> : null}
          <button type="submit">{button}</button>
        </form>
      ) : (
        banner
      )}
      {browser ? <BrowserCardScripts card={browser} /> : null}
    </Page>
  );
}

/** `seller` signs the page (footer). */
export function renderPayPage(p: PayPageInput, seller?: Seller | null): string {
  return renderDocument(<PayPage {...p} />, seller);
}

function outcomeText(outcome: PayOutcome): [title: string, text: string] {
  if (outcome.status === "card_updated") return ["Cartão atualizado", `As próximas cobranças usarão o cartão ${outcome.card?.brand ?? ""} final ${outcome.card?.last4 ?? ""}.`];
  if (outcome.kind === "SUBSCRIPTION_RENEWAL" || outcome.kind === "RENEWAL_CAMPAIGN") {
    return ["Renovação confirmada", outcome.currentPeriodEnd ? `Pagamento aprovado. Sua assinatura está garantida até ${formatDay(outcome.currentPeriodEnd)}.` : "Pagamento aprovado."];
  }
  return ["Pagamento aprovado", outcome.card ? `Pago com o cartão ${outcome.card.brand} final ${outcome.card.last4}. Sua assinatura está ativa.` : "Sua assinatura está ativa."];
}

export function PayResultPage({ view, outcome, follow }: { view: PayPageView; outcome: PayOutcome; follow?: PixFollow | null }) {
  if (outcome.pix) {
    return (
      <Page title="Pague com Pix">
        <Summary view={view} />
        <PixBlock pix={outcome.pix} follow={follow} />
      </Page>
    );
  }
  const [title, text] = outcomeText(outcome);
  return (
    <Page title={title}>
      <section class="card">
        <h1>{title}</h1>
        <p>{text}</p>
      </section>
    </Page>
  );
}

export function renderPayResultPage(view: PayPageView, outcome: PayOutcome, seller?: Seller | null, follow?: PixFollow | null): string {
  return renderDocument(<PayResultPage view={view} outcome={outcome} follow={follow} />, seller);
}
