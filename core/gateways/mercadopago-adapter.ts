// The Mercado Pago gateway (card and Pix), through the official `mercadopago` package (its types are the
// wire format): Customers, Cards, Card tokens, Payments and Refunds of the Checkout API.
// - Card data never reaches us (PCI SAQ A): MercadoPago.js tokenizes the card in the browser with the
//   account's public key. A card token is single-use, and the recurring-charges guide pays with it first and
//   saves the card after the approval: when a charge follows on the page (chargeFollows), savePaymentMethod only
//   finds or makes the Mercado Pago customer (by e-mail, our cus_ id in its description and metadata) and reads
//   the token's card (GET card token, brand by BIN from the payment methods); the on-page charge pays with the
//   token, then saves the card to the customer with it. Our token is then "<customer id>|p<last4><MMYYYY>|<brand>"
//   and a later charge finds that saved card among the customer's cards. With no charge following (a trial, a
//   card change) the card is saved at once and our token is "<customer id>|<card id>|<payment_method_id>".
// - Later charges: a card token is made from the saved card (POST /v1/card_tokens {card_id}) and paid with
//   payer {type: customer}. Mercado Pago asks for the CVV again on every charge of a saved card, except on
//   accounts with Automatic Payments (card on file without CVV): renewals are sent as such (point of
//   interaction SUBSCRIPTIONS, first_time_use false), and an account without it answers
//   "security_code_id can't be null", read as the decline `security_code_required` (dunning then sends the
//   customer a /pay link). Hence capturesCardOnlyOnPaymentPage. The checkout's first charge uses the token
//   MercadoPago.js made seconds before (its CVV fresh), kept in memory only.
// - Every payment and refund carries X-Idempotency-Key (mandatory at Mercado Pago) derived from our own ids,
//   and each payment carries our key as external_reference (and in metadata): fetchStatus finds it by a
//   payments search, never by charging again.
// - A timeout, a transport error or a 5xx throws GatewayUnavailable: the outcome is unknown until fetchStatus.
//   The library's own retries are off (maxRetries 0): a retry is ours to decide.
// - Secrets live in the client only: no token, and no provider message that might echo one, goes into an
//   error, a result or a log.
// - The package is imported on first use (lazy-sdk.ts): a process with no Mercado Pago account never loads it.
import type { MercadoPagoConfig, MercadoPagoError, Payment } from "mercadopago";
import { wallClock, type Clock } from "../shared/clock.ts";
import type { Cents } from "../shared/money.ts";
import type {
  CardInput,
  ChargeRequest,
  ChargeResult,
  CredentialCheck,
  CredentialsSource,
  GatewayAccountRef,
  GatewayAdapter,
  GatewayCredentials,
  PixRequest,
  PixResult,
  RefundRequest,
  RefundResult,
  SavePaymentMethodRequest,
  StatusResult,
  TokenizeResult,
} from "./adapter.ts";
import { CredentialsUnavailable, GatewayUnavailable } from "./adapter.ts";
import { ADAPTER_DEFAULTS } from "./capabilities.ts";
import type { CustomerSyncRequest, CustomerSyncResult } from "./customer-sync.ts";
import type { GatewayNotification, GatewayNotificationKind, WebhookParseResult } from "./gateway-notification.ts";
import { lazySdk } from "./lazy-sdk.ts";
import { rebasedDispatcher } from "./mercadopago-base-url.ts";
import type { Recurrence, RecurrenceLookup } from "./recurrence-lookup.ts";

const mercadopagoSdk = lazySdk(() => import("mercadopago"));
type MercadoPagoSdk = Awaited<ReturnType<typeof mercadopagoSdk.load>>;
type MercadoPagoErrorClass = "MercadoPagoError" | "MPAuthenticationError" | "MPConnectionError" | "MPForbiddenError" | "MPNotFoundError" | "MPRateLimitError";
/** Whether err is an instance of the package's error class `name`; never before the package is loaded (none exists yet). */
const isA = <K extends MercadoPagoErrorClass>(err: unknown, name: K): err is InstanceType<MercadoPagoSdk[K]> => {
  const sdk = mercadopagoSdk.loaded();
  return !!sdk && err instanceof sdk[name];
};

type PaymentResponse = Awaited<ReturnType<Payment["get"]>>;
type Options = NonNullable<ConstructorParameters<typeof MercadoPagoConfig>[0]["options"]>;

/** How old (or early) a signed notice may be. Mercado Pago leaves the tolerance to the receiver; ours, as Stripe's. */
export const MERCADOPAGO_WEBHOOK_TOLERANCE_S = 300;
/**
 * `ts` of x-signature in ms: Mercado Pago's page calls it milliseconds while its example is in seconds, so
 * both are read. Any ts above this is milliseconds (as seconds it would be past the year 5000).
 */
