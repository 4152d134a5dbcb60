// The Stripe gateway (card and Pix), through the official `stripe` package: its types are the wire format.
// - Card data never reaches us (PCI SAQ A): Stripe.js tokenizes it in the browser and we get a pm_ id
//   (savePaymentMethod); tokenizeCard refuses card numbers.
// - Our token is "<cus_…>|<pm_…>": the Stripe Customer and its saved PaymentMethod (attached by a
//   SetupIntent with usage off_session), the two ids a PaymentIntent needs.
// - Stripe's API version is the one the package pins (2026-10-28: `allowed_payment_method_types`).
// - Every POST carries an Idempotency-Key derived from our own ids, and each PaymentIntent and Refund
//   carries that key in metadata.idempotency_key: Stripe cannot be asked "what happened to key K"
//   (and replays a saved 500 for 24 h), so fetchStatus finds the object by that metadata instead.
// - A timeout, a transport error or a 5xx throws GatewayUnavailable: the outcome is unknown until
//   fetchStatus says, never guessed, never charged again.
// - Secrets live in the client only: no key, and no provider message that might echo one, goes into an
//   error, a result or a log.
// - The package is imported on first use (lazy-sdk.ts): a process with no Stripe account never loads it.
import { createHash } from "node:crypto";
import type Stripe from "stripe";
import { wallClock, type Clock } from "../shared/clock.ts";
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

/** Stripe's default signature tolerance (docs.stripe.com/webhooks#replay-attacks). */
export const STRIPE_WEBHOOK_TOLERANCE_S = 300;
/** How far back fetchStatus lists PaymentIntents when search has not indexed one yet (search lags under a minute, an hour at worst). */
const LOOKBACK_S = 25 * 3600;
/** At most this many PaymentIntents are listed before fetchStatus gives up for now ("pending": asked again later). */
const LOOKBACK_MAX = 2000;
const MAX_CLIENTS = 200;
/** Stripe's longest Pix expiry (payment_method_options.pix.expires_at), measured on its clock. */
const PIX_MAX_EXPIRY_S = 14 * 86400;
/** Kept off that bound, for a clock of ours ahead of Stripe's. */
const PIX_EXPIRY_MARGIN_S = 3600;

