// The Pagar.me gateway (API v5: card and Pix), through the official `@pagarme/pagarme-nodejs-sdk`.
// - Card data never reaches us (PCI SAQ A): Pagar.me's tokenizecard.js turns the card into a token_…
//   in the browser with the account's public key; savePaymentMethod saves it as a card of a Pagar.me
//   customer (found or made under our cus_ id as its `code`). Our token is "<cus_…>|<card_…>".
// - Charges are orders (POST /orders, closed) with one credit_card or pix payment. Every POST carries an
//   Idempotency-Key derived from our ids, and the order's `code` IS that key (metadata too): Pagar.me
//   lists orders by code, which is how fetchStatus finds what happened to a key after a lost answer.
// - The SDK is used where its models fit the call: reads (customers by code, orders by code, an order, a
//   charge, a card), saving a card (createCard with the token) and refunds (cancelCharge: DELETE
//   /charges/{id} with an amount and our key as operation_reference). Two POSTs go through the SDK's own
//   HTTP layer (its request builder: the same auth, timeout, error types) with the documented JSON
//   instead: its CreateCustomerRequest and CreateOrderRequest models mark address, phones and a full
//   `customer` as required, which the API does not (an order names an existing customer by customer_id),
//   and the SDK refuses to send them without.
// - The SDK's base URL is fixed (https://api.pagar.me/core/v5): an account's apiBaseUrl (tests, proxies)
//   replaces the origin in an interceptor on every request. The SDK never retries (maxNumberOfRetries 0).
// - A timeout, a transport error or a 5xx throws GatewayUnavailable: unknown until fetchStatus says. A Pix
//   order Pagar.me refuses (400, 412, 422) throws GatewayRefused with our code for its reason.
// - Pagar.me v5 does not sign its webhooks: the notice URL carries the account's secret token
//   (`?token=`, notice-token.ts), checked before anything else; then parseWebhook takes a notice as a
//   hint only, and re-reads the charge (or order) by id with the account's secret key; the notification
//   is built from what Pagar.me answers, never from the posted body.
// - Secrets live in the client only: no key, and no provider text that might echo one, leaves this file.
// - The SDK is imported on first use (lazy-sdk.ts): a process with no Pagar.me account never loads it.
import { createHash } from "node:crypto";
import type { ApiError, ChargesController, CustomersController, OrdersController } from "@pagarme/pagarme-nodejs-sdk";
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
import { CredentialsUnavailable, GatewayRefused, GatewayUnavailable } from "./adapter.ts";
import { ADAPTER_DEFAULTS } from "./capabilities.ts";
import type { CustomerSyncRequest, CustomerSyncResult } from "./customer-sync.ts";
import type { GatewayNotification, GatewayNotificationKind, WebhookParseResult } from "./gateway-notification.ts";
import { lazySdk } from "./lazy-sdk.ts";
import { NOTICE_TOKEN_FIELD, noticeTokenMatches } from "./notice-token.ts";

const pagarmeSdk = lazySdk(() => import("@pagarme/pagarme-nodejs-sdk"));
type PagarmeSdk = Awaited<ReturnType<typeof pagarmeSdk.load>>;

/** An answer of Pagar.me's API (the SDK's ApiError); never before the SDK is loaded (none exists yet). */
const isApiError = (err: unknown): err is ApiError => {
  const sdk = pagarmeSdk.loaded();
  return !!sdk && err instanceof sdk.ApiError;
};

/** Pagar.me's API root, as the SDK builds it; an account's apiBaseUrl replaces its origin. */
export const PAGARME_API = "https://api.pagar.me/core/v5";
const MAX_CLIENTS = 200;
/** A Pix QR lives at most 10 years at Pagar.me (docs.pagar.me/reference/pix-2); at least a minute here. */
const PIX_MIN_S = 60;
const PIX_MAX_S = 10 * 365 * 86400;

const TOKEN = /^(cus_[A-Za-z0-9]+)\|(card_[A-Za-z0-9]+)$/;
const CARD_TOKEN = /^token_[A-Za-z0-9]{1,200}$/;
const ID = /^[a-z]{2,5}_[A-Za-z0-9]{1,64}$/;

/** The token our code stores for a saved Pagar.me card. */
export const pagarmeToken = (customerId: string, cardId: string) => `${customerId}|${cardId}`;

export function parsePagarmeToken(token: string): { customer: string; card: string } | null {
  const m = TOKEN.exec(token);
  return m ? { customer: m[1]!, card: m[2]! } : null;
}

