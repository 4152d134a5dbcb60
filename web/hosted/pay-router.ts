// Hosted /pay/{token}: one page for every link kind (service-contract §3). Thin: describePayLink and
// payLink own every rule. Unknown tokens get a 404 page, expired and used ones a 410 page. The request
// body is never logged; a failure is logged without card data (as on the checkout). Posts to a LIVE
// tenant's link are limited per address and per link (attempt-limits.ts).
import { Router, type ErrorRequestHandler, type Request, type Response } from "express";
import { describePayLink, payLink, type PayOutcome, type PayPageView } from "../../core/links/pay-link.ts";
import { PAYMENT_RETURN_PATH } from "../../core/gateways/registry.ts";
import { cardTypedInBrowser } from "../../core/links/link-rules.ts";
import { payLinkTenantMode } from "../../core/links/pay-link-tenant-mode.ts";
import type { Runtime } from "../../core/runtime.ts";
import { isAppError } from "../../core/shared/errors.ts";
import { toHttp } from "../../http/error-map.ts";
import { bodyParsing } from "../../http/body.ts";
import { attemptLimits, type AttemptLimitOptions } from "./attempt-limits.ts";
import { browserCardFor, setBrowserCardCsp, tokenizesInBrowser, type BrowserCard } from "./browser-card.ts";
import { renderMessagePage } from "../ui/layout.tsx";
import { renderPayPage, renderPayResultPage } from "./pay-page.tsx";
import { logSafely } from "./log-safely.ts";
import { sameOriginPost } from "./same-origin-post.ts";
import { hostedPageHeaders, sendHostedPage } from "./send-page.ts";
import { getSellerOfPayLink } from "../../core/tenants/get-seller.ts";
import { INCOMPLETE, NOT_SELLING } from "./not-selling.ts";
import { pixFollowFor } from "./pix-router.ts";

/** Submitted fields written back into a refused form; card_number and card_cvc are not among them. */
const KEPT = ["method", "card_holder", "card_exp_month", "card_exp_year"];

function textValues(source: unknown, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    if (!keys.includes(k)) continue;
    if (typeof v === "string") out[k] = v;
    else if (typeof v === "number") out[k] = String(v);
  }
  return out;
}

function wantsJson(req: Request): boolean {
  return req.accepts(["text/html", "application/json"]) === "application/json";
}

function outcomeBody(o: PayOutcome) {
  return {
    status: o.status,
    error: null,
    kind: o.kind.toLowerCase(),
    subscription_status: o.subscriptionStatus,
    card: o.card,
    current_period_end: o.currentPeriodEnd ? o.currentPeriodEnd.toISOString() : null,
    pix: o.pix ? { copy_paste: o.pix.copyPaste, qr_png_url: `/pix/${o.pix.paymentId}/qr.png`, expires_at: o.pix.expiresAt.toISOString() } : null,
  };
}

function messageFor(status: number, code: string, error: string): [string, string] {
  if (code === "rate_limited") return ["Muitas tentativas", "Muitas tentativas. Aguarde um minuto e tente novamente."];
  if (code === "cross_site_request") return ["Envio bloqueado", "Por segurança, este formulário só pode ser enviado pela própria página de pagamento. Abra o link de novo e envie por ela."];
  if (status === 404) return ["Link não encontrado", "Este link de pagamento não existe. Confira o endereço ou peça um novo link ao vendedor."];
  if (code === "link_expired") return ["Link expirado", `${error[0]?.toUpperCase() ?? ""}${error.slice(1)}. Peça um novo link ao vendedor.`];
  if (code === "link_used") return ["Link já utilizado", `${error[0]?.toUpperCase() ?? ""}${error.slice(1)}. Não é preciso fazer mais nada.`];
  if (status >= 500) return ["Algo deu errado", "Não conseguimos concluir agora. Tente novamente em instantes."];
  if (status === 400 || status === 413 || status === 415) return ["Formulário inválido", "Não conseguimos ler o formulário. Volte e envie de novo."];
  return ["Não foi possível continuar", error];
}

