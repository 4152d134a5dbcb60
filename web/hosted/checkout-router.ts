// Hosted checkout (service-contract §3): GET and POST /checkout/{offer_id} and the Pix QR image.
// Thin: the form parser, the tracking capture and startCheckout own every rule. The request body is
// never logged, and a failure is logged without card data (see logSafely). Posts to a LIVE offer
// are limited per address and per offer (attempt-limits.ts).
import { Router, type ErrorRequestHandler, type Request, type Response } from "express";
import QRCode from "qrcode";
import type { CheckoutResult } from "../../core/checkout/checkout-input.ts";
import { parseCheckoutForm } from "../../core/checkout/checkout-form.ts";
import { getCheckoutOffer, type CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import { getPixCopyPaste } from "../../core/checkout/get-pix-qr.ts";
import { findCheckoutCoupon } from "../../core/checkout/checkout-guards.ts";
import { quoteCheckout, type CheckoutQuote } from "../../core/checkout/quote-checkout.ts";
import { COUPON_UNUSABLE } from "../../core/checkout/refusal-texts.ts";
import { startCheckout } from "../../core/checkout/start-checkout.ts";
import { captureTracking, trackingFromForm } from "../../core/checkout/tracking.ts";
import type { Runtime } from "../../core/runtime.ts";
import { tenantClock } from "../../core/shared/clock.ts";
import { isAppError } from "../../core/shared/errors.ts";
import type { FieldError } from "../ui/text-field.tsx";
import { toHttp } from "../../http/error-map.ts";
import { bodyParsing } from "../../http/body.ts";
import { attemptLimits, type AttemptLimitOptions } from "./attempt-limits.ts";
import { browserCardFor, browserTokenField, setBrowserCardCsp, tokenizesInBrowser, type BrowserCard } from "./browser-card.ts";
import { renderCheckoutPage } from "./checkout-page.tsx";
import { LIVE_COUPON_JS, LIVE_COUPON_PATH } from "./live-coupon.ts";
import { logSafely } from "./log-safely.ts";
import { sameOriginPost } from "./same-origin-post.ts";
import { hostedPageHeaders, sendHostedPage } from "./send-page.ts";
import { renderMessagePage } from "../ui/layout.tsx";
import { renderResultPage } from "./result-page.tsx";
import { pixFollowFor } from "./pix-router.ts";
import { INCOMPLETE, NOT_SELLING } from "./not-selling.ts";

/** Query parameters the page prefills (service-contract §3). */
const PREFILL = ["external_id", "email", "name", "coupon", "ref", "quantity"];
/** Submitted fields written back into a refused form; card_number and card_cvc are not among them. */
const KEPT = ["external_id", "name", "email", "phone", "doc", "method", "card_holder", "card_exp_month", "card_exp_year", "coupon", "ref", "quantity"];

/** Express' query as name -> first text value; nested objects are not link parameters. */
function textValues(source: unknown, keys?: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    if (keys && !keys.includes(k)) continue;
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === "string") out[k] = first;
    else if (typeof first === "number") out[k] = String(first);
  }
  return out;
}

/** Checkout wants JSON only when the client asks for it; browsers and curl get the page. */
function wantsJson(req: Request): boolean {
  return req.accepts(["text/html", "application/json"]) === "application/json";
}

/** Our own pages are no attribution: a Referer on this host (the form posting to itself) is dropped. */
function externalReferer(req: Request, publicUrl: string): string | null {
  const referer = req.get("referer");
  if (!referer) return null;
  try {
    const host = new URL(referer).host;
    return host === req.get("host") || host === new URL(publicUrl).host ? null : referer;
  } catch {
    return null;
  }
}

function clockOf(runtime: Runtime, offer: CheckoutOffer) {
  return tenantClock({ mode: offer.tenantMode, clockAt: offer.clockAt }, runtime.wallClock);
}

function resultBody(result: CheckoutResult) {
  const pix = result.pix && { copy_paste: result.pix.copyPaste, qr_png_url: result.pix.qrPngUrl, expires_at: result.pix.expiresAt.toISOString() };
  return { status: result.status, subscription_id: result.subscriptionId, order_id: result.orderId, pix, error: null };
}

function messageFor(status: number, code: string, error: string): [string, string] {
  if (code === "rate_limited") return ["Muitas tentativas", "Muitas tentativas. Aguarde um minuto e tente novamente."];
  if (code === "cross_site_request") return ["Envio bloqueado", "Por segurança, este formulário só pode ser enviado pela própria página de assinatura. Abra o link de novo e envie por ela."];
  if (status === 404) return ["Oferta não encontrada", "Este link de assinatura não existe ou não está mais disponível."];
  if (status >= 500) return ["Algo deu errado", "Não conseguimos concluir agora. Tente novamente em instantes."];
  if (status === 400 || status === 413 || status === 415) return ["Formulário inválido", "Não conseguimos ler o formulário. Volte e envie de novo."];
  return ["Não foi possível continuar", error];
}