/** Who pays a Pix or owns a card, as Pagar.me wants its customer (Pix needs name, e-mail, CPF/CNPJ and a phone). */
export interface PagarmePayer {
  name: string;
  email: string;
  doc: string | null;
  phone: string | null;
}

export interface PagarmeAdapterOptions {
  /** Per-request timeout (ms); past it the outcome is unknown. Default 30 s. */
  timeoutMs?: number;
  /**
   * Our customer behind a reference (cus_ id, inv_ or ord_ id), read from our database (registry.ts):
   * a Pix order at Pagar.me must name its payer, and PixRequest carries only the reference.
   */
  payerOf?: (account: GatewayAccountRef, reference: string) => Promise<PagarmePayer | null>;
}

/** What we read of a charge, whichever way it came (the SDK's camelCase models or raw JSON). */
interface ChargeView {
  id: string;
  code: string | null;
  status: string;
  amount: number;
  paidAmount: number | null;
  canceledAmount: number | null;
  paymentMethod: string;
  orderId: string | null;
  metadata: Record<string, string>;
  createdAt: string | null;
  tx: {
    id: string | null;
    type: string | null;
    status: string | null;
    returnCode: string | null;
    qrCode: string | null;
    expiresAt: string | null;
    gatewayErrors: string[];
  };
}

interface OrderView {
  id: string;
  code: string | null;
  status: string;
  metadata: Record<string, string>;
  createdAt: string | null;
  charges: ChargeView[];
}

type Obj = Record<string, any>;
const pick = (o: Obj | null | undefined, snake: string, camel: string) => (o ? (o[snake] !== undefined ? o[snake] : o[camel]) : undefined);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function chargeView(c: Obj): ChargeView {
  const tx = (pick(c, "last_transaction", "lastTransaction") ?? {}) as Obj;
  const gw = (pick(tx, "gateway_response", "gatewayResponse") ?? {}) as Obj;
  const order = (c.order ?? null) as Obj | null;
  return {
    id: String(c.id ?? ""),
    code: str(c.code),
    status: String(c.status ?? ""),
    amount: Number(c.amount ?? 0),
    paidAmount: typeof pick(c, "paid_amount", "paidAmount") === "number" ? pick(c, "paid_amount", "paidAmount") : null,
    canceledAmount: typeof pick(c, "canceled_amount", "canceledAmount") === "number" ? pick(c, "canceled_amount", "canceledAmount") : null,
    paymentMethod: String(pick(c, "payment_method", "paymentMethod") ?? ""),
    orderId: str(order?.id),
    metadata: (c.metadata ?? {}) as Record<string, string>,
    createdAt: str(pick(c, "created_at", "createdAt")),
    tx: {
      id: str(tx.id),
      type: str(pick(tx, "transaction_type", "transactionType")),
      status: str(tx.status),
      returnCode: str(pick(tx, "acquirer_return_code", "acquirerReturnCode")),
      qrCode: str(pick(tx, "qr_code", "qrCode")),
      expiresAt: str(pick(tx, "expires_at", "expiresAt")),
      gatewayErrors: Array.isArray(gw.errors) ? gw.errors.map((e: Obj) => String(e?.message ?? "")) : [],
    },
  };
}

function orderView(o: Obj): OrderView {
  return {
    id: String(o.id ?? ""),
    code: str(o.code),
    status: String(o.status ?? ""),
    metadata: (o.metadata ?? {}) as Record<string, string>,
    createdAt: str(pick(o, "created_at", "createdAt")),
    charges: Array.isArray(o.charges) ? o.charges.map((c: Obj) => chargeView({ ...c, order: c.order ?? { id: o.id } })) : [],
  };
}

/**
 * The issuer's answer in our words (ABECS return codes, as Pagar.me passes them in
 * last_transaction.acquirer_return_code); anything else is a plain card_declined.
 */
const RETURN_CODES: Record<string, string> = {
  "51": "insufficient_funds",
  "54": "expired_card",
  "14": "invalid_card",
  "57": "transaction_not_allowed",
  "59": "suspected_fraud",
  "41": "lost_card",
  "43": "stolen_card",
  "82": "invalid_cvc",
};

function declineOf(c: ChargeView): string {
  if (c.tx.returnCode && RETURN_CODES[c.tx.returnCode]) return RETURN_CODES[c.tx.returnCode]!;
  if (c.tx.status === "with_error") return "gateway_refused";
  return "card_declined";
}