export function payRouter(runtime: Runtime, opts: AttemptLimitOptions = {}): Router {
  const r = Router();
  r.use("/pay", hostedPageHeaders(runtime));
  const limits = attemptLimits("pay", (req) => payLinkTenantMode(runtime.db.prisma, String(req.params.token ?? "")), opts);

  /**
   * The page's card path, chosen by the account the card will be saved at (view.cardAccount): that
   * provider's browser tokenizer (with its CSP), the sandbox's own form, or no card when a real gateway's
   * script cannot be loaded (no tokenizer or no public key).
   */
  const pageCard = async (res: Response, view: PayPageView): Promise<{ view: PayPageView; browserCard: BrowserCard | null }> => {
    const account = view.cardAccount;
    if (!account || !view.methods.includes("card") || !cardTypedInBrowser(account.provider)) return { view, browserCard: null };
    const browserCard = tokenizesInBrowser(account.provider) ? await browserCardFor(runtime, account) : null;
    if (browserCard) {
      setBrowserCardCsp(res, runtime, browserCard);
      return { view, browserCard };
    }
    const methods = view.methods.filter((m) => m !== "card");
    const blocker = methods.length === 0 && !view.pix ? "O pagamento com cartão não está disponível para esta assinatura no momento. Fale com o vendedor." : view.blocker;
    return { view: { ...view, methods, blocker }, browserCard: null };
  };

  // Where a card's issuer sends back a payer it took to its own 3-D Secure page (Stripe's return_url). Our pages
  // run the challenge in place, so this is a fallback: the query Stripe adds is never read nor echoed.
  r.get(PAYMENT_RETURN_PATH, (_req, res) => {
    sendHostedPage(res, runtime, 200, renderMessagePage("Autenticação do cartão concluída", "Volte à página de pagamento e envie o formulário de novo para concluir."));
  });

  r.get("/pay/:token", async (req, res) => {
    const token = String(req.params.token ?? "");
    const found = await describePayLink(runtime, token);
    const seller = await getSellerOfPayLink(runtime.db.prisma, token);
    if (seller && !seller.canSell) return sendHostedPage(res, runtime, INCOMPLETE.status, renderMessagePage(...NOT_SELLING));
    const { view, browserCard } = await pageCard(res, found);
    const follow = view.pix ? await pixFollowFor(runtime, view.pix.paymentId) : null;
    sendHostedPage(res, runtime, 200, renderPayPage({ token, view, values: {}, error: null, browserCard, follow }, seller));
  });

  r.post("/pay/:token", sameOriginPost(runtime.config.publicUrl), limits, ...bodyParsing(), async (req, res) => {
    const token = String(req.params.token ?? "");
    const body = (req.body ?? {}) as Record<string, unknown>;
    const json = wantsJson(req);
    const seller = await getSellerOfPayLink(runtime.db.prisma, token);
    // A LIVE seller without legal name and CNPJ takes no payment: nothing is charged.
    if (seller && !seller.canSell) {
      if (json) return void res.status(INCOMPLETE.status).set("Cache-Control", "no-store").json({ status: null, error: NOT_SELLING[1], code: INCOMPLETE.code });
      return sendHostedPage(res, runtime, INCOMPLETE.status, renderMessagePage(...NOT_SELLING));
    }
    // The tokenizer the page loaded for the card account: its token field is what the card may arrive as.
    const before = await pageCard(res, await describePayLink(runtime, token));
    let outcome: PayOutcome;
    try {
      outcome = await payLink(runtime, { token, body, browserToken: before.browserCard?.tokenField ?? null });
    } catch (e) {
      // A refused card or field, or a state conflict, keeps the visitor on the form with the message.
      if (!json && isAppError(e) && (e.status === 422 || e.status === 409)) {
        const { view, browserCard } = await pageCard(res, await describePayLink(runtime, token));
        // 3-D Secure: the page runs the provider's challenge with next_action, then posts the token again.
        const nextAction = typeof e.body.next_action === "string" ? e.body.next_action : null;
        const error = { field: String(e.body.field ?? ""), error: e.body.error };
        const card = browserCard ? { ...browserCard, nextAction } : null;
        // The provider's token travels again with the 3-D Secure handle; card numbers are never kept.
        const kept = browserCard ? [...KEPT, browserCard.tokenField.name] : KEPT;
        return sendHostedPage(res, runtime, e.status, renderPayPage({ token, view, values: textValues(body, kept), error, browserCard: card }, seller));
      }
      throw e;
    }
    if (json) return void res.status(200).set("Cache-Control", "no-store").json(outcomeBody(outcome));
    const view = await describePayLink(runtime, token).catch(() => null);
    const follow = outcome.pix ? await pixFollowFor(runtime, outcome.pix.paymentId) : null;
    sendHostedPage(res, runtime, 200, renderPayResultPage(view ?? fallbackView(outcome), outcome, seller, follow));
  });

  const hostedErrors: ErrorRequestHandler = (err, req, res, next) => {
    if (!req.path.startsWith("/pay/")) return next(err);
    const { status, body } = toHttp(err);
    if (status >= 500) logSafely(req, runtime, err, "hosted pay page failed");
    if (res.headersSent) return;
    if (wantsJson(req) && req.method === "POST") return void res.status(status).set("Cache-Control", "no-store").json({ status: null, ...body });
    const [heading, message] = messageFor(status, String(body.code ?? ""), String(body.error ?? ""));
    sendHostedPage(res, runtime, status, renderMessagePage(heading, message));
  };
  r.use(hostedErrors);
  return r;
}

/** After a single-use link is spent the link no longer describes itself: a plain view for the result page. */
function fallbackView(o: PayOutcome) {
  return {
    kind: o.kind,
    tenantName: "",
    sandbox: false,
    planName: null,
    amountCents: null,
    currency: "brl",
    methods: [],
    blocker: null,
    chargesOpenInvoice: false,
    currentCard: null,
    pix: null,
    cardAccount: null,
  };
}