const TS_MS_FROM = 100_000_000_000;
/** A Pix QR lives 30 minutes to 30 days at Mercado Pago (date_of_expiration; 24 h by default). */
export const MERCADOPAGO_PIX_MIN_MS = 30 * 60_000;
export const MERCADOPAGO_PIX_MAX_MS = 30 * 86_400_000;
/** MercadoPago.js' token is kept this long for the on-page charge that follows savePaymentMethod (pay first, save after). */
const FRESH_TOKEN_MS = 10 * 60_000;
const MAX_FRESH_TOKENS = 1000;

const TOKEN = /^([0-9A-Za-z-]{1,80})\|([0-9]{1,30}|p[0-9]{10})\|([a-z_]{2,40})$/;
/** A card saved only after the first payment: known by its last four digits and expiry until then. */
const PENDING_CARD = /^p([0-9]{4})([0-9]{2})([0-9]{4})$/;
/** A MercadoPago.js card token (32 hex characters; a little latitude). */
const CARD_TOKEN = /^[0-9A-Za-z]{16,64}$/;
const ACCESS_TOKEN = /^(APP_USR|TEST)-[0-9A-Za-z-]{10,300}$/;
const PUBLIC_KEY = /^(APP_USR|TEST)-[0-9A-Za-z-]{8,200}$/;

/** Who pays behind one of our references (the Pix payer's e-mail Mercado Pago requires). */
export type MercadoPagoPayerLookup = (account: GatewayAccountRef, reference: string) => Promise<{ email: string; name: string } | null>;

export interface MercadoPagoAdapterOptions {
  /** Per-request timeout (ms); past it the outcome is unknown. Default 30 s. */
  timeoutMs?: number;
  /** Mercado Pago's own clock (Pix expiry bounds, the notice tolerance, fresh tokens): real time, never a sandbox clock. */
  wallClock?: Clock;
  /** The payer of a Pix when the caller did not say (renewals, links). */
  payerOf?: MercadoPagoPayerLookup;
  /** Where an invoice's charge stands in its subscription (subscription messaging). */
  recurrenceOf?: RecurrenceLookup;
}

/** The token our code stores for a saved Mercado Pago card. */
export const mercadopagoToken = (customerId: string, cardId: string, paymentMethodId: string) => `${customerId}|${cardId}|${paymentMethodId}`;

/** The card part of our token for a card the first payment will save (pay first, save after). */
const pendingCardRef = (last4: string, month: number, year: number) => `p${last4}${String(month).padStart(2, "0")}${year}`;

export function parseMercadoPagoToken(token: string): { customer: string; card: string; paymentMethod: string } | null {
  const m = TOKEN.exec(token);
  return m ? { customer: m[1]!, card: m[2]!, paymentMethod: m[3]! } : null;
}

/** Cents to Mercado Pago's decimal reais, written from the integer digits (never float arithmetic). */
export const toReais = (amount: Cents | number) => {
  // The sign is written apart: Math.trunc(-50 / 100) is -0, which prints as "0".
  const abs = Math.abs(amount);
  return Number(`${amount < 0 ? "-" : ""}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`);
};
/** Mercado Pago's decimal reais back to integer cents. */
export const toCents = (reais: number | undefined) => Math.round((reais ?? 0) * 100);

/** Mercado Pago's date format (yyyy-MM-dd'T'HH:mm:ss.SSSz), in UTC. */
const mpDate = (d: Date) => d.toISOString().replace("Z", "+00:00");

/** The Mercado Pago cause codes we name (API reference error tables); others become mp_<code>. */
const CAUSES: Record<string, string> = {
  "3031": "security_code_required",
  "2006": "invalid_card_token",
  "2062": "invalid_card_token",
  "2034": "invalid_users_involved",
  "2002": "customer_not_found",
  "4037": "invalid_amount",
  "4033": "invalid_payment_method",
  "2063": "refund_not_allowed",
  "3024": "partial_refund_unsupported",
  "4040": "invalid_refund_amount",
  "2024": "payment_too_old_to_refund",
  "15016": "payment_too_old_to_refund",
};

/** A 4xx answer in our words: the first cause's code, mapped. */
function refusalCode(err: MercadoPagoError, fallback: string): string {
  const cause = (err.causes as { code?: unknown }[] | undefined)?.[0]?.code;
  if (cause === undefined || cause === null) return fallback;
  return CAUSES[String(cause)] ?? `mp_${String(cause).replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40)}`;
}

/** The link, the token or the rate: never a verdict on the request (a plain check: these classes narrow `err` to never). */
const NOT_REFUSALS = ["MPConnectionError", "MPAuthenticationError", "MPForbiddenError", "MPRateLimitError"] as const;