/** A charge's status in our terms (docs.pagar.me/reference/status-1: charge statuses). */
function statusOf(c: ChargeView): Omit<StatusResult, "chargeId"> {
  switch (c.status) {
    case "paid":
    case "overpaid":
    case "underpaid":
    // A refunded or partially refunded charge was paid: the refund is its own story.
    case "refunded":
    case "partial_refunded":
    case "chargedback":
      return { outcome: "approved", detailCode: "" };
    case "failed":
      return { outcome: "declined", detailCode: c.paymentMethod === "pix" ? "pix_expired" : declineOf(c) };
    case "canceled":
      // Canceled after it was paid is a refunded charge (paid_amount stays); before, nothing was taken.
      if ((c.paidAmount ?? 0) > 0) return { outcome: "approved", detailCode: "" };
      return { outcome: "declined", detailCode: c.paymentMethod === "pix" ? "pix_expired" : "canceled" };
    default:
      // pending (a Pix awaiting payment), processing.
      return { outcome: "pending", detailCode: c.status || "pending" };
  }
}

/** A cancellation's transaction statuses (docs.pagar.me/reference/status-1): returned, or refused by the acquirer. */
const REFUNDED = new Set(["refunded", "partial_refunded", "voided", "partial_voided"]);
const REFUND_FAILED = new Set(["error_on_refunding", "error_on_voiding", "with_error", "failed", "not_authorized"]);

const digest = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 24);

/** Pagar.me's words for a 4xx, as a short code of ours (the message may echo input; never a key). */
function refusalCode(err: ApiError): string {
  const body = (err.result ?? {}) as Obj;
  const text = `${body.message ?? ""} ${JSON.stringify(body.errors ?? {})}`.toLowerCase();
  if (err.statusCode === 404) return "not_found";
  if (/refused|recusad|declined|not authori[sz]ed|n[aã]o autorizad/.test(text)) return "card_declined";
  if (/amount/.test(text) && /(minimum|m[ií]nimo|at least)/.test(text)) return "amount_too_small";
  if (/amount/.test(text) && /(exceed|excede|greater than|maior que)/.test(text)) return "amount_too_large";
  if (/already (been )?(canceled|refunded)|j[aá] (foi )?(cancelad|estornad)/.test(text)) return "charge_already_refunded";
  if (/can ?not be canceled|n[aã]o pode ser cancelad/.test(text)) return "charge_not_refundable";
  if (/token/.test(text)) return "invalid_payment_method";
  if (/card/.test(text)) return "invalid_card";
  if (err.statusCode === 412) return "refused";
  return "invalid_request";
}

/**
 * Why Pagar.me refused a Pix order, in our words: from the field paths its 422 names (`errors` keys such as
 * "order.customer.document"), never their messages or the `request` it echoes (they hold the payer's data).
 */
function pixRefusalCode(err: ApiError): string {
  const errors = ((err.result ?? {}) as Obj).errors;
  const fields = (errors && typeof errors === "object" ? Object.keys(errors) : []).join(" ").toLowerCase();
  if (/customer\.document/.test(fields)) return "payer_document_refused";
  if (/customer\.phones/.test(fields)) return "payer_phone_refused";
  if (/customer\.(name|email)/.test(fields)) return "payer_contact_refused";
  return refusalCode(err);
}

/** Anything but an answer about the payment itself: the outcome is unknown (our codes only, never Pagar.me's text). */
function unavailable(err: unknown): GatewayUnavailable {
  if (err instanceof GatewayUnavailable) return err;
  if (isApiError(err)) {
    if (err.statusCode === 401) return new GatewayUnavailable("authentication_failed", 401);
    if (err.statusCode === 403) return new GatewayUnavailable("permission_denied", 403);
    if (err.statusCode === 409) return new GatewayUnavailable("idempotency_conflict", 409);
    if (err.statusCode === 429) return new GatewayUnavailable("rate_limited", 429);
    return new GatewayUnavailable("gateway_error", err.statusCode >= 500 ? err.statusCode : 502);
  }
  const text = `${(err as Error)?.name ?? ""} ${(err as Error)?.message ?? ""} ${(err as { code?: string })?.code ?? ""}`;
  if (/timeout|timed out|abort|ECONNABORTED/i.test(text)) return new GatewayUnavailable("timeout", 504);
  return new GatewayUnavailable("connection_error", 502);
}

/** A 4xx that is Pagar.me's verdict on the request (nothing was charged), not a fault of the link. */
const isRefusal = (err: unknown): err is ApiError => isApiError(err) && [400, 404, 412, 422].includes(err.statusCode);