const TOKEN = /^(cus_[A-Za-z0-9]+)\|(pm_[A-Za-z0-9_]+)$/;
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,250}$/;
/** A SetupIntent's client_secret ("seti_…_secret_…"), the handle Stripe.js authenticates with; group 1 is its id. */
const SETUP_SECRET = /^(seti_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/;

/** The token our code stores for a saved Stripe card. */
export const stripeToken = (customerId: string, paymentMethodId: string) => `${customerId}|${paymentMethodId}`;

export function parseStripeToken(token: string): { customer: string; paymentMethod: string } | null {
  const m = TOKEN.exec(token);
  return m ? { customer: m[1]!, paymentMethod: m[2]! } : null;
}

export interface StripeAdapterOptions {
  /** Per-request timeout (ms); past it the outcome is unknown. Default 30 s. */
  timeoutMs?: number;
  /** Stripe's own clock, for the fetchStatus lookback window (Stripe's `created` is real time, not a sandbox clock). */
  wallClock?: Clock;
  /** Who pays behind one of our references (inv_/ord_/cus_), for a Pix's billing details when the caller has none at hand. */
  payerOf?: (account: GatewayAccountRef, reference: string) => Promise<PixPayer | null>;
  /**
   * Our page a payer comes back to should the card's issuer take them away (a full-page 3-D Secure). Stripe
   * refuses an on-session confirmation without one while the intent may redirect; unused when nothing redirects.
   */
  returnUrl?: string;
}

type PixPayer = NonNullable<PixRequest["payer"]>;

/**
 * Latin American countries: Stripe takes a Pix payer's tax id (CPF/CNPJ) only when a Latin American buyer
 * pays a seller outside Latin America (a US account must send it; a Brazilian one is refused
 * tax_id_prohibited) — docs.stripe.com/changelog/basil/2025-04-30/add-tax-id-to-billing-details.
 */
const LATAM = new Set(["AR", "BO", "BR", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PY", "SV", "UY", "VE"]);

const stripeSdk = lazySdk(async () => (await import("stripe")).default);

type StripeErrors = (typeof Stripe)["errors"];
type StripeErrorClass = { [K in keyof StripeErrors]: StripeErrors[K] extends abstract new (...args: never) => unknown ? K : never }[keyof StripeErrors];
/** Whether err is an instance of the package's error class `name`; never before the package is loaded (no Stripe error exists yet). */
const isA = <K extends StripeErrorClass>(err: unknown, name: K): err is InstanceType<StripeErrors[K]> => {
  const errors = stripeSdk.loaded()?.errors;
  return !!errors && err instanceof errors[name];
};

type StripeErr = InstanceType<StripeErrors["StripeError"]>;
const isStripeError = (err: unknown): err is StripeErr => isA(err, "StripeError");
const isCardError = (err: unknown): err is StripeErr => isA(err, "StripeCardError");
const isInvalidRequest = (err: unknown): err is StripeErr => isA(err, "StripeInvalidRequestError") && !isA(err, "StripeIdempotencyError");

/** A 5xx Stripe answered from its idempotency store: the same key will keep answering it for 24 h. */
const replayedServerError = (err: unknown) => isA(err, "StripeAPIError") && err.headers?.["idempotent-replayed"] === "true";

/** Anything but an answer about the payment itself: the outcome is unknown (only our own codes, never Stripe's message). */
function unavailable(err: unknown): GatewayUnavailable {
  if (err instanceof GatewayUnavailable) return err;
  if (isA(err, "StripeConnectionError")) return /timeout/i.test(err.message) ? new GatewayUnavailable("timeout", 504) : new GatewayUnavailable("connection_error", 502);
  if (isA(err, "StripeRateLimitError")) return new GatewayUnavailable("rate_limited", 429);
  if (isA(err, "StripeAuthenticationError")) return new GatewayUnavailable("authentication_failed", 401);
  if (isA(err, "StripePermissionError")) return new GatewayUnavailable("permission_denied", 403);
  if (isA(err, "StripeIdempotencyError")) return new GatewayUnavailable("idempotency_conflict", err.statusCode ?? 409);
  if (isStripeError(err)) return new GatewayUnavailable("gateway_error", err.statusCode ?? 502);
  return new GatewayUnavailable("gateway_error", 502);
}

/** Stripe's words for a decline: the issuer's decline_code when given (insufficient_funds…), else the error code. */
const declineCode = (e: { decline_code?: string | null; code?: string | null } | null | undefined) => e?.decline_code || e?.code || "card_declined";

/** Stripe search query values are quoted; a quote or backslash inside is escaped. */
const quoted = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const digest = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 24);

export class StripeAdapter implements GatewayAdapter {
  readonly provider = "stripe";
  readonly defaults = ADAPTER_DEFAULTS.stripe!;
  private readonly clients = new Map<string, Stripe>();
  /** Each client's account country (Pix billing details), asked once. */
  private readonly countries = new WeakMap<Stripe, Promise<string | null>>();
  private readonly clock: Clock;

  constructor(
    private readonly credentials: CredentialsSource,
    private readonly opts: StripeAdapterOptions = {},
  ) {
    this.clock = opts.wallClock ?? wallClock;
  }

  /** PCI SAQ A: a Stripe account never takes a card number on our server; the browser posts a pm_ id. */
  async tokenizeCard(_account: GatewayAccountRef, _card: CardInput, _now: Date): Promise<TokenizeResult> {
    return { ok: false, code: "card_number_not_accepted" };
  }

  async savePaymentMethod(account: GatewayAccountRef, req: SavePaymentMethodRequest, _now: Date): Promise<TokenizeResult> {
    if (!PAYMENT_METHOD_ID.test(req.paymentMethodId)) return { ok: false, code: "invalid_payment_method" };
    const stripe = await this.client(account);
    try {
      if (req.authentication) return await this.afterAuthentication(stripe, req, req.authentication);
      const customer = await this.customerFor(stripe, account, req);
      // A zero-amount check of the card and Stripe's consent for later off-session charges. Confirmed here on the
      // server: use_stripe_sdk lets Stripe.js (handleNextAction) run a 3-D Secure challenge in the page.
      const setup = await stripe.setupIntents.create(
        {
          customer,
          payment_method: req.paymentMethodId,
          confirm: true,
          use_stripe_sdk: true,
          ...this.returnUrl(),
          usage: "off_session",
          allowed_payment_method_types: ["card"],
          metadata: { customer_ref: req.customerRef },
        },
        { idempotencyKey: `${req.customerRef}:setup:${account.id}:${req.paymentMethodId}` },
      );
      // 3-D Secure at setup: Stripe.js authenticates in the browser with the client_secret (handleNextAction), then the page posts again.
      if (setup.status === "requires_action") return { ok: false, code: "authentication_required", ...(setup.client_secret ? { nextAction: setup.client_secret } : {}) };
      if (setup.status !== "succeeded") return { ok: false, code: declineCode(setup.last_setup_error) };
      return await this.savedCard(stripe, customer, setup);
    } catch (err) {
      if (isCardError(err)) return { ok: false, code: declineCode(err) };
      if (isInvalidRequest(err)) return { ok: false, code: err.code === "resource_missing" ? "invalid_payment_method" : (err.code ?? "invalid_payment_method") };
      throw unavailable(err);
    }
  }

  async chargeToken(account: GatewayAccountRef, req: ChargeRequest, _now: Date): Promise<ChargeResult> {
    const saved = parseStripeToken(req.token);
    if (!saved) return { outcome: "declined", chargeId: "", detailCode: "invalid_token" };
    const stripe = await this.client(account);
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: req.amountCents,
          currency: req.currency.toLowerCase(),
          customer: saved.customer,
          payment_method: saved.paymentMethod,
          allowed_payment_method_types: ["card"],
          confirm: true,
          off_session: req.offSession === true,
          // Off-session nobody can be redirected: Stripe wants no return_url then.
          ...(req.offSession === true ? {} : this.returnUrl()),
          metadata: { reference: req.reference, idempotency_key: req.idempotencyKey },
        },
        { idempotencyKey: req.idempotencyKey },
      );
    } catch (err) {
      // 402: the card was refused; the PaymentIntent stays, requires_payment_method. An off-session
      // charge that needs 3-D Secure lands here too (authentication_required): dunning sends a /pay link.
      if (isCardError(err)) return { outcome: "declined", chargeId: err.payment_intent?.id ?? "", detailCode: declineCode(err) };
      // 400/404: Stripe refused the request itself (amount_too_small, a deleted card…): nothing was charged.
      if (isInvalidRequest(err)) return { outcome: "declined", chargeId: "", detailCode: err.code ?? "invalid_request" };
      throw unavailable(err);
    }
    if (intent.status === "requires_action") {
      // 3-D Secure wanted with nobody to answer it (we never hand out the client secret): cancelled, so it
      // can never complete behind our back, and read as a decline.
      await stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: `${req.idempotencyKey}:cancel` }).catch(() => undefined);
      return { outcome: "declined", chargeId: intent.id, detailCode: "authentication_required" };
    }
    const status = statusOf(intent);
    if (status.outcome === "pending") throw new GatewayUnavailable(`stripe_${intent.status}`, 202);
    return { outcome: status.outcome === "approved" ? "approved" : "declined", chargeId: intent.id, detailCode: status.detailCode };
  }

  async createPixCharge(account: GatewayAccountRef, req: PixRequest, now: Date): Promise<PixResult> {
    const stripe = await this.client(account);
    // Stripe takes 60 s to 14 days ahead (payment_method_options.pix.expires_at) on its own clock. A sandbox
    // tenant's clock may run ahead of it: the expiry is then shifted by the difference (and shifted back in
    // the answer), so the QR lives as long as we asked. On a live clock the shift is 0 (the same request on a rerun).
    // Both bounds keep a margin: our clock is never exactly Stripe's.
    const stripeNow = Math.floor(this.clock.now().getTime() / 1000);
    const skew = Math.abs(Math.floor(now.getTime() / 1000) - stripeNow) > 300 ? Math.floor(now.getTime() / 1000) - stripeNow : 0;
    const expiresAt = Math.min(Math.max(Math.floor(req.expiresAt.getTime() / 1000) - skew, stripeNow + 120), stripeNow + PIX_MAX_EXPIRY_S - PIX_EXPIRY_MARGIN_S);
    const billing = await this.pixBillingDetails(stripe, account, req);
    const create = (idempotencyKey: string) =>
      stripe.paymentIntents.create(
        {
          amount: req.amountCents,
          currency: req.currency.toLowerCase(),
          allowed_payment_method_types: ["pix"],
          payment_method_data: { type: "pix", ...(billing ? { billing_details: billing } : {}) },
          payment_method_options: { pix: { expires_at: expiresAt } },
          confirm: true,
          metadata: { reference: req.reference, idempotency_key: req.idempotencyKey },
        },
        { idempotencyKey },
      );
    let intent: Stripe.PaymentIntent;
    try {
      intent = await create(req.idempotencyKey);
    } catch (err) {
      // A shifted expiry differs on a rerun (idempotency_error: the key was used with other parameters).
      if (!replayedServerError(err) && !(isA(err, "StripeIdempotencyError") && skew !== 0)) throw unavailable(err);
      // The key is stuck on a saved 500 (or a shifted expiry): use the Pix Stripe made under it, or ask once
      // more under a second key. An unpaid extra Pix costs nothing: nobody holds its code.
      intent = (await this.intentsByKey(stripe, req.idempotencyKey).catch(() => [])).find((pi) => pi.status === "requires_action") ?? (await create(`${req.idempotencyKey}#2`).catch((e) => Promise.reject(unavailable(e))));
    }
    const qr = intent.next_action?.pix_display_qr_code;
    if (!qr?.data) throw new GatewayUnavailable(`stripe_${intent.status}`, 502);
    return { chargeId: intent.id, copyPaste: qr.data, expiresAt: new Date(((qr.expires_at ?? expiresAt) + skew) * 1000) };
  }

  async refund(account: GatewayAccountRef, req: RefundRequest, _now: Date): Promise<RefundResult> {
    const stripe = await this.client(account);
    const create = (idempotencyKey: string) =>
      stripe.refunds.create({ payment_intent: req.chargeId, amount: req.amountCents, metadata: { idempotency_key: req.idempotencyKey } }, { idempotencyKey });
    try {
      // Stripe forgets idempotency keys after 24 h: a refund retried later is found by its metadata first.
      const earlier = await this.refundByKey(stripe, req.chargeId, req.idempotencyKey);
      if (earlier) return refundResult(earlier);
      try {
        return refundResult(await create(req.idempotencyKey));
      } catch (err) {
        // Stuck on a saved 500, and the list above shows no refund made under the key: one more try.
        if (replayedServerError(err)) return refundResult(await create(`${req.idempotencyKey}#2`));
        throw err;
      }
    } catch (err) {
      if (isInvalidRequest(err)) return { outcome: "declined", refundId: "", detailCode: err.code ?? "refund_refused" };
      throw unavailable(err);
    }
  }

  /**
   * What became of the charge made under our key: search on metadata.idempotency_key, then (search
   * indexes within a minute, an hour at worst) a strongly consistent list of the last 25 hours.
   * not_found only when both agree; too many to list is "pending" (asked again later).
   */
  async fetchStatus(account: GatewayAccountRef, idempotencyKey: string, _now: Date): Promise<StatusResult> {
    const stripe = await this.client(account);
    try {
      let found = await this.intentsByKey(stripe, idempotencyKey);
      if (!found.length) {
        const since = Math.floor(this.clock.now().getTime() / 1000) - LOOKBACK_S;
        let seen = 0;
        for await (const pi of stripe.paymentIntents.list({ created: { gte: since }, limit: 100 })) {
          if (pi.metadata?.idempotency_key === idempotencyKey) found.push(pi);
          if (++seen >= LOOKBACK_MAX && !found.length) return { outcome: "pending", chargeId: "", detailCode: "lookup_incomplete" };
        }
      }
      if (!found.length) return { outcome: "not_found", chargeId: "", detailCode: "" };
      // One key, one PaymentIntent, except a Pix asked again under a second key: the best outcome wins.
      const rank: Record<string, number> = { approved: 0, pending: 1, declined: 2 };
      found = found.sort((a, b) => rank[statusOf(a).outcome]! - rank[statusOf(b).outcome]!);
      return { ...statusOf(found[0]!), chargeId: found[0]!.id, ...(found[0]!.status === "succeeded" ? { amountCents: found[0]!.amount_received } : {}) };
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Pushes name, e-mail and phone to the Stripe customers made for our customer (none yet: nothing to do). */
  async updateCustomer(account: GatewayAccountRef, req: CustomerSyncRequest, _now: Date): Promise<CustomerSyncResult> {
    const stripe = await this.client(account);
    try {
      const found = await stripe.customers.search({ query: `metadata['customer_ref']:${quoted(req.customerId)}`, limit: 10 });
      const fields = { name: req.name, email: req.email, phone: req.phone ?? "" };
      for (const c of found.data) {
        await stripe.customers.update(c.id, fields, { idempotencyKey: `${req.customerId}:sync:${c.id}:${digest(fields.name, fields.email, fields.phone)}` });
      }
      return { ok: true };
    } catch (err) {
      if (isInvalidRequest(err)) return { ok: false, detailCode: err.code ?? "customer_sync_refused" };
      throw unavailable(err);
    }
  }

  /** A cheap authenticated read (the balance) with the candidate key; refusals in our words, never echoing the key. */
  async verifyCredentials(candidate: GatewayCredentials, _now: Date): Promise<CredentialCheck> {
    const { secretKey, webhookSecret } = candidate.credentials;
    if (!secretKey) return { ok: false, reason: "secretKey is missing: Stripe's secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)" };
    if (secretKey.startsWith("pk_")) return { ok: false, reason: "secretKey is a publishable key (pk_…); the server needs the secret key (sk_…) or a restricted key (rk_…)" };
    if (!/^(sk|rk)_(live|test)_[A-Za-z0-9_]+$/.test(secretKey)) return { ok: false, reason: "secretKey is not a Stripe secret key (sk_live_…, sk_test_…, rk_live_…, rk_test_…)" };
    if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=_]+$/.test(webhookSecret)) return { ok: false, reason: "webhookSecret is not a Stripe signing secret (whsec_…)" };
    try {
      await this.newClient(await stripeSdk.load(), secretKey, candidate.apiBaseUrl).balance.retrieve();
      return { ok: true };
    } catch (err) {
      if (isA(err, "StripeAuthenticationError")) {
        return { ok: false, reason: err.code === "api_key_expired" ? "Stripe says the key has expired or was rolled (api_key_expired)" : "Stripe does not recognize the key (invalid API key)" };
      }
      if (isA(err, "StripePermissionError")) return { ok: false, reason: "the restricted key may not read the balance; grant it the payment permissions or use the secret key" };
      throw unavailable(err);
    }
  }

  /** Stripe-Signature over the raw body (stripe.webhooks.constructEvent, 300 s either way), then the notice in our terms. */
  async parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, webhookSecret: string, now: Date): Promise<WebhookParseResult> {
    const raw = headers["stripe-signature"];
    const header = Array.isArray(raw) ? raw[0] : raw;
    if (!header) return { ok: false, reason: "missing_signature" };
    if (!webhookSecret) return { ok: false, reason: "bad_signature" };
    // constructEvent refuses a signature older than the tolerance; one from the future is refused here.
    const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(header)?.[1]);
    if (Number.isFinite(signedAt) && signedAt * 1000 - now.getTime() > STRIPE_WEBHOOK_TOLERANCE_S * 1000) return { ok: false, reason: "stale" };
    const { webhooks } = await stripeSdk.load();
    let event: Stripe.Event;
    try {
      event = webhooks.constructEvent(rawBody, header, webhookSecret, STRIPE_WEBHOOK_TOLERANCE_S, undefined, now.getTime());
    } catch (err) {
      if (isA(err, "StripeSignatureVerificationError")) return { ok: false, reason: /tolerance/i.test(err.message) ? "stale" : "bad_signature" };
      return { ok: false, reason: "malformed" };
    }
    if (typeof event?.id !== "string" || typeof event.type !== "string" || !event.data?.object) return { ok: false, reason: "malformed" };
    return { ok: true, notification: notificationOf(event) };
  }

  // --- clients and lookups ---

  private returnUrl(): { return_url?: string } {
    return this.opts.returnUrl ? { return_url: this.opts.returnUrl } : {};
  }

  /** One client per key and base URL, kept (credentials are read per call: a rotated key gets a new client). */
  private async client(account: GatewayAccountRef): Promise<Stripe> {
    const creds = await this.credentials(account);
    const secretKey = creds.credentials.secretKey;
    if (!secretKey) throw new CredentialsUnavailable(`gateway account ${account.id} has no Stripe secretKey`);
    const StripeClient = await stripeSdk.load();
    const id = digest(creds.apiBaseUrl ?? "", secretKey);
    let client = this.clients.get(id);
    if (!client) {
      client = this.newClient(StripeClient, secretKey, creds.apiBaseUrl);
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      this.clients.set(id, client);
    }
    return client;
  }

  private newClient(StripeClient: typeof Stripe, secretKey: string, apiBaseUrl: string | null): Stripe {
    // No automatic retries: a retry is ours to decide (the same key, or fetchStatus), never the library's.
    const config: Stripe.StripeConfig = { maxNetworkRetries: 0, timeout: this.opts.timeoutMs ?? 30_000, telemetry: false };
    if (apiBaseUrl) {
      const url = new URL(apiBaseUrl);
      config.protocol = url.protocol === "http:" ? "http" : "https";
      config.host = url.hostname.replace(/^\[(.*)\]$/, "$1");
      config.port = url.port || (url.protocol === "http:" ? 80 : 443);
    }
    return new StripeClient(secretKey, config);
  }

  /** The Stripe customer of our customer: the token's, else one found by metadata, else a new one. */
  /**
   * The SetupIntent the browser authenticated, fetched from Stripe (never taken from the browser): it must
   * be ours (the handle is its client_secret), succeeded, off-session, on the posted PaymentMethod, and made
   * for this customer (metadata.customer_ref; and the Stripe customer of the token it already holds).
   */
  private async afterAuthentication(stripe: Stripe, req: SavePaymentMethodRequest, auth: { handle: string; newCustomer?: boolean }): Promise<TokenizeResult> {
    const id = SETUP_SECRET.exec(auth.handle)?.[1];
    if (!id) return { ok: false, code: "authentication_failed" };
    const setup = await stripe.setupIntents.retrieve(id);
    const customer = typeof setup.customer === "string" ? setup.customer : (setup.customer?.id ?? null);
    const pmId = typeof setup.payment_method === "string" ? setup.payment_method : (setup.payment_method?.id ?? null);
    const ref = setup.metadata?.customer_ref ?? "";
    const expected = req.existingToken ? parseStripeToken(req.existingToken)?.customer : undefined;
    const ours =
      setup.client_secret === auth.handle &&
      setup.usage === "off_session" &&
      pmId === req.paymentMethodId &&
      !!customer &&
      (!expected || expected === customer) &&
      (auth.newCustomer ? /^cus_[A-Za-z0-9]+$/.test(ref) : ref === req.customerRef);
    if (!ours) return { ok: false, code: "authentication_failed" };
    if (setup.status !== "succeeded") return { ok: false, code: setup.last_setup_error ? declineCode(setup.last_setup_error) : "authentication_required" };
    const saved = await this.savedCard(stripe, customer, setup);
    return saved.ok && auth.newCustomer ? { ...saved, customerRef: ref } : saved;
  }

  /** The token and card details of a succeeded SetupIntent. */
  private async savedCard(stripe: Stripe, customer: string, setup: Stripe.SetupIntent): Promise<TokenizeResult> {
    const pmId = typeof setup.payment_method === "string" ? setup.payment_method : setup.payment_method!.id;
    const card = (await stripe.paymentMethods.retrieve(pmId)).card;
    if (!card) return { ok: false, code: "invalid_payment_method" };
    return { ok: true, token: stripeToken(customer, pmId), brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
  }

  private async customerFor(stripe: Stripe, account: GatewayAccountRef, req: SavePaymentMethodRequest): Promise<string> {
    const fromToken = req.existingToken ? parseStripeToken(req.existingToken)?.customer : undefined;
    if (fromToken) return fromToken;
    const found = await stripe.customers.search({ query: `metadata['customer_ref']:${quoted(req.customerRef)}`, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const created = await stripe.customers.create(
      { email: req.email, name: req.name, metadata: { customer_ref: req.customerRef } },
      { idempotencyKey: `${req.customerRef}:customer:${account.id}:${digest(req.email, req.name)}` },
    );
    return created.id;
  }

  /**
   * The payer of a Pix as Stripe's billing details: name and e-mail always (what we know of the customer,
   * from the caller or looked up by the reference); the CPF/CNPJ only when the account is outside Latin
   * America, where Stripe requires it (and refuses it otherwise). Nothing known: none sent.
   */
  private async pixBillingDetails(stripe: Stripe, account: GatewayAccountRef, req: PixRequest): Promise<Stripe.PaymentIntentCreateParams.PaymentMethodData.BillingDetails | null> {
    const payer = req.payer ?? (await this.opts.payerOf?.(account, req.reference).catch(() => null)) ?? null;
    if (!payer) return null;
    const details: Stripe.PaymentIntentCreateParams.PaymentMethodData.BillingDetails = {};
    if (payer.name) details.name = payer.name.slice(0, 200);
    if (payer.email) details.email = payer.email;
    const taxId = (payer.doc ?? "").replace(/\D/g, "");
    const country = taxId ? await this.accountCountry(stripe) : null;
    if (country && !LATAM.has(country)) details.tax_id = taxId;
    return Object.keys(details).length ? details : null;
  }

  /** The Stripe account's country (GET /v1/account), once per client; null while it cannot be read (asked again next time). */
  private async accountCountry(stripe: Stripe): Promise<string | null> {
    let known = this.countries.get(stripe);
    if (!known) {
      known = stripe.accounts.retrieveCurrent().then((a) => a.country?.toUpperCase() ?? null);
      this.countries.set(stripe, known);
    }
    return known.catch(() => {
      this.countries.delete(stripe);
      return null;
    });
  }

  private async intentsByKey(stripe: Stripe, idempotencyKey: string): Promise<Stripe.PaymentIntent[]> {
    const found = await stripe.paymentIntents.search({ query: `metadata['idempotency_key']:${quoted(idempotencyKey)}`, limit: 10 });
    return found.data;
  }

  private async refundByKey(stripe: Stripe, paymentIntent: string, idempotencyKey: string): Promise<Stripe.Refund | undefined> {
    for await (const refund of stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 })) {
      if (refund.metadata?.idempotency_key === idempotencyKey) return refund;
    }
    return undefined;
  }
}