/** A refusal of the request itself (4xx other than auth and rate limits): nothing was done. */
const isRefusal = (err: unknown): err is MercadoPagoError =>
  isA(err, "MercadoPagoError") &&
  !NOT_REFUSALS.some((name) => isA(err, name)) &&
  err.status >= 400 &&
  err.status < 500 &&
  err.status !== 409;

/** Anything but an answer about the payment itself: the outcome is unknown (only our own codes, never MP's message). */
function unavailable(err: unknown): GatewayUnavailable {
  if (err instanceof GatewayUnavailable) return err;
  if (isA(err, "MPConnectionError")) {
    const cause = (err as unknown as { __cause__?: { name?: string } }).__cause__;
    return cause?.name === "AbortError" || cause?.name === "TimeoutError" ? new GatewayUnavailable("timeout", 504) : new GatewayUnavailable("connection_error", 502);
  }
  if (isA(err, "MPRateLimitError")) return new GatewayUnavailable("rate_limited", 429);
  if (isA(err, "MPAuthenticationError")) return new GatewayUnavailable("authentication_failed", 401);
  if (isA(err, "MPForbiddenError")) return new GatewayUnavailable("permission_denied", 403);
  if (isA(err, "MercadoPagoError")) return new GatewayUnavailable("gateway_error", err.status >= 400 ? err.status : 502);
  return new GatewayUnavailable("gateway_error", 502);
}

/** A payment's status in our terms (mercadopago.com.br/developers/en/docs/checkout-api/response-handling). */
export function statusOf(p: Pick<PaymentResponse, "status" | "status_detail">): Omit<StatusResult, "chargeId"> {
  switch (p.status) {
    case "approved":
    case "refunded":
    case "charged_back":
    case "in_mediation":
      // It was charged; what happened after (refunds, disputes) is told by other paths.
      return { outcome: "approved", detailCode: "" };
    case "rejected":
    case "cancelled":
      return { outcome: "declined", detailCode: p.status_detail || p.status };
    default:
      // pending, in_process, authorized: not decided yet.
      return { outcome: "pending", detailCode: p.status ?? "pending" };
  }
}

interface Api {
  /** The package, loaded. */
  sdk: MercadoPagoSdk;
  config(idempotencyKey?: string): MercadoPagoConfig;
}

export class MercadoPagoAdapter implements GatewayAdapter {
  readonly provider = "mercadopago";
  readonly defaults = ADAPTER_DEFAULTS.mercadopago!;
  private readonly clock: Clock;
  /** card id -> the MercadoPago.js token that saved it, for the on-page charge that follows (never stored). */
  private readonly fresh = new Map<string, { token: string; until: number }>();

  constructor(
    private readonly credentials: CredentialsSource,
    private readonly opts: MercadoPagoAdapterOptions = {},
  ) {
    this.clock = opts.wallClock ?? wallClock;
  }

  /** PCI SAQ A: a Mercado Pago account never takes a card number on our server; the browser posts a card token. */
  async tokenizeCard(_account: GatewayAccountRef, _card: CardInput, _now: Date): Promise<TokenizeResult> {
    return { ok: false, code: "card_number_not_accepted" };
  }

  async savePaymentMethod(account: GatewayAccountRef, req: SavePaymentMethodRequest, _now: Date): Promise<TokenizeResult> {
    if (!CARD_TOKEN.test(req.paymentMethodId)) return { ok: false, code: "invalid_card_token" };
    const api = await this.api(account);
    try {
      const customerId = await this.customerFor(api, account, req);
      if (req.chargeFollows === true) return await this.cardToPayFirst(api, customerId, req.paymentMethodId);
      const card = await new api.sdk.CustomerCard(api.config(`${req.customerRef}:card:${account.id}:${req.paymentMethodId}`)).create({ customerId, body: { token: req.paymentMethodId } });
      if (!card.id || !card.payment_method?.id) return { ok: false, code: "invalid_card_token" };
      return {
        ok: true,
        token: mercadopagoToken(customerId, card.id, card.payment_method.id),
        brand: card.payment_method.id,
        last4: card.last_four_digits ?? "",
        expMonth: card.expiration_month ?? 0,
        expYear: card.expiration_year ?? 0,
      };
    } catch (err) {
      if (isRefusal(err)) return { ok: false, code: refusalCode(err, "invalid_card_token") };
      throw unavailable(err);
    }
  }