interface Api {
  customers: CustomersController;
  orders: OrdersController;
  charges: ChargesController;
  /** The SDK's HTTP layer, for the two POSTs whose SDK models do not fit (see the top of the file). */
  post(path: string, body: Obj, idempotencyKey: string): Promise<Obj>;
  put(path: string, body: Obj, idempotencyKey: string): Promise<Obj>;
  /** A raw read: the SDK's transaction models drop the field a refund's operation_reference may come in. */
  get(path: string): Promise<Obj>;
}

export class PagarmeAdapter implements GatewayAdapter {
  readonly provider = "pagarme";
  readonly defaults = ADAPTER_DEFAULTS.pagarme!;
  /** Pagar.me v5 signs nothing: every notice is confirmed by re-reading it (parseWebhook). */
  readonly webhookSecretRequired = false;
  private readonly clients = new Map<string, Api>();

  constructor(
    private readonly credentials: CredentialsSource,
    private readonly opts: PagarmeAdapterOptions = {},
  ) {}

  /** PCI SAQ A: a Pagar.me account never takes a card number on our server; the browser posts a token_. */
  async tokenizeCard(_account: GatewayAccountRef, _card: CardInput, _now: Date): Promise<TokenizeResult> {
    return { ok: false, code: "card_number_not_accepted" };
  }

  async savePaymentMethod(account: GatewayAccountRef, req: SavePaymentMethodRequest, _now: Date): Promise<TokenizeResult> {
    if (!CARD_TOKEN.test(req.paymentMethodId)) return { ok: false, code: "invalid_payment_method" };
    const api = await this.client(account);
    try {
      const customer = await this.customerFor(api, account, req);
      // The card is verified by Pagar.me when saved (zero-dollar auth where the acquirer supports it).
      const { result: card } = await api.customers.createCard(customer, { token: req.paymentMethodId }, `${req.customerRef}:card:${account.id}:${req.paymentMethodId}`);
      if (!card.id || (card.status && card.status !== "active")) return { ok: false, code: "card_declined" };
      return { ok: true, token: pagarmeToken(customer, card.id), brand: (card.brand ?? "unknown").toLowerCase(), last4: card.lastFourDigits ?? "", expMonth: card.expMonth ?? 0, expYear: card.expYear ?? 0 };
    } catch (err) {
      if (isRefusal(err)) return { ok: false, code: refusalCode(err) === "not_found" ? "invalid_payment_method" : refusalCode(err) };
      throw unavailable(err);
    }
  }

  async chargeToken(account: GatewayAccountRef, req: ChargeRequest, _now: Date): Promise<ChargeResult> {
    const saved = parsePagarmeToken(req.token);
    if (!saved) return { outcome: "declined", chargeId: "", detailCode: "invalid_token" };
    const api = await this.client(account);
    let order: OrderView;
    try {
      order = orderView(
        await api.post(
          "/orders",
          {
            code: req.idempotencyKey,
            customer_id: saved.customer,
            currency: req.currency.toUpperCase(),
            closed: true,
            items: [{ amount: req.amountCents, description: req.reference, quantity: 1, code: req.reference }],
            payments: [
              {
                payment_method: "credit_card",
                amount: req.amountCents,
                credit_card: {
                  card_id: saved.card,
                  installments: 1,
                  // Card-on-file: the SDK's recurrence fields (CreateCreditCardPaymentRequest). A renewal is a
                  // merchant-initiated "subsequent" use of a card the customer saved on our page ("first").
                  recurrence: true,
                  recurrency_cycle: req.offSession === true ? "subsequent" : "first",
                },
              },
            ],
            metadata: { reference: req.reference, idempotency_key: req.idempotencyKey },
          },
          req.idempotencyKey,
        ),
      );
    } catch (err) {
      // 4xx: Pagar.me refused the request itself (an amount under its minimum, a deleted card…): nothing charged.
      if (isRefusal(err)) return { outcome: "declined", chargeId: "", detailCode: refusalCode(err) };
      throw unavailable(err);
    }
    const charge = order.charges[0];
    if (!charge) throw new GatewayUnavailable("pagarme_order_without_charge", 502);
    const status = statusOf(charge);
    if (status.outcome === "pending") throw new GatewayUnavailable(`pagarme_${charge.status}`, 202);
    return { outcome: status.outcome === "approved" ? "approved" : "declined", chargeId: charge.id, detailCode: status.detailCode };
  }