/** A PaymentIntent's status in our terms (docs.stripe.com/payments/paymentintents/lifecycle). */
function statusOf(pi: Stripe.PaymentIntent): Omit<StatusResult, "chargeId"> {
  switch (pi.status) {
    case "succeeded":
      return { outcome: "approved", detailCode: "" };
    case "canceled":
      return { outcome: "declined", detailCode: pi.last_payment_error ? declineCode(pi.last_payment_error) : "canceled" };
    case "requires_payment_method":
      // Created without a payment method never happens here; with one, the attempt failed.
      return { outcome: "declined", detailCode: declineCode(pi.last_payment_error) };
    default:
      // processing, requires_action (a Pix awaiting payment), requires_confirmation, requires_capture.
      return { outcome: "pending", detailCode: pi.status };
  }
}

function refundResult(refund: Stripe.Refund): RefundResult {
  if (refund.status === "succeeded") return { outcome: "refunded", refundId: refund.id, detailCode: "" };
  if (refund.status === "failed" || refund.status === "canceled") return { outcome: "declined", refundId: refund.id, detailCode: refund.failure_reason ?? `refund_${refund.status}` };
  // pending, requires_action: not settled yet; asked again (same key) by the refund reconciliation.
  throw new GatewayUnavailable("refund_pending", 202);
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? ""));