  async chargeToken(account: GatewayAccountRef, req: ChargeRequest, now: Date): Promise<ChargeResult> {
    const saved = parseMercadoPagoToken(req.token);
    if (!saved) return { outcome: "declined", chargeId: "", detailCode: "invalid_token" };
    const api = await this.api(account);
    const pending = PENDING_CARD.test(saved.card);
    // On our page right after savePaymentMethod: the token MercadoPago.js made with the CVV, paid first.
    const fresh = pending && req.offSession !== true ? this.takeFresh(`${saved.customer}|${saved.card}`) : undefined;
    const recurrence = (await this.opts.recurrenceOf?.(account, req.reference, req.token).catch(() => null)) ?? null;
    let payment: PaymentResponse;
    try {
      // Otherwise a token of the saved card (one saved after its first payment is found among the customer's cards).
      const cardId = fresh ? undefined : pending ? await this.savedCardId(api, saved) : saved.card;
      if (!fresh && !cardId) return { outcome: "declined", chargeId: "", detailCode: "card_not_saved" };
      const cardToken =
        fresh ?? (await new api.sdk.CardToken(api.config(`${req.idempotencyKey}:card_token`)).create({ body: { card_id: cardId, customer_id: saved.customer } })).id;
      if (!cardToken) throw new GatewayUnavailable("mercadopago_no_card_token", 502);
      payment = await new api.sdk.Payment(api.config(req.idempotencyKey)).create({
        body: {
          transaction_amount: toReais(req.amountCents),
          token: cardToken,
          installments: 1,
          payment_method_id: saved.paymentMethod,
          payer: { type: "customer", id: saved.customer },
          // Approved or rejected at once, never left in_process (docs: binary_mode).
          binary_mode: true,
          external_reference: req.idempotencyKey,
          description: req.reference,
          metadata: { idempotency_key: req.idempotencyKey, reference: req.reference },
          point_of_interaction: subscriptionMessaging(recurrence, req.offSession !== true, now),
        },
      });
    } catch (err) {
      // 4xx: Mercado Pago refused the request (no CVV on an account without Automatic Payments, a removed card,
      // an amount under the minimum): nothing was charged.
      if (isRefusal(err)) return { outcome: "declined", chargeId: "", detailCode: refusalCode(err, "invalid_request") };
      // Unknown: it may have been approved, so the card is saved all the same (a renewal needs it).
      if (fresh) await this.saveAfterPayment(api, saved.customer, fresh, req.idempotencyKey);
      throw unavailable(err);
    }
    if (fresh && statusOf(payment).outcome !== "declined") await this.saveAfterPayment(api, saved.customer, fresh, req.idempotencyKey);
    const status = statusOf(payment);
    if (status.outcome === "pending") throw new GatewayUnavailable(`mercadopago_${payment.status ?? "pending"}`, 202);
    return { outcome: status.outcome === "approved" ? "approved" : "declined", chargeId: String(payment.id ?? ""), detailCode: status.detailCode };
  }

  async createPixCharge(account: GatewayAccountRef, req: PixRequest, now: Date): Promise<PixResult> {
    const payer = req.payer ?? (await this.opts.payerOf?.(account, req.reference).catch(() => null)) ?? null;
    // Mercado Pago refuses a Pix without the payer's e-mail.
    if (!payer?.email) throw new GatewayUnavailable("mercadopago_pix_payer_unknown", 422);
    const api = await this.api(account);
    // The expiry is laid on Mercado Pago's clock (a sandbox tenant's may run ahead), within its 30 min to 30 days.
    const lifetime = Math.min(Math.max(req.expiresAt.getTime() - now.getTime(), MERCADOPAGO_PIX_MIN_MS + 60_000), MERCADOPAGO_PIX_MAX_MS - 60_000);
    const [first, ...rest] = payer.name.trim().split(/\s+/);
    let payment: PaymentResponse;
    try {
      payment = await new api.sdk.Payment(api.config(req.idempotencyKey)).create({
        body: {
          transaction_amount: toReais(req.amountCents),
          payment_method_id: "pix",
          date_of_expiration: mpDate(new Date(this.clock.now().getTime() + lifetime)),
          payer: { email: payer.email, first_name: first || undefined, last_name: rest.join(" ") || undefined },
          external_reference: req.idempotencyKey,
          description: req.reference,
          metadata: { idempotency_key: req.idempotencyKey, reference: req.reference },
        },
      });
    } catch (err) {
      if (isRefusal(err)) throw new GatewayUnavailable(refusalCode(err, "mercadopago_pix_refused"), err.status);
      throw unavailable(err);
    }
    const qr = payment.point_of_interaction?.transaction_data?.qr_code;
    if (!qr || payment.status !== "pending") throw new GatewayUnavailable(`mercadopago_pix_${payment.status ?? "missing"}`, 502);
    return { chargeId: String(payment.id), copyPaste: qr, expiresAt: new Date(now.getTime() + lifetime) };
  }