  async createPixCharge(account: GatewayAccountRef, req: PixRequest, now: Date): Promise<PixResult> {
    const payer = req.payer ?? (await this.opts.payerOf?.(account, req.reference).catch(() => null));
    // Pagar.me refuses a Pix order without its payer's name, e-mail, document and phone.
    if (!payer) throw new GatewayUnavailable("pagarme_pix_payer_unknown", 422);
    const api = await this.client(account);
    const expiresIn = Math.min(Math.max(Math.round((req.expiresAt.getTime() - now.getTime()) / 1000), PIX_MIN_S), PIX_MAX_S);
    let order: OrderView;
    try {
      order = orderView(
        await api.post(
          "/orders",
          {
            code: req.idempotencyKey,
            customer: customerBody(payer, null),
            currency: req.currency.toUpperCase(),
            closed: true,
            items: [{ amount: req.amountCents, description: req.reference, quantity: 1, code: req.reference }],
            payments: [{ payment_method: "pix", amount: req.amountCents, pix: { expires_in: expiresIn } }],
            metadata: { reference: req.reference, idempotency_key: req.idempotencyKey },
          },
          req.idempotencyKey,
        ),
      );
    } catch (err) {
      // 400, 412, 422: Pagar.me's verdict on this Pix (a payer it does not take, Pix off on the account): refused again if asked again.
      if (isApiError(err) && [400, 412, 422].includes(err.statusCode)) throw new GatewayRefused(pixRefusalCode(err), err.statusCode);
      throw unavailable(err);
    }
    const charge = order.charges[0];
    if (!charge?.tx.qrCode || charge.status === "failed") throw new GatewayUnavailable(`pagarme_pix_${charge?.status ?? "missing"}`, 502);
    // expires_in, not expires_at: a duration holds whatever our (tenant) clock says; Pagar.me's own
    // expires_at is in its real time, so the expiry we keep is ours, from the same duration.
    const expiresAt = expiresIn * 1000 === req.expiresAt.getTime() - now.getTime() ? req.expiresAt : new Date(now.getTime() + expiresIn * 1000);
    return { chargeId: charge.id, copyPaste: charge.tx.qrCode, expiresAt };
  }

  /** DELETE /charges/{id} with an amount (partial or total); our key rides as Idempotency-Key and operation_reference. */
  async refund(account: GatewayAccountRef, req: RefundRequest, _now: Date): Promise<RefundResult> {
    const api = await this.client(account);
    try {
      const { result } = await api.charges.cancelCharge(req.chargeId, { amount: req.amountCents, operationReference: req.idempotencyKey }, req.idempotencyKey);
      const charge = chargeView(result as Obj);
      if (charge.tx.status === "pending_refund" || charge.status === "processing") throw new GatewayUnavailable("refund_pending", 202);
      // A 200 is the charge; its last transaction says what became of this cancellation.
      const tx = charge.tx.status ?? "";
      if (REFUND_FAILED.has(tx)) return { outcome: "declined", refundId: "", detailCode: "refund_failed" };
      if (!REFUNDED.has(tx)) throw new GatewayUnavailable("refund_unconfirmed", 502);
      return { outcome: "refunded", refundId: charge.tx.id ?? charge.id, detailCode: "" };
    } catch (err) {
      if (isRefusal(err)) return { outcome: "declined", refundId: "", detailCode: refusalCode(err) === "not_found" ? "charge_not_found" : refusalCode(err) };
      throw unavailable(err);
    }
  }