/** The offer a post is about, kept for the handler: the limits and the checkout read it once. */
function offerOf(res: Response): CheckoutOffer | undefined {
  return res.locals.checkoutOffer as CheckoutOffer | undefined;
}

/** The Pix page's status and result URLs, for a result with a Pix (its payment id is in the QR route). */
async function followOf(runtime: Runtime, result: CheckoutResult) {
  const id = result.pix ? /\/pix\/([^/]+)\/qr\.png$/.exec(new URL(result.pix.qrPngUrl, "http://x").pathname)?.[1] : null;
  return id ? pixFollowFor(runtime, id) : null;
}

export function checkoutRouter(runtime: Runtime, opts: AttemptLimitOptions = {}): Router {
  const r = Router();
  const prisma = runtime.db.prisma;
  r.use("/checkout", hostedPageHeaders(runtime));
  /**
   * A Stripe offer's page loads Stripe.js (with its CSP); without a publishable key the account cannot
   * take cards in the browser, so the card method is not offered (Pix still is).
   */
  const pageCard = async (res: Response, offer: CheckoutOffer): Promise<{ offer: CheckoutOffer; browserCard: BrowserCard | null }> => {
    const browserCard = await browserCardFor(runtime, { id: offer.gatewayAccountId, tenantId: offer.tenantId, provider: offer.provider });
    if (browserCard) setBrowserCardCsp(res, runtime, browserCard);
    if (!browserCard && tokenizesInBrowser(offer.provider)) return { offer: { ...offer, methods: offer.methods.filter((m) => m !== "card") }, browserCard };
    return { offer, browserCard };
  };
  /**
   * The summary's figures for the coupon typed so far: the core's quote (the one startCheckout charges),
   * with the coupon when it is usable, else without it and the coupon's one generic refusal.
   */
  const quoteFor = async (req: Request, offer: CheckoutOffer, code: string | undefined, now: Date): Promise<{ quote: CheckoutQuote | null; couponError: FieldError | null }> => {
    const wanted = code?.trim() || null;
    if (offer.kind === "one_time") return { quote: null, couponError: wanted ? { field: "coupon", error: COUPON_UNUSABLE } : null };
    try {
      return { quote: quoteCheckout({ offer, coupon: await findCheckoutCoupon(prisma, offer.tenantId, wanted, now), now }), couponError: null };
    } catch (e) {
      if (!isAppError(e) || e.key !== "invalid_field") throw e;
      if (e.cause) (req.log ?? runtime.logger).info({ offer_id: offer.id, field: "coupon", reason: e.cause }, "checkout refused a coupon");
      return { quote: quoteCheckout({ offer, coupon: null, now }), couponError: { field: "coupon", error: e.body.error } };
    }
  };
  const limits = attemptLimits(
    "checkout",
    async (req, res) => {
      const offer = await getCheckoutOffer(prisma, String(req.params.offerId ?? "")).catch(() => null);
      if (!offer) return null; // the route answers its 404
      res.locals.checkoutOffer = offer;
      return { id: offer.id, live: offer.tenantMode === "LIVE" };
    },
    opts,
  );

  // Before /checkout/:offerId, which would take its name for an offer id.
  r.get(LIVE_COUPON_PATH, (_req, res) => {
    res.status(200).set({ "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" }).send(LIVE_COUPON_JS);
  });

  r.get("/checkout/:offerId", async (req, res) => {
    const found = await getCheckoutOffer(prisma, req.params.offerId);
    const seller = found.seller;
    if (!seller.canSell) return sendHostedPage(res, runtime, INCOMPLETE.status, renderMessagePage(...NOT_SELLING));
    const { offer, browserCard } = await pageCard(res, found);
    const query = textValues(req.query);
    const tracking = captureTracking({
      query,
      referer: externalReferer(req, runtime.config.publicUrl),
      url: `${runtime.config.publicUrl.replace(/\/+$/, "")}${req.originalUrl}`,
      now: clockOf(runtime, offer).now(),
    });
    const values = textValues(query, PREFILL);
    const { quote, couponError } = await quoteFor(req, offer, offer.kind === "one_time" ? undefined : values.coupon, clockOf(runtime, offer).now());
    sendHostedPage(res, runtime, 200, renderCheckoutPage({ offer, values, tracking, error: couponError, quote, browserCard }, seller));
  });

  r.post("/checkout/:offerId", sameOriginPost(runtime.config.publicUrl), limits, ...bodyParsing(), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const found = offerOf(res) ?? (await getCheckoutOffer(prisma, String(req.params.offerId ?? "")));
    const seller = found.seller;
    // A LIVE seller without legal name and CNPJ takes no payment: nothing is created, nothing charged.
    if (!seller.canSell) {
      if (wantsJson(req)) return void res.status(INCOMPLETE.status).set("Cache-Control", "no-store").json({ error: NOT_SELLING[1], code: INCOMPLETE.code });
      return sendHostedPage(res, runtime, INCOMPLETE.status, renderMessagePage(...NOT_SELLING));
    }
    const { offer, browserCard } = await pageCard(res, found);
    const now = clockOf(runtime, offer).now();
    // The provider's token and 3-D Secure handle are the card's, never attribution: kept out of the tracking params.
    const cardFields = new Set(browserCard ? [browserCard.tokenField.name, "authentication_id"] : []);
    const attribution = Object.fromEntries(Object.entries(body).filter(([k]) => !cardFields.has(k)));
    const tracking = trackingFromForm(attribution, externalReferer(req, runtime.config.publicUrl), now);
    const json = wantsJson(req);
    // nextAction: 3-D Secure asked at setup; the page's script runs the provider's challenge with it and posts again.
    const refuse = async (status: number, field: string, error: string, nextAction: string | null = null) => {
      if (json) return void res.status(status).set("Cache-Control", "no-store").json({ error, field, ...(nextAction ? { next_action: nextAction } : {}) });
      const values = textValues(body, browserCard ? [...KEPT, browserCard.tokenField.name] : KEPT);
      const { quote } = await quoteFor(req, offer, field === "coupon" ? undefined : values.coupon, now);
      sendHostedPage(res, runtime, status, renderCheckoutPage({ offer, values, tracking, error: { field, error }, quote, browserCard: browserCard && { ...browserCard, nextAction } }, seller));
    };

    // "Aplicar": the summary again with the coupon applied (or its refusal); nothing is charged.
    if (body.apply === "coupon" && !json) {
      const values = textValues(body, KEPT);
      const { quote, couponError } = await quoteFor(req, offer, values.coupon ?? "", now);
      return sendHostedPage(res, runtime, couponError ? 422 : 200, renderCheckoutPage({ offer, values, tracking, error: couponError, quote, browserCard }, seller));
    }

    // Offers at a browser-tokenizing provider take its token field (Stripe: payment_method_id) and refuse any posted card number (PCI SAQ A).
    const form = parseCheckoutForm(body, { now, methods: offer.methods, withQuantity: offer.kind === "one_time", browserToken: browserTokenField(offer.provider) });
    if (!form.ok) return refuse(422, form.field, form.error);
    let result: CheckoutResult;
    try {
      result = await startCheckout(runtime, { ...form.value, offerId: offer.id, tracking }, found);
    } catch (e) {
      if (isAppError(e) && e.key === "invalid_field") {
        // The page says only "cupom inválido ou indisponível"; the operator's log keeps why.
        if (e.cause) (req.log ?? runtime.logger).info({ offer_id: offer.id, field: e.body.field, reason: e.cause }, "checkout refused a coupon");
        return refuse(e.status, String(e.body.field ?? ""), e.body.error, typeof e.body.next_action === "string" ? e.body.next_action : null);
      }
      // Other refusals (4xx) keep the visitor on the form, with the message in the banner.
      if (isAppError(e) && !json && e.status < 500 && e.status !== 404) return refuse(e.status, "", e.body.error);
      throw e;
    }
    // 201 for the page and the JSON alike: a subscription or an order was born.
    if (json) res.status(201).set("Cache-Control", "no-store").json(resultBody(result));
    else sendHostedPage(res, runtime, 201, renderResultPage(offer, result, form.value.email, seller, await followOf(runtime, result)));
  });

  r.get("/pix/:paymentId/qr.png", async (req, res) => {
    const copyPaste = await getPixCopyPaste(prisma, req.params.paymentId);
    const png = await QRCode.toBuffer(copyPaste, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 320 });
    res.status(200).set({ "Content-Type": "image/png", "Cache-Control": "private, max-age=300", "X-Content-Type-Options": "nosniff" }).send(png);
  });

  // Checkout failures answer as the caller asked (page or JSON) and are logged without card data.
  const hostedErrors: ErrorRequestHandler = (err, req, res, next) => {
    if (!req.path.startsWith("/checkout/")) return next(err);
    const { status, body } = toHttp(err);
    if (status >= 500) logSafely(req, runtime, err, "hosted checkout failed");
    if (res.headersSent) return;
    if (status === 503) res.set("Retry-After", "1");
    if (wantsJson(req)) return void res.status(status).set("Cache-Control", "no-store").json(body);
    const [heading, message] = messageFor(status, String(body.code ?? ""), String(body.error ?? ""));
    sendHostedPage(res, runtime, status, renderMessagePage(heading, message));
  };
  r.use(hostedErrors);
  return r;
}
