// GET /checkout/{offer_id}: the hosted checkout form (service-contract §3), and the same form again
// with a field's error after a refused POST. card_number and card_cvc are never written back.
import type { CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import type { CheckoutQuote } from "../../core/checkout/quote-checkout.ts";
import type { Tracking } from "../../core/checkout/checkout-input.ts";
import { trackingHiddenFields } from "../../core/checkout/tracking.ts";
import { formatPrice } from "../ui/format.ts";
import { Page, renderDocument } from "../ui/layout.tsx";
import { OrderSummary } from "../ui/order-summary.tsx";
import { TextField, type FieldError } from "../ui/text-field.tsx";
import type { Seller } from "../../core/tenants/get-seller.ts";
import type { BrowserCard } from "./browser-card.ts";
import { BrowserCardFields, BrowserCardScripts, browserCardFormAttributes } from "./browser-card-markup.tsx";
import { MethodChoice, SandboxCardFields } from "./payment-fields.tsx";
import { LIVE_COUPON_PATH } from "./live-coupon.ts";

export interface CheckoutPageInput {
  offer: CheckoutOffer;
  /** Prefill (GET query) or the submitted values (POST); card_number and card_cvc are ignored. */
  values: Record<string, string>;
  tracking: Tracking | null;
  error: FieldError | null;
  /** Subscription offers: the figures the checkout charges, with the coupon applied when it is usable (null: one-time offer). */
  quote: CheckoutQuote | null;
  /** Offer at Stripe: the card is typed in Stripe.js' iframe, the form has no card fields (PCI SAQ A). */
  browserCard?: BrowserCard | null;
}

/** Fields the page shows; an error on any other field (external_id…) goes to the banner. */
const VISIBLE = new Set(["name", "email", "phone", "doc", "quantity", "method", "card_holder", "card_number", "card_exp_month", "card_exp_year", "card_cvc", "coupon", "ref"]);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Values the coupon form carries back so that applying a coupon keeps what the link prefilled. */
const CARRIED = ["external_id", "name", "email", "phone", "doc", "ref"];

/** "Aplicar": posts the coupon alone (no JavaScript); the page comes back with the summary recomputed or the coupon's error. */
function CouponForm({ p }: { p: CheckoutPageInput }) {
  const hidden = Object.entries(trackingHiddenFields(p.tracking));
  for (const name of CARRIED) if (p.values[name]) hidden.push([name, p.values[name]]);
  return (
    <form class="inline" method="post" action={`/checkout/${p.offer.id}`} data-live-coupon="">
      <input type="hidden" name="apply" value="coupon" />
      {hidden.map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <TextField name="coupon" label="Cupom de desconto" value={p.values.coupon ?? ""} error={p.error?.field === "coupon" ? p.error.error : null} maxlength={100} />
      <button type="submit">Aplicar</button>
    </form>
  );
}

function Summary({ p }: { p: CheckoutPageInput }) {
  const { offer, quote } = p;
  if (quote) {
    return (
      <OrderSummary offerName={offer.name} planName={offer.planName} sellerName={offer.tenantName} sandbox={offer.tenantMode === "SANDBOX"} quote={quote}>
        {offer.methods.length > 0 ? <CouponForm p={p} /> : null}
      </OrderSummary>
    );
  }
  return <OneTimeSummary offer={offer} />;
}

function OneTimeSummary({ offer }: { offer: CheckoutOffer }) {
  const per = offer.kind === "one_time" ? "por unidade" : offer.interval === "year" ? "/ano" : "/mês";
  const trial = offer.trialDays > 0 ? `${plural(offer.trialDays, "dia", "dias")} grátis; a primeira cobrança vem depois do teste.` : null;
  return (
    <section class="card">
      {offer.tenantMode === "SANDBOX" ? <span class="badge">Ambiente de testes</span> : null}
      <h1>{offer.name}</h1>
      <p class="muted">
        Plano {offer.planName} · {offer.tenantName}
      </p>
      <p class="price">
        {formatPrice(offer.priceCents, offer.currency)} <small>{per}</small>
      </p>
      {trial ? <p class="muted">{trial}</p> : null}
      <OneTimeNote offer={offer} />
    </section>
  );
}

function OneTimeNote({ offer }: { offer: CheckoutOffer }) {
  if (offer.kind !== "one_time") return null;
  if (offer.renewsSubscription) return <p class="muted">Pagamento único: cada unidade estende sua assinatura ativa deste plano por mais um ciclo.</p>;
  if (offer.grantDays > 0) return <p class="muted">Pagamento único: acesso por {plural(offer.grantDays, "dia", "dias")} a partir da confirmação.</p>;
  return <p class="muted">Pagamento único.</p>;
}

function CardFields({ p }: { p: CheckoutPageInput }) {
  if (!p.offer.methods.includes("card")) return null;
  if (p.browserCard) return <BrowserCardFields card={p.browserCard} error={p.error} values={p.values} pixToo={p.offer.methods.includes("pix")} />;
  return <SandboxCardFields values={p.values} error={p.error} />;
}

export function CheckoutPage(p: CheckoutPageInput) {
  const { offer, values } = p;
  const bc = p.browserCard;
  if (offer.methods.length === 0) {
    return (
      <Page title={offer.name}>
        <Summary p={p} />
        <p class="card">Esta oferta não está disponível para assinatura no momento.</p>
      </Page>
    );
  }
  // A refusal about the provider's card box (its token, 3-D Secure) shows inside that box, not in the banner.
  const inCardBox = !!bc && !!p.error && [bc.tokenField.name, "authentication_id"].includes(p.error.field);
  // A one-time offer has no coupon field: a coupon's refusal goes to the banner.
  const notOnAField = !VISIBLE.has(p.error?.field ?? "") || (offer.kind === "one_time" && p.error?.field === "coupon");
  const banner = p.error && notOnAField && !inCardBox ? p.error.error : null;
  const errorOf = (name: string) => (p.error?.field === name ? p.error.error : null);
  const oneTime = offer.kind === "one_time";
  const hidden = Object.entries(trackingHiddenFields(p.tracking));
  if (values.external_id) hidden.push(["external_id", values.external_id]);
  // The coupon the summary shows applied is the one this form pays with.
  if (p.quote?.coupon) hidden.push(["coupon", p.quote.coupon.code]);
  const text = (name: string) => ({ name, value: values[name] ?? "", error: errorOf(name) });
  return (
    <Page title={`${offer.name} · ${oneTime ? "Compra" : "Assinatura"}`}>
      <Summary p={p} />
      <form id="pay-form" class="card" method="post" action={`/checkout/${offer.id}`} {...browserCardFormAttributes(bc)}>
        {banner ? (
          <p class="alert" role="alert">
            {banner}
          </p>
        ) : null}
        <h2>Seus dados</h2>
        {hidden.map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <TextField {...text("name")} label="Nome completo" autocomplete="name" maxlength={200} required />
        <TextField {...text("email")} label="E-mail" type="email" autocomplete="email" inputmode="email" maxlength={254} required />
        <TextField {...text("phone")} label="Celular com DDD" type="tel" autocomplete="tel" inputmode="tel" placeholder="(11) 98765-4321" maxlength={30} required />
        <TextField {...text("doc")} label="CPF ou CNPJ" inputmode="numeric" maxlength={18} required />
        {oneTime ? <TextField {...text("quantity")} value={values.quantity ?? "1"} label="Quantidade" inputmode="numeric" maxlength={2} /> : null}
        <MethodChoice methods={offer.methods} value={values.method} error={errorOf("method")} />
        <CardFields p={p} />
        {oneTime ? null : <TextField {...text("ref")} label="Código de indicação (opcional)" maxlength={100} />}
        <button type="submit">{oneTime ? "Comprar" : "Assinar"}</button>
      </form>
      {bc && offer.methods.includes("card") ? <BrowserCardScripts card={bc} /> : null}
      {/* "Aplicar" without a reload; the coupon form works the same without it. */}
      {p.quote ? <script src={LIVE_COUPON_PATH} defer></script> : null}
    </Page>
  );
}

/** `seller` signs the page (footer). */
export function renderCheckoutPage(p: CheckoutPageInput, seller?: Seller | null): string {
  return renderDocument(<CheckoutPage {...p} />, seller);
}