  /** What became of the charge made under our key: the order whose `code` is the key (GET /orders?code=). */
  async fetchStatus(account: GatewayAccountRef, idempotencyKey: string, _now: Date): Promise<StatusResult> {
    const api = await this.client(account);
    try {
      const { result } = await api.orders.getOrders(1, 10, idempotencyKey);
      const orders = (result.data ?? []).map((o) => orderView(o as Obj)).filter((o) => o.code === idempotencyKey || o.metadata.idempotency_key === idempotencyKey);
      const charges = orders.flatMap((o) => o.charges);
      if (!charges.length) return { outcome: "not_found", chargeId: "", detailCode: "" };
      const rank: Record<string, number> = { approved: 0, pending: 1, declined: 2 };
      const best = charges.map((c) => ({ c, s: statusOf(c) })).sort((a, b) => rank[a.s.outcome]! - rank[b.s.outcome]!)[0]!;
      return { ...best.s, chargeId: best.c.id, ...(best.s.outcome === "approved" ? { amountCents: best.c.paidAmount } : {}) };
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Pushes name and e-mail to the Pagar.me customer made for ours (none yet: nothing to do). */
  async updateCustomer(account: GatewayAccountRef, req: CustomerSyncRequest, _now: Date): Promise<CustomerSyncResult> {
    const api = await this.client(account);
    try {
      const { result } = await api.customers.getCustomers(undefined, undefined, 1, 10, undefined, req.customerId);
      for (const c of result.data ?? []) {
        if (!c.id || c.code !== req.customerId) continue;
        const body: Obj = { name: req.name, email: req.email, code: req.customerId, type: c.type ?? "individual" };
        if (c.document) body.document = c.document;
        const phone = phoneOf(req.phone ?? null);
        if (phone) body.phones = { mobile_phone: phone };
        await api.put(`/customers/${encodeURIComponent(c.id)}`, body, `${req.customerId}:sync:${c.id}:${digest(req.name, req.email, req.phone ?? "")}`);
      }
      return { ok: true };
    } catch (err) {
      if (isRefusal(err)) return { ok: false, detailCode: refusalCode(err) };
      throw unavailable(err);
    }
  }

  /** A cheap authenticated read (one customer) with the candidate key; refusals in our words, never echoing a key. */
  async verifyCredentials(candidate: GatewayCredentials, _now: Date): Promise<CredentialCheck> {
    const { secretKey, publicKey } = candidate.credentials;
    if (!secretKey) return { ok: false, reason: "secretKey is missing: the account's secret key (sk_…, sk_test_…)" };
    if (secretKey.startsWith("pk_")) return { ok: false, reason: "secretKey is a public key (pk_…); the server needs the secret key (sk_…)" };
    if (!/^sk_(test_)?[A-Za-z0-9]+$/.test(secretKey)) return { ok: false, reason: "secretKey is not a Pagar.me secret key (sk_…, sk_test_…)" };
    if (publicKey !== undefined && !/^pk_(test_)?[A-Za-z0-9]+$/.test(publicKey)) return { ok: false, reason: "publicKey is not a Pagar.me public key (pk_…, pk_test_…)" };
    if (publicKey !== undefined && /^sk_test_/.test(secretKey) !== /^pk_test_/.test(publicKey)) return { ok: false, reason: "secretKey and publicKey are of different environments (test and live)" };
    try {
      await this.newClient(await pagarmeSdk.load(), secretKey, candidate.apiBaseUrl).customers.getCustomers(undefined, undefined, 1, 1);
      return { ok: true };
    } catch (err) {
      if (isApiError(err) && err.statusCode === 401) return { ok: false, reason: "Pagar.me does not recognize the secret key (401)" };
      if (isApiError(err) && err.statusCode === 403) return { ok: false, reason: "Pagar.me refused the key for this account (403)" };
      throw unavailable(err);
    }
  }

  /**
   * A Pagar.me notice ({id: "hook_…", type: "charge.paid", data: {…}}) is unsigned: its body only names
   * the charge (or order) to re-read with the account's key. The notification comes from that read, with
   * the notice's id as the event id. A body naming nothing Pagar.me knows is `malformed` (400).
   */
  async parseWebhook(
    rawBody: Buffer,
    _headers: Record<string, string | string[] | undefined>,
    _secret: string,
    now: Date,
    account: GatewayAccountRef,
    query?: Record<string, string | undefined>,
  ): Promise<WebhookParseResult> {
    // The notice URL's secret token (notice-token.ts) first: without it nothing is read at Pagar.me. An
    // account sealed before tokens existed has none and is still heard (the charge is re-read below), so
    // a deploy loses no notice; updating its credentials once issues the token, required from then on.
    const { credentials } = await this.credentials(account);
    const expected = credentials[NOTICE_TOKEN_FIELD];
    if (expected !== undefined && !noticeTokenMatches(query?.token, expected)) return { ok: false, reason: "bad_token" };
    let notice: Obj;
    try {
      notice = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return { ok: false, reason: "malformed" };
    }
    const type = typeof notice?.type === "string" ? notice.type : "";
    const eventId = typeof notice?.id === "string" ? notice.id : "";
    const data = notice?.data && typeof notice.data === "object" ? (notice.data as Obj) : null;
    if (!eventId || eventId.length > 128 || !/^[a-z]+\.[a-z_]+$/.test(type) || !data || typeof data.id !== "string" || !ID.test(data.id)) return { ok: false, reason: "malformed" };
    const [object] = type.split(".");
    if (object !== "charge" && object !== "order") {
      const none = ignoredNotice(eventId, type, now);
      return { ok: true, notification: none };
    }
    const api = await this.client(account);
    let charge: ChargeView | undefined;
    try {
      if (object === "charge") charge = chargeView((await api.charges.getCharge(data.id)).result as Obj);
      else charge = orderView((await api.orders.getOrder(data.id)).result as Obj).charges[0];
    } catch (err) {
      // Not Pagar.me's (or not this account's): nothing to re-read, nothing to act on.
      if (isRefusal(err)) return { ok: false, reason: "malformed" };
      throw unavailable(err);
    }
    if (!charge) return { ok: true, notification: ignoredNotice(eventId, type, now) };
    if (REFUND_NOTICES.has(type)) {
      // Which refund: the transaction the notice names, as Pagar.me lists it for that charge (a late notice of
      // an earlier partial refund is not about the charge's last transaction; the body's own claims are not read).
      const named = str((data.last_transaction as Obj | undefined)?.id);
      let tx: RefundTx | null = null;
      try {
        tx = named && ID.test(named) ? await this.refundTransaction(api, charge.id, named) : null;
      } catch (err) {
        if (!isRefusal(err)) throw unavailable(err);
      }
      return { ok: true, notification: tx ? refundNotice(eventId, type, charge, tx, now) : ignoredNotice(eventId, type, now) };
    }
    return { ok: true, notification: notificationOf(eventId, type, charge, now) };
  }

  // --- clients and lookups ---

  /** A refund transaction of the charge, by id, from Pagar.me's list of its transactions (GET /charges/{id}/transactions). */
  private async refundTransaction(api: Api, chargeId: string, txId: string): Promise<RefundTx | null> {
    for (let page = 1; page <= 10; page++) {
      const listed = await api.get(`/charges/${encodeURIComponent(chargeId)}/transactions?page=${page}&size=100`);
      const rows = Array.isArray(listed.data) ? (listed.data as Obj[]) : [];
      const found = rows.find((t) => t?.id === txId);
      if (found) {
        const metadata = (found.metadata ?? {}) as Obj;
        const ref = str(found.operation_reference) ?? str(metadata.operation_reference);
        if (!REFUNDED.has(String(found.status ?? "")) || typeof found.amount !== "number") return null;
        return { id: txId, amount: found.amount, operationReference: ref };
      }
      if (rows.length < 100) return null;
    }
    return null;
  }

  /** One client per key and base URL, kept (credentials are read per call: a rotated key gets a new client). */
  private async client(account: GatewayAccountRef): Promise<Api> {
    const creds = await this.credentials(account);
    const secretKey = creds.credentials.secretKey;
    if (!secretKey) throw new CredentialsUnavailable(`gateway account ${account.id} has no Pagar.me secretKey`);
    const sdk = await pagarmeSdk.load();
    const id = digest(creds.apiBaseUrl ?? "", secretKey);
    let api = this.clients.get(id);
    if (!api) {
      api = this.newClient(sdk, secretKey, creds.apiBaseUrl);
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      this.clients.set(id, api);
    }
    return api;
  }

  private newClient({ Client, CustomersController, OrdersController, ChargesController }: PagarmeSdk, secretKey: string, apiBaseUrl: string | null): Api {
    // Basic auth with the secret key as user and an empty password (docs.pagar.me/reference/autenticação-2).
    const sdk = new Client({
      basicAuthCredentials: { username: secretKey, password: "" },
      timeout: this.opts.timeoutMs ?? 30_000,
      httpClientOptions: { timeout: this.opts.timeoutMs ?? 30_000, retryConfig: { maxNumberOfRetries: 0, retryOnTimeout: false } },
    });
    const factory = sdk.getRequestBuilderFactory();
    const root = apiBaseUrl ? `${new URL(apiBaseUrl).origin}${new URL(PAGARME_API).pathname}` : null;
    const builder: typeof factory = (method, path) => {
      const rb = factory(method, path);
      if (root) rb.interceptRequest((request) => ({ ...request, url: request.url.replace(PAGARME_API, root) }));
      return rb;
    };
    const client = { getRequestBuilderFactory: () => builder };
    const send = async (method: "POST" | "PUT" | "GET", path: string, body: Obj | null, idempotencyKey: string | null): Promise<Obj> => {
      const rb = builder(method, path);
      if (idempotencyKey) rb.header("idempotency-key", idempotencyKey);
      if (body) rb.json(body);
      const res = await rb.callAsText();
      try {
        return JSON.parse(res.result) as Obj;
      } catch {
        throw new GatewayUnavailable("gateway_error", 502);
      }
    };
    return {
      customers: new CustomersController(client),
      orders: new OrdersController(client),
      charges: new ChargesController(client),
      post: (path, body, key) => send("POST", path, body, key),
      put: (path, body, key) => send("PUT", path, body, key),
      get: (path) => send("GET", path, null, null),
    };
  }

  /** The Pagar.me customer of our customer: the token's, else one found by code (our cus_ id), else a new one. */
  private async customerFor(api: Api, account: GatewayAccountRef, req: SavePaymentMethodRequest): Promise<string> {
    const fromToken = req.existingToken ? parsePagarmeToken(req.existingToken)?.customer : undefined;
    if (fromToken) return fromToken;
    const { result } = await api.customers.getCustomers(undefined, undefined, 1, 10, undefined, req.customerRef);
    const found = (result.data ?? []).find((c) => c.code === req.customerRef && c.id);
    if (found?.id) return found.id;
    const known = await this.opts.payerOf?.(account, req.customerRef).catch(() => null);
    const created = await api.post("/customers", customerBody({ name: req.name, email: req.email, doc: known?.doc ?? null, phone: known?.phone ?? null }, req.customerRef), `${req.customerRef}:customer:${account.id}:${digest(req.email, req.name)}`);
    if (typeof created.id !== "string") throw new GatewayUnavailable("gateway_error", 502);
    return created.id;
  }
}

/** A Brazilian phone (digits, with or without +55) as Pagar.me's {country_code, area_code, number}. */
function phoneOf(phone: string | null): Obj | null {
  const digits = (phone ?? "").replace(/\D/g, "").replace(/^55(?=\d{10,11}$)/, "");
  if (!/^\d{10,11}$/.test(digits)) return null;
  return { country_code: "55", area_code: digits.slice(0, 2), number: digits.slice(2) };
}

/** Pagar.me's customer object (docs.pagar.me/reference/clientes): `code` is our cus_ id when we have it. */
function customerBody(payer: PagarmePayer, code: string | null): Obj {
  const doc = (payer.doc ?? "").replace(/\D/g, "");
  const body: Obj = { name: payer.name.slice(0, 64), email: payer.email.slice(0, 64), type: doc.length === 14 ? "company" : "individual" };
  if (code) body.code = code;
  if (doc) {
    body.document = doc;
    body.document_type = doc.length === 14 ? "CNPJ" : "CPF";
  }
  const phone = phoneOf(payer.phone);
  if (phone) body.phones = { mobile_phone: phone };
  return body;
}

const REFUND_NOTICES = new Set(["charge.refunded", "charge.partial_canceled", "charge.partial_refunded"]);

/** A refund as Pagar.me lists it among its charge's transactions. */
interface RefundTx {
  id: string;
  amount: number;
  /** Our refund key, sent as operation_reference with the DELETE. */
  operationReference: string | null;
}

/** A refund notice: the refund found by our key (operation_reference) or by Pagar.me's transaction id, with its own amount. */
function refundNotice(eventId: string, type: string, c: ChargeView, tx: RefundTx, now: Date): GatewayNotification {
  return {
    eventId,
    providerType: type,
    kind: "refund_succeeded",
    chargeId: c.id,
    objectId: tx.id,
    idempotencyKey: tx.operationReference,
    reference: c.metadata.reference ?? null,
    amountCents: tx.amount,
    detailCode: "",
    occurredAt: now,
    livemode: true,
  };
}

function ignoredNotice(eventId: string, type: string, now: Date): GatewayNotification {
  return { eventId, providerType: type, kind: "ignored", chargeId: "", objectId: "", idempotencyKey: null, reference: null, amountCents: null, detailCode: "", occurredAt: now, livemode: true };
}

/** The notice in our terms, from the charge as Pagar.me reports it now (not as the body claimed). */
function notificationOf(eventId: string, type: string, c: ChargeView, now: Date): GatewayNotification {
  const base = {
    eventId,
    providerType: type,
    chargeId: c.id,
    objectId: "",
    idempotencyKey: c.metadata.idempotency_key ?? null,
    reference: c.metadata.reference ?? null,
    occurredAt: now,
    livemode: true,
  };
  const s = statusOf(c);
  let kind: GatewayNotificationKind = "ignored";
  let amountCents: number | null = c.amount;
  let detailCode = "";
  // Refund notices: refundNotice (the refund transaction they name).
  if (type === "charge.chargedback") {
    if (c.status === "chargedback") kind = "dispute_opened";
  } else if (s.outcome === "approved" && c.status !== "chargedback") {
    kind = c.paymentMethod === "pix" ? "pix_paid" : "charge_succeeded";
    amountCents = c.paidAmount ?? c.amount;
  } else if (s.outcome === "declined") {
    kind = "charge_failed";
    detailCode = s.detailCode;
  }
  return { ...base, kind, amountCents, detailCode };
}