  async refund(account: GatewayAccountRef, req: RefundRequest, _now: Date): Promise<RefundResult> {
    const api = await this.api(account);
    try {
      // The amount is always named: a total refund is the remaining amount, said explicitly.
      const refund = await new api.sdk.PaymentRefund(api.config(req.idempotencyKey)).create({ payment_id: req.chargeId, body: { amount: toReais(req.amountCents) } });
      if (refund.status === "approved") return { outcome: "refunded", refundId: String(refund.id ?? ""), detailCode: "" };
      if (refund.status === "rejected" || refund.status === "cancelled") return { outcome: "declined", refundId: String(refund.id ?? ""), detailCode: `refund_${refund.status}` };
      // in_process (a Pix refund waiting on the central bank): asked again (same key) by the refund reconciliation.
      throw new GatewayUnavailable("refund_pending", 202);
    } catch (err) {
      if (isRefusal(err)) return { outcome: "declined", refundId: "", detailCode: refusalCode(err, "refund_refused") };
      throw unavailable(err);
    }
  }

  /** What became of the payment made under our key: a payments search on external_reference (= our key). */
  async fetchStatus(account: GatewayAccountRef, idempotencyKey: string, _now: Date): Promise<StatusResult> {
    const api = await this.api(account);
    try {
      const found = await new api.sdk.Payment(api.config()).search({ options: { external_reference: idempotencyKey, sort: "date_created", criteria: "desc", limit: 30 } });
      const results = (found.results ?? []) as PaymentResponse[];
      if (!results.length) return { outcome: "not_found", chargeId: "", detailCode: "" };
      const rank: Record<string, number> = { approved: 0, pending: 1, declined: 2 };
      const best = [...results].sort((a, b) => rank[statusOf(a).outcome]! - rank[statusOf(b).outcome]!)[0]!;
      return { ...statusOf(best), chargeId: String(best.id), ...(statusOf(best).outcome === "approved" ? { amountCents: toCents(best.transaction_amount) } : {}) };
    } catch (err) {
      throw unavailable(err);
    }
  }

  /**
   * Pushes name and phone to the Mercado Pago customer of the customer's e-mail (Mercado Pago keys its
   * customers by e-mail and searches on nothing else we keep); none there: nothing to do.
   */
  async updateCustomer(account: GatewayAccountRef, req: CustomerSyncRequest, _now: Date): Promise<CustomerSyncResult> {
    const api = await this.api(account);
    try {
      const found = await new api.sdk.Customer(api.config()).search({ options: { email: req.email.toLowerCase() } });
      const [first, ...rest] = req.name.trim().split(/\s+/);
      const phone = /^\+55(\d{2})(\d{8,9})$/.exec(req.phone ?? "");
      for (const c of found.results ?? []) {
        if (!c.id) continue;
        await new api.sdk.Customer(api.config(`${req.customerId}:sync:${c.id}:${req.name}:${req.phone ?? ""}`)).update({
          customerId: c.id,
          body: { first_name: first, last_name: rest.join(" "), ...(phone ? { phone: { area_code: phone[1]!, number: phone[2]! } } : {}), description: req.customerId },
        });
      }
      return { ok: true };
    } catch (err) {
      if (isRefusal(err)) return { ok: false, detailCode: refusalCode(err, "customer_sync_refused") };
      throw unavailable(err);
    }
  }

  /** Formats first, then a cheap authenticated read (users/me) with the candidate token; never echoing it. */
  async verifyCredentials(candidate: GatewayCredentials, _now: Date): Promise<CredentialCheck> {
    const { accessToken, publicKey, webhookSecret } = candidate.credentials;
    if (!accessToken) return { ok: false, reason: "accessToken is missing: Mercado Pago's access token (APP_USR-…, or TEST-… for tests)" };
    if (!ACCESS_TOKEN.test(accessToken)) return { ok: false, reason: "accessToken is not a Mercado Pago access token (APP_USR-… or TEST-…)" };
    if (publicKey !== undefined) {
      if (!PUBLIC_KEY.test(publicKey)) return { ok: false, reason: "publicKey is not a Mercado Pago public key (APP_USR-… or TEST-…)" };
      if (publicKey.split("-")[0] !== accessToken.split("-")[0]) return { ok: false, reason: "publicKey and accessToken are of different modes (one TEST-, one APP_USR-)" };
    }
    if (webhookSecret !== undefined && !/^[A-Za-z0-9]{16,256}$/.test(webhookSecret)) return { ok: false, reason: "webhookSecret is not a Mercado Pago webhook secret (the signature key of Your integrations › Webhooks)" };
    try {
      const sdk = await mercadopagoSdk.load();
      const me = await new sdk.User(this.newConfig(sdk, accessToken, candidate.apiBaseUrl)).get();
      if (!me.id) return { ok: false, reason: "Mercado Pago did not name the account of this access token" };
      return { ok: true };
    } catch (err) {
      if (isA(err, "MPAuthenticationError") || isA(err, "MPForbiddenError") || isA(err, "MPNotFoundError")) {
        return { ok: false, reason: "Mercado Pago does not recognize the access token (invalid, expired or revoked)" };
      }
      throw unavailable(err);
    }
  }