function notificationOf(event: Stripe.Event): GatewayNotification {
  const base = {
    eventId: event.id,
    providerType: event.type,
    occurredAt: new Date(event.created * 1000),
    livemode: event.livemode,
  };
  const none = { ...base, kind: "ignored" as GatewayNotificationKind, chargeId: "", objectId: "", idempotencyKey: null, reference: null, amountCents: null, detailCode: "" };
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed": {
      const pi = event.data.object as Stripe.PaymentIntent;
      const pix = pi.payment_method_types.includes("pix") && !pi.payment_method_types.includes("card");
      const succeeded = event.type === "payment_intent.succeeded";
      return {
        ...none,
        kind: succeeded ? (pix ? "pix_paid" : "charge_succeeded") : "charge_failed",
        chargeId: pi.id,
        idempotencyKey: pi.metadata?.idempotency_key ?? null,
        reference: pi.metadata?.reference ?? null,
        amountCents: succeeded ? pi.amount_received : pi.amount,
        detailCode: succeeded ? "" : declineCode(pi.last_payment_error),
      };
    }
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated": {
      const refund = event.data.object as Stripe.Refund;
      const kind = refund.status === "succeeded" ? "refund_succeeded" : refund.status === "failed" || refund.status === "canceled" ? "refund_failed" : "ignored";
      return {
        ...none,
        kind,
        chargeId: idOf(refund.payment_intent),
        objectId: refund.id,
        idempotencyKey: refund.metadata?.idempotency_key ?? null,
        amountCents: refund.amount,
        detailCode: kind === "refund_failed" ? (refund.failure_reason ?? `refund_${refund.status}`) : "",
      };
    }
    case "charge.dispute.created": {
      const dispute = event.data.object as Stripe.Dispute;
      return { ...none, kind: "dispute_opened", chargeId: idOf(dispute.payment_intent) || idOf(dispute.charge), objectId: dispute.id, amountCents: dispute.amount, detailCode: dispute.reason };
    }
    default:
      return none;
  }
}
