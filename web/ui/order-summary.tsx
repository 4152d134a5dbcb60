// The order summary every hosted page shows before and after paying (Stripe Checkout's model): the
// price per period, the coupon with its duration, the trial, what is charged today, the next charge
// and the automatic renewal. Every figure is the core's, from the calculation that charges: quote-checkout.ts
// (startCheckout) or quote-pay-link.ts (/pay).
import type { ComponentChildren } from "preact";
import type { OrderFigures } from "../../core/shared/order-figures.ts";
import { formatDay, formatMoney } from "../../core/shared/format-money.ts";

export interface OrderSummaryProps {
  offerName: string;
  planName: string;
  sellerName: string;
  sandbox: boolean;
  quote: OrderFigures;
  /** h1 before paying; h2 under a result page's own heading. */
  heading?: "h1" | "h2";
  /** The page's own lines under the figures (a form, a note). */
  children?: ComponentChildren;
}

const PER = { MONTH: "/mês", YEAR: "/ano" } as const;
const PERIOD = { MONTH: "a cada mês", YEAR: "a cada ano" } as const;

/** "nas 3 primeiras cobranças", "na primeira cobrança", "em todas as cobranças"; a running coupon: "nas próximas 2 cobranças". */
function couponSpan(cycles: number | null, running: boolean): string {
  if (cycles === null) return running ? "em todas as próximas cobranças" : "em todas as cobranças";
  if (running) return cycles === 1 ? "na próxima cobrança" : `nas próximas ${cycles} cobranças`;
  return cycles === 1 ? "na primeira cobrança" : `nas ${cycles} primeiras cobranças`;
}

function couponText(q: OrderFigures): string {
  const c = q.coupon!;
  const off = c.percentOff ? `${c.percentOff}% de desconto` : `${formatMoney(c.discountCents, q.currency)} de desconto`;
  return `${off} ${couponSpan(c.cycles, !!c.running)}: ${formatMoney(c.discountedPriceCents, q.currency)} ${PER[q.interval]}`;
}

function Row({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div class="sum-row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function OrderSummary(p: OrderSummaryProps) {
  const q = p.quote;
  const money = (c: number) => formatMoney(c, q.currency);
  const Heading = p.heading ?? "h1";
  return (
    <section class="card" aria-labelledby="order-summary">
      {p.sandbox ? <span class="badge">Ambiente de testes</span> : null}
      <Heading id="order-summary">{p.offerName}</Heading>
      <p class="muted">
        Plano {p.planName} · vendido por {p.sellerName}
      </p>
      <p class="price">
        {money(q.priceCents)} <small>{PER[q.interval]}</small>
      </p>
      <dl class="sum">
        {q.coupon ? <Row term={`Cupom ${q.coupon.code}`}>{couponText(q)}</Row> : null}
        {q.trialEndsAt ? (
          <Row term="Teste grátis">
            Grátis até {formatDay(q.trialEndsAt)}; depois, {money(q.nextChargeCents)}
          </Row>
        ) : null}
        <Row term="Cobrado hoje">{money(q.todayCents)}</Row>
        <Row term="Próxima cobrança">
          {money(q.nextChargeCents)} em {formatDay(q.nextChargeAt)}
        </Row>
      </dl>
      <p class="muted">Renova automaticamente até você cancelar, {PERIOD[q.interval]}.</p>
      {p.children}
    </section>
  );
}