  /**
   * `x-signature` (ts, v1 = HMAC-SHA256 of `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` with the account's
   * secret; data.id from the notice URL's query string, lower-cased when alphanumeric) checked by the package's
   * WebhookSignatureValidator, ts (seconds or milliseconds) within 300 s either way; then, since only the id is
   * signed, the payment is fetched by that id with the account's token and the notice is what Mercado Pago says
   * of it now.
   */
  async parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    webhookSecret: string,
    now: Date,
    account: GatewayAccountRef,
    query: Record<string, string | undefined> = {},
  ): Promise<WebhookParseResult> {
    const header = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    if (!header("x-signature")) return { ok: false, reason: "missing_signature" };
    if (!webhookSecret) return { ok: false, reason: "bad_signature" };
    let body: { type?: unknown; action?: unknown; data?: { id?: unknown } };
    try {
      body = JSON.parse(rawBody.toString("utf8") || "{}");
    } catch {
      return { ok: false, reason: "malformed" };
    }
    const rawId = query["data.id"] ?? (typeof body?.data?.id === "string" || typeof body?.data?.id === "number" ? String(body.data.id) : "");
    const type = query.type ?? (typeof body?.type === "string" ? body.type : "");
    if (!rawId || rawId.length > 64) return { ok: false, reason: "malformed" };
    const dataId = /^[A-Za-z0-9]+$/.test(rawId) ? rawId.toLowerCase() : rawId;
    const requestId = header("x-request-id") ?? "";
    const { WebhookSignatureValidator, InvalidWebhookSignatureError, SignatureFailureReason } = await mercadopagoSdk.load();
    try {
      // The package's window assumes seconds: the signature is checked there, the window here (either unit).
      WebhookSignatureValidator.validate({ xSignature: header("x-signature"), xRequestId: requestId, dataId, secret: webhookSecret });
    } catch (err) {
      if (!(err instanceof InvalidWebhookSignatureError)) return { ok: false, reason: "malformed" };
      if (err.reason === SignatureFailureReason.MissingSignatureHeader) return { ok: false, reason: "missing_signature" };
      return { ok: false, reason: "bad_signature" };
    }
    // Only the id, the request id and ts are signed: the event id is made of them alone.
    const ts = /(?:^|,)\s*ts=(\d+)/.exec(header("x-signature") ?? "")?.[1] ?? "";
    const tsMs = Number(ts) >= TS_MS_FROM ? Number(ts) : Number(ts) * 1000;
    if (!(Math.abs(now.getTime() - tsMs) <= MERCADOPAGO_WEBHOOK_TOLERANCE_S * 1000)) return { ok: false, reason: "stale" };
    const base = { eventId: `${type || "notice"}:${dataId}:${requestId || ts}`, providerType: `${type}${typeof body?.action === "string" ? `:${body.action}` : ""}`, occurredAt: now, livemode: false };
    const none: GatewayNotification = { ...base, kind: "ignored", chargeId: "", objectId: "", idempotencyKey: null, reference: null, amountCents: null, detailCode: "" };
    if (type !== "payment" || !/^\d+$/.test(dataId)) return { ok: true, notification: none };
    const api = await this.api(account);
    let payment: PaymentResponse;
    try {
      payment = await new api.sdk.Payment(api.config()).get({ id: dataId });
    } catch (err) {
      // Not a payment of this account (Mercado Pago says 404): verified, but about nothing of ours.
      if (isA(err, "MPNotFoundError")) return { ok: true, notification: none };
      throw unavailable(err);
    }
    return { ok: true, notification: notificationOf(payment, { ...none, livemode: payment.live_mode === true }) };
  }

  // --- clients and lookups ---

  /**
   * A fresh MercadoPagoConfig per request: the package merges each call's request options into its config
   * object (idempotencyKey included), so a shared one would carry one call's key into the next.
   */
  private async api(account: GatewayAccountRef): Promise<Api> {
    const creds = await this.credentials(account);
    const accessToken = creds.credentials.accessToken;
    if (!accessToken) throw new CredentialsUnavailable(`gateway account ${account.id} has no Mercado Pago accessToken`);
    const sdk = await mercadopagoSdk.load();
    return { sdk, config: (idempotencyKey) => this.newConfig(sdk, accessToken, creds.apiBaseUrl, idempotencyKey) };
  }

  private newConfig({ MercadoPagoConfig }: MercadoPagoSdk, accessToken: string, apiBaseUrl: string | null, idempotencyKey?: string): MercadoPagoConfig {
    const options: Options & { dispatcher?: unknown } = { timeout: this.opts.timeoutMs ?? 30_000, maxRetries: 0 };
    if (idempotencyKey) options.idempotencyKey = idempotencyKey;
    // The package has no base URL setting (a static https://api.mercadopago.com); it hands its options to
    // fetch(), so an overridden account's requests go through a dispatcher that re-aims them (tests, proxies).
    if (apiBaseUrl) options.dispatcher = rebasedDispatcher(apiBaseUrl);
    return new MercadoPagoConfig({ accessToken, options });
  }

  /** The Mercado Pago customer of our customer: the token's, else the one of the e-mail, else a new one. */
  private async customerFor(api: Api, account: GatewayAccountRef, req: SavePaymentMethodRequest): Promise<string> {
    const fromToken = req.existingToken ? parseMercadoPagoToken(req.existingToken)?.customer : undefined;
    if (fromToken) return fromToken;
    const email = req.email.trim().toLowerCase();
    const find = async () => (await new api.sdk.Customer(api.config()).search({ options: { email } })).results?.find((c) => c.id)?.id;
    const found = await find();
    if (found) return found;
    const [first, ...rest] = req.name.trim().split(/\s+/);
    try {
      const created = await new api.sdk.Customer(api.config(`${req.customerRef}:customer:${account.id}:${email}`)).create({
        body: { email, first_name: first, last_name: rest.join(" ") || undefined, description: req.customerRef, metadata: { customer_ref: req.customerRef } } as never,
      });
      if (created.id) return created.id;
    } catch (err) {
      // Made meanwhile (two checkouts of one e-mail): Mercado Pago says "the customer already exist" (cause 101).
      if (!(isRefusal(err) && refusalCode(err, "") === "mp_101")) throw err;
    }
    const again = await find();
    if (!again) throw new GatewayUnavailable("mercadopago_customer_missing", 502);
    return again;
  }

  /**
   * Pay first, save after: the customer's card as the token describes it (never spent here), brand by its BIN
   * among the account's payment methods; the token is kept in memory for the charge that follows.
   */
  private async cardToPayFirst(api: Api, customerId: string, cardToken: string): Promise<TokenizeResult> {
    const token = await new api.sdk.CardToken(api.config()).get({ id: cardToken });
    const bin = token.first_six_digits ?? "";
    const last4 = token.last_four_digits ?? "";
    const month = token.expiration_month ?? 0;
    const year = token.expiration_year ?? 0;
    if (!/^[0-9]{6}$/.test(bin) || !/^[0-9]{4}$/.test(last4) || !(month >= 1 && month <= 12) || !(year >= 2000 && year <= 9999)) return { ok: false, code: "invalid_card_token" };
    const brand = brandOf(await new api.sdk.PaymentMethod(api.config()).get(), bin);
    if (!brand) return { ok: false, code: "invalid_payment_method" };
    const cardRef = pendingCardRef(last4, month, year);
    this.keepFresh(`${customerId}|${cardRef}`, cardToken);
    return { ok: true, token: mercadopagoToken(customerId, cardRef, brand), brand, last4, expMonth: month, expYear: year };
  }

  /** Saves the card of an approved (or unheard) first payment with its token, as the recurring-charges guide does. */
  private async saveAfterPayment(api: Api, customerId: string, cardToken: string, idempotencyKey: string): Promise<void> {
    try {
      await new api.sdk.CustomerCard(api.config(`${idempotencyKey}:card`)).create({ customerId, body: { token: cardToken } });
    } catch {
      // The payment stands whatever happens here: a card left unsaved is a renewal declined (card_not_saved),
      // and dunning asks the customer for a card on /pay.
    }
  }

  /** The customer's card saved after a first payment: last four digits, expiry and brand as our token says. */
  private async savedCardId(api: Api, saved: { customer: string; card: string; paymentMethod: string }): Promise<string | undefined> {
    const [, last4, month, year] = PENDING_CARD.exec(saved.card)!;
    let cards: Awaited<ReturnType<InstanceType<MercadoPagoSdk["CustomerCard"]>["list"]>>;
    try {
      cards = await new api.sdk.CustomerCard(api.config()).list({ customerId: saved.customer });
    } catch (err) {
      // The customer is gone at Mercado Pago: no card to charge.
      if (isA(err, "MPNotFoundError")) return undefined;
      throw err;
    }
    const match = (cards ?? []).filter(
      (c) => c.last_four_digits === last4 && c.expiration_month === Number(month) && c.expiration_year === Number(year) && c.payment_method?.id === saved.paymentMethod,
    );
    return match.at(-1)?.id;
  }

  private keepFresh(cardId: string, token: string): void {
    const now = this.clock.now().getTime();
    for (const [id, slot] of this.fresh) if (slot.until <= now || this.fresh.size >= MAX_FRESH_TOKENS) this.fresh.delete(id);
    this.fresh.set(cardId, { token, until: now + FRESH_TOKEN_MS });
  }

  private takeFresh(cardId: string): string | undefined {
    const slot = this.fresh.get(cardId);
    this.fresh.delete(cardId);
    return slot && slot.until > this.clock.now().getTime() ? slot.token : undefined;
  }
}

/**
 * Automatic payments messaging (mercadopago.com.br/developers/en/docs/automatic-payments/recurring-charges/
 * subscription-messaging): type SUBSCRIPTIONS; the first charge of a sequence says first_time_use, the
 * subscription, its cycle, period and billing date; a later one says the same with first_time_use false, whether
 * the payer is present and, as payment_reference, the first payment of the sequence. Our subscriptions have no
 * end, so subscription_sequence carries no total. A charge with no subscription behind it (the checkout's
 * first, before its invoice exists) says what it knows.
 */
function subscriptionMessaging(r: Recurrence | null, userPresent: boolean, now: Date) {
  const firstTimeUse = r ? r.firstChargeId === null : userPresent;
  return {
    type: "SUBSCRIPTIONS",
    transaction_data: {
      first_time_use: firstTimeUse,
      billing_date: now.toISOString().slice(0, 10),
      user_present: userPresent,
      ...(r
        ? {
            subscription_id: r.subscriptionId,
            subscription_sequence: { number: r.sequence },
            invoice_period: { type: "monthly", period: r.interval === "YEAR" ? 12 : 1 },
            ...(r.firstChargeId ? { payment_reference: { id: r.firstChargeId } } : {}),
          }
        : {}),
    },
  };
}

/** The card brand (payment_method_id) of a BIN: the active card method whose BIN pattern takes it. */
function brandOf(methods: { id?: string; status?: string; payment_type_id?: string; settings?: { bin?: { pattern?: string; exclusion_pattern?: string } }[] }[], bin: string): string | undefined {
  const takes = (pattern: string | undefined) => {
    if (!pattern) return false;
    try {
      return new RegExp(pattern).test(bin);
    } catch {
      return false;
    }
  };
  const cards = (methods ?? []).filter((m) => m.id && m.status === "active" && (m.payment_type_id === "credit_card" || m.payment_type_id === "debit_card"));
  // Credit first: the checkout charges in one installment as a credit card.
  cards.sort((a, b) => Number(b.payment_type_id === "credit_card") - Number(a.payment_type_id === "credit_card"));
  return cards.find((m) => (m.settings ?? []).some((s) => takes(s.bin?.pattern) && !takes(s.bin?.exclusion_pattern)))?.id;
}

/** A payment as Mercado Pago tells it now, in our notice terms. */
function notificationOf(p: PaymentResponse, none: GatewayNotification): GatewayNotification {
  const metadata = (p.metadata ?? {}) as Record<string, unknown>;
  const key = typeof metadata.idempotency_key === "string" ? metadata.idempotency_key : (p.external_reference ?? null);
  const reference = typeof metadata.reference === "string" ? metadata.reference : null;
  const charge = { ...none, chargeId: String(p.id ?? ""), idempotencyKey: key, reference, amountCents: toCents(p.transaction_amount) };
  const pix = p.payment_method_id === "pix";
  // Only an approved refund is money returned: one in_process (a Pix refund at the central bank) may still fail.
  const refunded = (p.refunds ?? []).filter((r) => r.status === "approved");
  let kind: GatewayNotificationKind = "ignored";
  switch (p.status) {
    case "approved":
      kind = refunded.length ? "refund_succeeded" : pix ? "pix_paid" : "charge_succeeded";
      break;
    case "refunded":
      kind = "refund_succeeded";
      break;
    case "rejected":
    case "cancelled":
      kind = "charge_failed";
      break;
    case "charged_back":
    case "in_mediation":
      kind = "dispute_opened";
      break;
  }
  if (kind === "refund_succeeded") {
    const last = refunded[refunded.length - 1];
    return { ...charge, kind, objectId: String(last?.id ?? ""), idempotencyKey: null, amountCents: toCents(last?.amount) };
  }
  return { ...charge, kind, detailCode: kind === "charge_failed" ? p.status_detail || p.status || "" : kind === "dispute_opened" ? (p.status ?? "") : "" };
}
