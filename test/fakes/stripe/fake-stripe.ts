/*
 * A local fake of the Stripe API, for the Stripe adapter's tests (no test reaches the internet).
 * Started by the tests on 127.0.0.1:0; the adapter's `apiBaseUrl` points the official `stripe` client here.
 *
 * Covers only what the adapter uses, in Stripe's documented shapes (API reference, docs.stripe.com/api):
 *   - form-encoded requests with bracket notation (metadata[reference]=...), JSON answers; a parameter the
 *     endpoint does not take is 400 parameter_unknown (API version 2026-10-28, the one stripe 23.1.0 pins:
 *     `allowed_payment_method_types`, no longer `payment_method_types`);
 *   - auth: `Authorization: Bearer <secret key>`; only the configured key is accepted (401 otherwise,
 *     `revokedKeys` answer 401 api_key_expired) — docs.stripe.com/api/authentication;
 *   - errors as `{error: {type, code, decline_code, message, param, payment_intent}}` with Stripe's statuses:
 *     400 invalid_request_error, 401 bad key, 402 card_error, 409/400 idempotency_error, 500 api_error
 *     — docs.stripe.com/api/errors, docs.stripe.com/declines/codes;
 *   - idempotency: the first answer of a key is saved once the endpoint started (validation failures are
 *     not saved) and replayed with `Idempotent-Replayed: true`, 500s included; the same key with other
 *     parameters is 400 idempotency_error; a key still in flight is 409 — docs.stripe.com/api/idempotent_requests;
 *   - account (retrieve: its country), customers (create, retrieve, update, search), payment_methods (retrieve, attach), setup_intents
 *     (create with confirm, confirm, retrieve), payment_intents (create with confirm / off_session /
 *     setup_future_usage, card or pix; retrieve; cancel; list with created[gte] and starting_after; search
 *     on metadata), refunds (create partial or total, retrieve, list by payment_intent), balance, events;
 *   - a confirmation with the customer present (not off_session) and no return_url is 400 (param return_url)
 *     while the intent's automatic_payment_methods may redirect (on by default; allow_redirects=never turns it off);
 *   - test payment methods pm_card_* (test-payment-methods.ts) — docs.stripe.com/testing;
 *   - Pix: next_action.pix_display_qr_code {data, expires_at, image_url_png, image_url_svg,
 *     hosted_instructions_url}; payPix()/expirePix() (or POST /_test/pix/:id/pay|expire) stand in for the
 *     payer's bank — docs.stripe.com/payments/pix/accept-a-payment;
 *   - webhooks: every event is recorded and, with `webhookUrl`, POSTed signed exactly as Stripe signs them
 *     (signing.ts) — docs.stripe.com/webhooks;
 *   - counters: succeeded charges per Idempotency-Key and in total; every request's key;
 *   - faults for the next matching request: "500" (nothing done), "500_after" (done, then a 500 that
 *     is saved for replay), "hang" (done, answer held past the client's timeout).
 * Search is strongly consistent here unless `searchIndexed = false` (Stripe's lags: docs.stripe.com/search#data-freshness).
 * Objects carry every field the `stripe` package's types require, and no null where Stripe omits a field
 * (a refund's failure_reason until it fails): fake-stripe-shapes.test.ts checks them against those types.
 */
import { randomBytes } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import { brCode } from "../../../core/gateways/pix-br-code.ts";
import { signatureHeader } from "./signing.ts";
import { TEST_PAYMENT_METHODS, type CardBehaviour } from "./test-payment-methods.ts";
import { cardFrameHtml, challengeFrameHtml, standInScript, TEST_NUMBERS } from "./stripe-js-stand-in.ts";

type Obj = Record<string, any>;

export interface FakeStripeOptions {
  /** The only secret key the fake accepts. */
  secretKey: string;
  /** Keys answered 401 api_key_expired (a rolled or revoked key). */
  revokedKeys?: string[];
  /** whsec_ secret that signs webhook deliveries. */
  webhookSecret?: string;
  /** Where events are POSTed as they happen; absent: recorded only (deliver() sends one on demand). */
  webhookUrl?: string;
  /** How long a "hang" fault holds its answer (ms). */
  hangMs?: number;
  /** The account's country (GET /v1/account); "BR" by default. Decides whether a Pix payer's tax_id is required or refused. */
  country?: string;
}

export type FaultKind = "500" | "500_after" | "hang";

interface Fault {
  kind: FaultKind;
  method?: string;
  path?: RegExp;
}

interface SavedAnswer {
  fingerprint: string;
  pending: boolean;
  status: number;
  body: string;
  requestId: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
  /** The decoded form parameters (POST) or query (GET), as the endpoint read them. */
  params: Record<string, any>;
}

/** An error answer. `saved: false`: the endpoint never started (validation), so no idempotent result is kept. */
class FakeError extends Error {
  constructor(readonly status: number, readonly error: Obj, readonly saved = true) {
    super(String(error.message));
  }
}

const invalid = (message: string, extra: Obj = {}) => new FakeError(400, { type: "invalid_request_error", message, ...extra }, false);
/** 404 when the path names the object, 400 when a parameter does. */
const missing = (kind: string, id: string, param: string, status = 400) =>
  new FakeError(status, { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${id}'`, param }, false);

const MIN_CHARGE: Record<string, number> = { brl: 50, usd: 50, eur: 50 };
const LATAM = new Set(["AR", "BO", "BR", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PY", "SV", "UY", "VE"]);
const STRIPE_API_VERSION = "2026-10-28.endive";
/** Payment method types that never send the customer away to another page (a QR, a voucher, a transfer). */
const NEVER_REDIRECT = new Set(["pix", "boleto", "oxxo", "konbini", "customer_balance"]);

function randomId(prefix: string, length = 24): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return `${prefix}_${[...randomBytes(length)].map((b) => alphabet[b % 62]).join("")}`;
}

function integer(value: unknown, param: string): number {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${String(value)}`, { code: "parameter_invalid_integer", param });
  return Number(value);
}

const bool = (value: unknown) => value === "true";
const copy = <T>(o: T): T => structuredClone(o);

export class FakeStripe {
  readonly customers = new Map<string, Obj>();
  readonly paymentMethods = new Map<string, Obj>();
  readonly setupIntents = new Map<string, Obj>();
  readonly paymentIntents = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  readonly disputes = new Map<string, Obj>();
  readonly events: Obj[] = [];
  readonly requests: RecordedRequest[] = [];
  /** How many times the Stripe.js stand-in (/v3/) was served. */
  scriptLoads = 0;
  readonly deliveries: { eventId: string; status: number | "error" }[] = [];
  /** Succeeded charges, by the Idempotency-Key of the request that made them. */
  readonly chargesByKey = new Map<string, number>();
  /** The status the next refunds are created in ("pending" to test an unsettled refund). */
  nextRefundStatus: "succeeded" | "pending" = "succeeded";
  /** False: search finds nothing yet, as while Stripe's index lags (docs.stripe.com/search#data-freshness). */
  searchIndexed = true;

  private readonly saved = new Map<string, SavedAnswer>();
  /** What each card payment method does (Stripe keeps this in the card number; the fake beside the object). */
  private readonly behaviours = new Map<string, CardBehaviour>();
  /** PaymentMethods whose SetupIntent passed 3-D Secure (what "set up for future payments" means to a test card). */
  private readonly setUp = new Set<string>();
  /** The Idempotency-Key that created each PaymentIntent (a Pix is paid later, by the payer). */
  private readonly keyOfIntent = new Map<string, string | null>();
  private readonly faults: Fault[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private server!: http.Server;

  private constructor(private readonly opts: FakeStripeOptions) {}

  static async start(opts: FakeStripeOptions): Promise<FakeStripe> {
    const fake = new FakeStripe(opts);
    const app = fake.app();
    await new Promise<void>((resolve) => {
      fake.server = app.listen(0, "127.0.0.1", () => resolve());
    });
    return fake;
  }

  get country(): string {
    return (this.opts.country ?? "BR").toUpperCase();
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get totalCharges(): number {
    return [...this.chargesByKey.values()].reduce((a, b) => a + b, 0);
  }

  chargesFor(idempotencyKey: string): number {
    return this.chargesByKey.get(idempotencyKey) ?? 0;
  }

  /** The next request matching `method`/`path` meets this fault (once). */
  failNext(kind: FaultKind, match: { method?: string; path?: RegExp } = {}): void {
    this.faults.push({ kind, ...match });
  }

  /** Stripe prunes idempotency keys once they are 24 hours old: a key reused after that makes a new request. */
  pruneIdempotencyKeys(): void {
    this.saved.clear();
  }

  /** Waits for every webhook delivery started so far. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.settled();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // --- the payer's side and Stripe's own later moves (test controls) ---

  /** The payer's bank pays a Pix PaymentIntent (by pi_ id or by its copy-and-paste data). */
  payPix(idOrData: string): Obj {
    const pi = this.paymentIntents.get(idOrData) ?? [...this.paymentIntents.values()].find((p) => p.next_action?.pix_display_qr_code?.data === idOrData);
    if (!pi || pi.status !== "requires_action" || pi.next_action?.type !== "pix_display_qr_code") throw new Error(`fake stripe: no payable Pix for ${idOrData}`);
    if (pi.next_action.pix_display_qr_code.expires_at <= this.nowSeconds()) throw new Error("fake stripe: that Pix has expired");
    this.succeed(pi, null);
    return copy(pi);
  }

  /** A Pix PaymentIntent reaches its expiry unpaid. */
  expirePix(id: string): Obj {
    const pi = this.paymentIntents.get(id);
    if (!pi || pi.status !== "requires_action") throw new Error(`fake stripe: no pending Pix ${id}`);
    pi.status = "requires_payment_method";
    pi.next_action = null;
    pi.last_payment_error = { type: "invalid_request_error", code: "payment_intent_payment_attempt_expired", message: "The payment attempt expired." };
    this.emit("payment_intent.payment_failed", pi, null);
    return copy(pi);
  }

  /**
   * What a saved card does from now on (by its pm_ id, or by the customer's card when given a cus_ id):
   * a card that starts declining, or whose issuer starts asking for 3-D Secure, after it was saved.
   */
  setCardBehaviour(idOrCustomer: string, behaviour: CardBehaviour): void {
    const pms = idOrCustomer.startsWith("cus_") ? [...this.paymentMethods.values()].filter((pm) => pm.customer === idOrCustomer && pm.type === "card") : [this.paymentMethods.get(idOrCustomer)].filter(Boolean);
    if (!pms.length) throw new Error(`fake stripe: no saved card for ${idOrCustomer}`);
    for (const pm of pms) this.behaviours.set(pm!.id, behaviour);
  }

  /** The cardholder disputes a succeeded PaymentIntent's charge with the issuer: Stripe opens a dispute and tells us. */
  dispute(pi: string): Obj {
    const intent = this.paymentIntents.get(pi);
    if (!intent || intent.status !== "succeeded") throw new Error(`fake stripe: no succeeded PaymentIntent ${pi}`);
    this.openDispute(intent);
    return copy([...this.disputes.values()].at(-1)!);
  }

  /** The PaymentIntents created under our idempotency key (metadata.idempotency_key), oldest first. */
  intentsFor(idempotencyKey: string): Obj[] {
    return [...this.paymentIntents.values()].filter((pi) => pi.metadata?.idempotency_key === idempotencyKey).map(copy);
  }

  /** A pending refund settles. */
  settleRefund(id: string, status: "succeeded" | "failed"): Obj {
    const refund = this.refunds.get(id);
    if (!refund || refund.status !== "pending") throw new Error(`fake stripe: no pending refund ${id}`);
    refund.status = status;
    if (status === "failed") {
      refund.failure_reason = "declined";
      const charge = this.charges.get(refund.charge)!;
      charge.amount_refunded -= refund.amount;
      charge.refunded = false;
    }
    this.emit("refund.updated", refund, null);
    if (status === "failed") this.emit("refund.failed", refund, null);
    return copy(refund);
  }

  // --- webhooks ---

  /** The raw body and headers Stripe would send for an event (signed now, or at `timestampSeconds`). */
  signed(event: Obj, opts: { timestampSeconds?: number; secret?: string } = {}): { rawBody: string; headers: Record<string, string> } {
    const rawBody = JSON.stringify(event, null, 2);
    const secret = opts.secret ?? this.opts.webhookSecret;
    if (!secret) throw new Error("fake stripe: no webhookSecret configured");
    return {
      rawBody,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        "stripe-signature": signatureHeader(rawBody, secret, opts.timestampSeconds ?? this.nowSeconds()),
      },
    };
  }

  /** POSTs an event to `url` (default: the configured webhookUrl); resolves to the answer's status. */
  async deliver(event: Obj, url = this.opts.webhookUrl): Promise<number | "error"> {
    if (!url) throw new Error("fake stripe: no webhookUrl");
    const { rawBody, headers } = this.signed(event);
    let status: number | "error";
    try {
      status = (await fetch(url, { method: "POST", headers, body: rawBody, signal: AbortSignal.timeout(10_000) })).status;
    } catch {
      status = "error";
    }
    this.deliveries.push({ eventId: event.id, status });
    return status;
  }

  lastEvent(type: string): Obj | undefined {
    return [...this.events].reverse().find((e) => e.type === type);
  }

  // --- internals ---

  private nowSeconds(): number {
    return Math.floor(Date.now() / 1000);
  }

  private emit(type: string, object: Obj, request: { id: string; idempotency_key: string | null } | null): Obj {
    const event = {
      id: randomId("evt"),
      object: "event",
      api_version: STRIPE_API_VERSION,
      created: this.nowSeconds(),
      data: { object: copy(object) },
      livemode: false,
      pending_webhooks: this.opts.webhookUrl ? 1 : 0,
      request: request ?? { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    if (this.opts.webhookUrl) {
      const p = this.deliver(event).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
    return event;
  }

  private app(): express.Express {
    const app = express();
    app.set("query parser", "extended");
    // The stand-in for Stripe.js and its card frame (stripe-js-stand-in.ts); public, like js.stripe.com.
    this.scriptLoads = 0;
    app.get(["/v3", "/v3/"], (_req, res) => {
      this.scriptLoads++;
      res.type("application/javascript").set("Cache-Control", "no-store").send(standInScript());
    });
    app.get("/v3/card-frame.html", (_req, res) => void res.type("html").send(cardFrameHtml()));
    app.get("/v3/three-d-secure.html", (_req, res) => void res.type("html").send(challengeFrameHtml()));
    // The issuer's 3-D Secure page (Stripe's test page: "Complete" / "Fail authentication"); not a Stripe API endpoint.
    app.post("/_test/3ds/:id", express.urlencoded({ extended: false }), (req, res) => {
      try {
        res.json(this.authenticateSetup(req.params.id!, req.body?.client_secret, req.body?.outcome === "complete" ? "complete" : "fail"));
      } catch (e) {
        res.status(e instanceof FakeError ? e.status : 500).json({ error: e instanceof FakeError ? e.error : { message: String(e) } });
      }
    });
    app.use(
      express.urlencoded({
        extended: true,
        verify: (req, _res, buf) => {
          (req as Request & { rawBody?: string }).rawBody = buf.toString("utf8");
        },
      }),
    );
    type Handler = (p: Obj, ctx: Ctx) => Obj;
    // Stripe refuses a parameter it does not know (400 parameter_unknown): each route names its own.
    const LIST = ["limit", "starting_after", "ending_before", "created", "expand"];
    const on = (method: "get" | "post", path: string, allowed: string[], handler: Handler) =>
      app[method](path, (req: Request, res: Response) => void this.run(req, res, allowed, handler));

    // Stripe.js' card frame creates the PaymentMethod with the publishable key (the one call a pk makes here):
    // a test number becomes a fresh pm_ of that test card. Not recorded in `requests` (the browser's call, not ours).
    app.post("/v1/payment_methods", (req, res) => {
      if (!/^Bearer pk_(test|live)_[A-Za-z0-9]+$/.test(req.get("Authorization") ?? "")) return void res.status(401).json({ error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
      const test = req.body?.type === "card" ? TEST_NUMBERS[String(req.body?.card?.number ?? "")] : undefined;
      if (!test) return void res.status(402).json({ error: { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect.", param: "number" } });
      res.json(copy(this.paymentMethod(test)));
    });
    on("get", "/v1/balance", ["expand"], () => this.balance());
    on("get", "/v1/account", ["expand"], () => ({ id: "acct_fake0000000000", object: "account", country: this.country, default_currency: this.country === "BR" ? "brl" : "usd", charges_enabled: true, details_submitted: true, email: null, payouts_enabled: true, type: "standard" }));
    on("post", "/v1/customers", ["email", "name", "phone", "metadata", "description", "expand"], (p) => this.createCustomer(p));
    on("get", "/v1/customers/search", ["query", "limit", "page", "expand"], (p) => this.search("/v1/customers/search", this.customers, p));
    on("get", "/v1/customers/:id", ["expand"], (_p, c) => copy(this.get(this.customers, c.params.id!, "customer", "id", 404)));
    on("post", "/v1/customers/:id", ["email", "name", "phone", "metadata", "description", "expand"], (p, c) => this.updateCustomer(c.params.id!, p));
    on("get", "/v1/payment_methods/:id", ["expand"], (_p, c) => copy(this.paymentMethod(c.params.id!)));
    on("post", "/v1/payment_methods/:id/attach", ["customer", "expand"], (p, c) => this.attach(c.params.id!, p.customer));
    const setup = ["customer", "payment_method", "confirm", "usage", "allowed_payment_method_types", "automatic_payment_methods", "metadata", "description", "return_url", "use_stripe_sdk", "expand"];
    on("post", "/v1/setup_intents", setup, (p, c) => this.createSetupIntent(p, c));
    on("get", "/v1/setup_intents/:id", ["expand"], (_p, c) => copy(this.get(this.setupIntents, c.params.id!, "setup_intent", "intent", 404)));
    on("post", "/v1/setup_intents/:id/confirm", ["payment_method", "return_url", "expand"], (p, c) =>
      this.confirmSetupIntent(this.requireReturnUrl(this.get(this.setupIntents, c.params.id!, "setup_intent", "intent", 404), p, "Setup Intent"), p.payment_method, c),
    );
    const intent = ["amount", "currency", "customer", "payment_method", "allowed_payment_method_types", "automatic_payment_methods", "payment_method_data", "payment_method_options", "confirm", "off_session", "error_on_requires_action", "setup_future_usage", "capture_method", "metadata", "description", "receipt_email", "return_url", "statement_descriptor_suffix", "expand"];
    on("post", "/v1/payment_intents", intent, (p, c) => this.createPaymentIntent(p, c));
    on("get", "/v1/payment_intents/search", ["query", "limit", "page", "expand"], (p) => this.search("/v1/payment_intents/search", this.paymentIntents, p));
    on("get", "/v1/payment_intents", [...LIST, "customer"], (p) => this.list("/v1/payment_intents", this.paymentIntents, p, (pi) => !p.customer || pi.customer === p.customer));
    on("get", "/v1/payment_intents/:id", ["expand", "client_secret"], (_p, c) => copy(this.get(this.paymentIntents, c.params.id!, "payment_intent", "intent", 404)));
    on("post", "/v1/payment_intents/:id/cancel", ["cancellation_reason", "expand"], (_p, c) => this.cancelPaymentIntent(c.params.id!, c));
    on("post", "/v1/refunds", ["payment_intent", "charge", "amount", "metadata", "reason", "expand"], (p, c) => this.createRefund(p, c));
    on("get", "/v1/refunds", [...LIST, "payment_intent", "charge"], (p) => this.list("/v1/refunds", this.refunds, p, (r) => !p.payment_intent || r.payment_intent === p.payment_intent));
    on("get", "/v1/refunds/:id", ["expand"], (_p, c) => copy(this.get(this.refunds, c.params.id!, "refund", "id", 404)));
    on("get", "/v1/events/:id", ["expand"], (_p, c) => copy(this.events.find((e) => e.id === c.params.id) ?? this.fail(missing("event", c.params.id!, "id", 404))));

    // Test-only stand-ins for the payer's bank (not Stripe endpoints; no key needed, loopback only).
    app.post("/_test/pix/:id/pay", (req, res) => void res.json(this.payPix(req.params.id!)));
    app.post("/_test/pix/:id/expire", (req, res) => void res.json(this.expirePix(req.params.id!)));
    app.use((req, res) => void res.status(404).json({ error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${req.path}).` } }));
    return app;
  }

  private fail(err: FakeError): never {
    throw err;
  }

  private async run(req: Request, res: Response, allowed: string[], handler: (p: Obj, ctx: Ctx) => Obj): Promise<void> {
    const requestId = randomId("req", 14);
    const key = req.method === "POST" ? (req.get("Idempotency-Key") ?? null) : null;
    const record: RecordedRequest = { method: req.method, path: req.path, idempotencyKey: key, status: 0, replayed: false, params: copy((req.method === "GET" ? req.query : req.body) ?? {}) as Obj };
    this.requests.push(record);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      record.status = status;
      res.status(status).set({ "Request-Id": requestId, "Stripe-Version": STRIPE_API_VERSION, ...headers }).type("application/json").send(body);
    };
    const authError = this.authenticate(req.get("Authorization"));
    if (authError) return send(401, JSON.stringify({ error: authError }));

    const fault = this.takeFault(req);
    const apiError = JSON.stringify({ error: { type: "api_error", message: "An unknown error occurred" } });
    if (fault?.kind === "500") return send(500, apiError);

    const scope = key ? `${this.opts.secretKey}\n${key}` : null;
    const fingerprint = `${req.method} ${req.path}\n${(req as Request & { rawBody?: string }).rawBody ?? ""}`;
    if (scope) {
      const prior = this.saved.get(scope);
      if (prior?.pending) {
        return send(409, JSON.stringify({ error: { type: "idempotency_error", message: "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through)." } }));
      }
      if (prior && prior.fingerprint !== fingerprint) {
        return send(400, JSON.stringify({ error: { type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` } }));
      }
      if (prior) {
        record.replayed = true;
        return send(prior.status, prior.body, { "Idempotent-Replayed": "true", "Original-Request": prior.requestId });
      }
      this.saved.set(scope, { fingerprint, pending: true, status: 0, body: "", requestId });
    }

    let status = 200;
    let body: string;
    try {
      const params = req.method === "GET" ? (req.query as Obj) : ((req.body as Obj | undefined) ?? {});
      const unknown = Object.keys(params).find((k) => !allowed.includes(k));
      if (unknown) throw invalid(`Received unknown parameter: ${unknown}`, { code: "parameter_unknown", param: unknown });
      body = JSON.stringify(handler(params, { params: req.params as Record<string, string>, request: { id: requestId, idempotency_key: key }, key }), null, 2);
    } catch (err) {
      if (!(err instanceof FakeError)) throw err;
      if (!err.saved && scope) this.saved.delete(scope);
      if (!err.saved) return send(err.status, JSON.stringify({ error: err.error }, null, 2));
      status = err.status;
      body = JSON.stringify({ error: err.error }, null, 2);
    }
    if (fault?.kind === "500_after") [status, body] = [500, apiError];
    if (scope) this.saved.set(scope, { fingerprint, pending: false, status, body, requestId });
    if (fault?.kind === "hang") {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => (this.timers.delete(t), resolve()), this.opts.hangMs ?? 3_000);
        this.timers.add(t);
      });
      if (res.destroyed || res.writableEnded) return;
    }
    send(status, body);
  }

  private authenticate(header: string | undefined): Obj | null {
    const bearer = /^Bearer (.+)$/.exec(header ?? "")?.[1];
    const basic = /^Basic (.+)$/.exec(header ?? "")?.[1];
    const key = bearer ?? (basic ? Buffer.from(basic, "base64").toString("utf8").replace(/:$/, "") : undefined);
    if (!key) {
      return { type: "invalid_request_error", message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')." };
    }
    const masked = `${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
    if (this.opts.revokedKeys?.includes(key)) return { type: "invalid_request_error", code: "api_key_expired", message: `Expired API Key provided: ${masked}` };
    if (key.startsWith("pk_")) return { type: "invalid_request_error", message: "This API call cannot be made with a publishable API key. Please use a secret API key." };
    if (key !== this.opts.secretKey) return { type: "invalid_request_error", message: `Invalid API Key provided: ${masked}` };
    return null;
  }

  private takeFault(req: Request): Fault | undefined {
    const i = this.faults.findIndex((f) => (!f.method || f.method === req.method) && (!f.path || f.path.test(req.path)));
    return i < 0 ? undefined : this.faults.splice(i, 1)[0];
  }

  private get(map: Map<string, Obj>, id: string, kind: string, param: string, status = 400): Obj {
    return map.get(id) ?? this.fail(missing(kind, id, param, status));
  }

  private metadata(p: Obj): Obj {
    const m = p.metadata ?? {};
    if (typeof m !== "object") throw invalid("Invalid object", { param: "metadata" });
    return { ...m };
  }

  // --- resources ---

  private balance(): Obj {
    const available = [...this.charges.values()].filter((c) => c.status === "succeeded").reduce((sum, c) => sum + c.amount - c.amount_refunded, 0);
    return { object: "balance", available: [{ amount: available, currency: "brl", source_types: { card: available } }], livemode: false, pending: [{ amount: 0, currency: "brl", source_types: { card: 0 } }] };
  }

  private createCustomer(p: Obj): Obj {
    const customer = {
      id: randomId("cus", 14),
      object: "customer",
      balance: 0,
      created: this.nowSeconds(),
      default_source: null,
      description: p.description ?? null,
      email: p.email ?? null,
      name: p.name ?? null,
      phone: p.phone ?? null,
      metadata: this.metadata(p),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      shipping: null,
    };
    this.customers.set(customer.id, customer);
    return copy(customer);
  }

  private updateCustomer(id: string, p: Obj): Obj {
    const customer = this.get(this.customers, id, "customer", "id");
    for (const field of ["email", "name", "phone"]) if (field in p) customer[field] = p[field] || null;
    if (p.metadata) Object.assign(customer.metadata, p.metadata);
    return copy(customer);
  }

  /** A stored payment method, or a fresh copy of a test one (Stripe gives `pm_card_visa` a new id on use). */
  private paymentMethod(id: string): Obj {
    const stored = this.paymentMethods.get(id);
    if (stored) return stored;
    const test = TEST_PAYMENT_METHODS[id];
    if (!test) this.fail(missing("PaymentMethod", id, "payment_method"));
    const pm = {
      id: randomId("pm"),
      object: "payment_method",
      type: "card",
      card: {
        brand: test.brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
        country: "US",
        display_brand: test.brand,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        fingerprint: randomId("fp", 12).slice(3),
        funding: "credit",
        generated_from: null,
        last4: test.last4,
        networks: { available: [test.brand], preferred: null },
        regulated_status: "unregulated",
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      billing_details: noBillingDetails(),
      customer: null,
      customer_account: null,
      created: this.nowSeconds(),
      livemode: false,
      metadata: {},
    };
    this.paymentMethods.set(pm.id, pm);
    this.behaviours.set(pm.id, test.behaviour);
    return pm;
  }

  private attach(id: string, customerId: unknown): Obj {
    if (typeof customerId !== "string") throw invalid("Missing required param: customer.", { code: "parameter_missing", param: "customer" });
    this.get(this.customers, customerId, "customer", "customer");
    const pm = this.paymentMethod(id);
    if (pm.customer && pm.customer !== customerId) throw invalid("The payment method you provided has already been attached to a customer.", { code: "payment_method_unexpected_state" });
    pm.customer = customerId;
    return copy(pm);
  }

  private createSetupIntent(p: Obj, ctx: Ctx): Obj {
    if (p.customer) this.get(this.customers, p.customer, "customer", "customer");
    const automatic = automaticPaymentMethods(p);
    const types: string[] = p.allowed_payment_method_types ?? ["card"];
    if (bool(p.confirm)) this.requireReturnUrl({ automatic_payment_methods: automatic, allowed_payment_method_types: types }, p, "Setup Intent");
    const si = {
      id: randomId("seti"),
      object: "setup_intent",
      application: null,
      cancellation_reason: null,
      client_secret: "",
      created: this.nowSeconds(),
      customer: p.customer ?? null,
      description: p.description ?? null,
      excluded_payment_method_types: null,
      last_setup_error: null as Obj | null,
      latest_attempt: null,
      livemode: false,
      mandate: null,
      metadata: this.metadata(p),
      next_action: null as Obj | null,
      on_behalf_of: null,
      payment_method: null as string | null,
      payment_method_configuration_details: null,
      payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: "automatic" } },
      single_use_mandate: null,
      allowed_payment_method_types: types,
      automatic_payment_methods: automatic,
      payment_method_types: types,
      status: "requires_payment_method",
      usage: p.usage ?? "off_session",
    };
    si.client_secret = `${si.id}_secret_${randomId("x", 16).slice(2)}`;
    this.setupIntents.set(si.id, si);
    if (p.payment_method) si.status = "requires_confirmation";
    return bool(p.confirm) ? this.confirmSetupIntent(si, p.payment_method, ctx) : copy(si);
  }

  /** A zero-amount check of the card; only a card the issuer refuses outright fails here. */
  private confirmSetupIntent(si: Obj, pmId: unknown, ctx: Ctx): Obj {
    const id = typeof pmId === "string" ? pmId : si.payment_method;
    if (!id) throw invalid("You must provide a payment_method.", { code: "parameter_missing", param: "payment_method" });
    const pm = this.paymentMethod(id);
    si.payment_method = pm.id;
    const behaviour = this.behaviours.get(pm.id);
    const refusal = behaviour === "generic_decline" || behaviour === "expired_card" ? declineOf(behaviour) : null;
    if (refusal) {
      si.status = "requires_payment_method";
      si.last_setup_error = { type: "card_error", ...refusal, payment_method: copy(pm) };
      this.emit("setup_intent.setup_failed", si, ctx.request);
      throw new FakeError(402, { type: "card_error", ...refusal, setup_intent: copy(si) });
    }
    if (behaviour === "authentication_required" || behaviour === "authentication_on_setup" || behaviour === "authentication_then_insufficient_funds") {
      // 3-D Secure at setup: Stripe.js runs it with the client_secret (the stand-in's challenge: /_test/3ds/:id).
      si.status = "requires_action";
      si.next_action = { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: `${this.url}/v3/three-d-secure.html?setup_intent=${si.id}` } };
      this.emit("setup_intent.requires_action", si, ctx.request);
      return copy(si);
    }
    if (si.customer) pm.customer = si.customer;
    si.status = "succeeded";
    this.emit("setup_intent.succeeded", si, ctx.request);
    return copy(si);
  }

  private createPaymentIntent(p: Obj, ctx: Ctx): Obj {
    const amount = integer(p.amount, "amount");
    const currency = String(p.currency ?? "").toLowerCase();
    if (!currency) throw invalid("Missing required param: currency.", { code: "parameter_missing", param: "currency" });
    if (amount < (MIN_CHARGE[currency] ?? 50)) throw invalid("Amount must be at least R$0.50 brl", { code: "amount_too_small", param: "amount" });
    // allowed_payment_method_types since API version 2026-09-30 (payment_method_types is refused now).
    const types: string[] = p.allowed_payment_method_types ?? ["card"];
    const pix = types.includes("pix");
    if (pix && currency !== "brl") throw invalid("The currency provided (usd) is invalid for one or more payment method types on this PaymentIntent.", { param: "currency" });
    if (bool(p.off_session) && !bool(p.confirm)) throw invalid("off_session can only be used when confirm=true.", { param: "off_session" });
    if (p.customer) this.get(this.customers, p.customer, "customer", "customer");
    let pm: Obj | null = null;
    if (pix) {
      if (p.payment_method_data?.type !== "pix") throw invalid("Missing payment_method_data[type]=pix.", { param: "payment_method_data[type]" });
      // A Latin American buyer's tax id: required when the seller is outside Latin America, refused otherwise
      // (docs.stripe.com/changelog/basil/2025-04-30/add-tax-id-to-billing-details).
      const taxId = p.payment_method_data.billing_details?.tax_id;
      if (taxId && LATAM.has(this.country)) throw invalid("Providing a tax_id is prohibited for this transaction.", { code: "tax_id_prohibited", param: "payment_method_data[billing_details][tax_id]" });
      if (!taxId && !LATAM.has(this.country)) throw invalid("Missing required param: payment_method_data[billing_details][tax_id].", { code: "parameter_missing", param: "payment_method_data[billing_details][tax_id]" });
      pm = { id: randomId("pm"), object: "payment_method", type: "pix", pix: {}, customer: null, customer_account: null, created: this.nowSeconds(), livemode: false, metadata: {}, billing_details: { ...noBillingDetails(), ...p.payment_method_data.billing_details } };
      this.paymentMethods.set(pm.id, pm);
    } else if (p.payment_method) {
      pm = this.paymentMethod(p.payment_method);
      if (p.customer && pm.customer && pm.customer !== p.customer) throw invalid("The provided PaymentMethod belongs to a different Customer.", { param: "payment_method" });
    }
    const expiresAt = pix ? this.pixExpiry(p.payment_method_options?.pix ?? {}) : null;
    const automatic = automaticPaymentMethods(p);
    if (bool(p.confirm)) this.requireReturnUrl({ automatic_payment_methods: automatic, allowed_payment_method_types: types }, p, "Payment Intent");
    const pi: Obj = {
      id: randomId("pi"),
      object: "payment_intent",
      amount,
      amount_capturable: 0,
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      capture_method: "automatic",
      client_secret: "",
      confirmation_method: "automatic",
      created: this.nowSeconds(),
      currency,
      customer: p.customer ?? null,
      customer_account: null,
      description: p.description ?? null,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: this.metadata(p),
      next_action: null,
      on_behalf_of: null,
      payment_method: pm?.id ?? null,
      payment_method_configuration_details: null,
      payment_method_options: pix ? { pix: { expires_after_seconds: null, expires_at: expiresAt } } : { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } },
      payment_record: null,
      processing: null,
      receipt_email: p.receipt_email ?? null,
      review: null,
      shipping: null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: p.statement_descriptor_suffix ?? null,
      transfer_group: null,
      allowed_payment_method_types: types,
      automatic_payment_methods: automatic,
      payment_method_types: types,
      setup_future_usage: p.setup_future_usage ?? null,
      status: pm ? "requires_confirmation" : "requires_payment_method",
      canceled_at: null,
      cancellation_reason: null,
    };
    pi.client_secret = `${pi.id}_secret_${randomId("x", 20).slice(2)}`;
    this.paymentIntents.set(pi.id, pi);
    this.keyOfIntent.set(pi.id, ctx.key);
    this.emit("payment_intent.created", pi, ctx.request);
    if (!bool(p.confirm) || !pm) return copy(pi);
    if (pix) {
      pi.status = "requires_action";
      pi.next_action = {
        type: "pix_display_qr_code",
        pix_display_qr_code: {
          data: brCode({ pixKey: "pix@fake-stripe.example", amountCents: amount, merchantName: "FAKE STRIPE", merchantCity: "SAO PAULO", txid: pi.id.slice(3) }),
          expires_at: expiresAt,
          hosted_instructions_url: `https://payments.stripe.com/pix/instructions/${pi.id}`,
          image_url_png: `https://qr.stripe.com/${pi.id}.png`,
          image_url_svg: `https://qr.stripe.com/${pi.id}.svg`,
        },
      };
      this.emit("payment_intent.requires_action", pi, ctx.request);
      return copy(pi);
    }
    return this.confirmCard(pi, pm, bool(p.off_session), ctx);
  }

  /**
   * Stripe refuses to confirm with the customer present (not off_session) and no return_url when the intent
   * takes automatic payment methods that may redirect (a card's 3-D Secure page, a bank's app), unless told
   * automatic_payment_methods[allow_redirects]=never — docs.stripe.com/api/payment_intents/confirm (return_url).
   */
  private requireReturnUrl<T extends Obj>(intent: T, p: Obj, kind: "Payment Intent" | "Setup Intent"): T {
    if (bool(p.off_session) || (typeof p.return_url === "string" && p.return_url)) return intent;
    const automatic = intent.automatic_payment_methods as Obj | null;
    if (!automatic?.enabled || automatic.allow_redirects === "never") return intent;
    if (!(intent.allowed_payment_method_types as string[]).some((t) => !NEVER_REDIRECT.has(t))) return intent;
    throw invalid(
      `A \`return_url\` must be specified because this ${kind} is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set \`automatic_payment_methods[enabled]\` to \`true\` and \`automatic_payment_methods[allow_redirects]\` to \`never\` when creating Setup Intents and Payment Intents.`,
      { param: "return_url" },
    );
  }

  /** Stripe's bounds for payment_method_options[pix]: 60 s to 14 days ahead; 4 hours by default. */
  private pixExpiry(o: Obj): number {
    const now = this.nowSeconds();
    if (o.expires_at !== undefined && o.expires_after_seconds !== undefined) throw invalid("expires_at and expires_after_seconds are mutually exclusive.", { param: "payment_method_options[pix][expires_at]" });
    const at = o.expires_at !== undefined ? integer(o.expires_at, "payment_method_options[pix][expires_at]") : now + (o.expires_after_seconds !== undefined ? integer(o.expires_after_seconds, "payment_method_options[pix][expires_after_seconds]") : 14_400);
    if (at - now < 60 || at - now > 1_209_600) throw invalid("The Pix expiry must be between 60 seconds and 14 days from now.", { code: "parameter_invalid_integer", param: "payment_method_options[pix][expires_at]" });
    return at;
  }

  /** The issuer's answer to the 3-D Secure challenge of a SetupIntent (the stand-in's challenge frame posts it). */
  authenticateSetup(id: string, clientSecret: unknown, outcome: "complete" | "fail"): Obj {
    const si = this.get(this.setupIntents, id, "setup_intent", "intent", 404);
    if (si.client_secret !== clientSecret) throw invalid("The client_secret provided does not match the client_secret associated with the SetupIntent.", { param: "client_secret" });
    if (si.status !== "requires_action") throw invalid(`This SetupIntent's status is ${si.status}: nothing to authenticate.`, { code: "setup_intent_unexpected_state" });
    si.next_action = null;
    if (outcome === "fail") {
      si.status = "requires_payment_method";
      si.last_setup_error = { type: "invalid_request_error", code: "setup_intent_authentication_failure", message: "We are unable to authenticate your payment method. Please choose a different payment method and try again." };
      si.payment_method = null;
      this.emit("setup_intent.setup_failed", si, null);
      return copy(si);
    }
    const pm = this.paymentMethod(si.payment_method);
    if (si.customer) pm.customer = si.customer;
    this.setUp.add(pm.id);
    si.status = "succeeded";
    this.emit("setup_intent.succeeded", si, null);
    return copy(si);
  }

  private confirmCard(pi: Obj, pm: Obj, offSession: boolean, ctx: Ctx): Obj {
    const stated = this.behaviours.get(pm.id) ?? "approve";
    // 4000002500003155 needs no 3-D Secure once set up; 4000008260003178 then declines for funds.
    const behaviour: CardBehaviour =
      stated === "authentication_on_setup" ? (this.setUp.has(pm.id) ? "approve" : "authentication_required")
      : stated === "authentication_then_insufficient_funds" ? (this.setUp.has(pm.id) ? "insufficient_funds" : "authentication_required")
      : stated;
    if (behaviour === "authentication_required" && !offSession) {
      // On a page: 3-D Secure through Stripe.js (next_action); the PaymentIntent waits.
      pi.status = "requires_action";
      pi.next_action = { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } };
      this.emit("payment_intent.requires_action", pi, ctx.request);
      return copy(pi);
    }
    const refusal = declineOf(behaviour);
    if (refusal) {
      const charge = this.newCharge(pi, "failed", refusal);
      pi.status = "requires_payment_method";
      pi.latest_charge = charge.id;
      pi.last_payment_error = { type: "card_error", ...refusal, charge: charge.id, payment_method: copy(pm) };
      this.emit("payment_intent.payment_failed", pi, ctx.request);
      throw new FakeError(402, { type: "card_error", ...refusal, charge: charge.id, payment_intent: copy(pi), payment_method: copy(pm) });
    }
    if (pi.setup_future_usage && pi.customer && !pm.customer) pm.customer = pi.customer;
    this.succeed(pi, ctx.request);
    if (behaviour === "dispute") this.openDispute(pi);
    return copy(pi);
  }

  /** A Charge as Stripe shows it (docs.stripe.com/api/charges/object): captured at once, or refused with the issuer's words. */
  private newCharge(pi: Obj, status: "succeeded" | "failed", refusal: { code: string; decline_code?: string; message: string } | null = null): Obj {
    const ok = status === "succeeded";
    const pm = pi.payment_method ? this.paymentMethods.get(pi.payment_method) : undefined;
    const card = pm?.card;
    const charge = {
      id: randomId("ch"),
      object: "charge",
      amount: pi.amount,
      amount_captured: ok ? pi.amount : 0,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: ok ? randomId("txn") : null,
      billing_details: copy(pm?.billing_details ?? noBillingDetails()),
      calculated_statement_descriptor: "FAKE STRIPE",
      captured: ok,
      created: this.nowSeconds(),
      currency: pi.currency,
      customer: pi.customer,
      description: pi.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: refusal ? (refusal.decline_code ?? refusal.code) : null,
      failure_message: refusal?.message ?? null,
      fraud_details: {},
      livemode: false,
      metadata: copy(pi.metadata),
      on_behalf_of: null,
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: ok ? "approved_by_network" : "declined_by_network",
        reason: refusal ? (refusal.decline_code ?? refusal.code) : null,
        seller_message: ok ? "Payment complete." : "The bank did not return any further details with this decline.",
        type: ok ? "authorized" : "issuer_declined",
      },
      paid: ok,
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      payment_method_details: card
        ? {
            type: "card",
            card: {
              amount_authorized: ok ? pi.amount : null,
              authorization_code: null,
              brand: card.brand,
              checks: copy(card.checks),
              country: card.country,
              electronic_commerce_indicator: null,
              exp_month: card.exp_month,
              exp_year: card.exp_year,
              funding: card.funding,
              installments: null,
              last4: card.last4,
              mandate: null,
              network: card.brand,
              network_transaction_id: null,
              regulated_status: card.regulated_status,
              three_d_secure: null,
              transaction_link_id: null,
              wallet: null,
            },
          }
        : { type: pm?.type ?? "pix", [pm?.type ?? "pix"]: {} },
      receipt_email: null,
      receipt_number: null,
      receipt_url: ok ? `https://pay.stripe.com/receipts/payment/${pi.id}` : null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status,
      transfer_data: null,
      transfer_group: null,
    };
    this.charges.set(charge.id, charge);
    return charge;
  }

  private succeed(pi: Obj, request: Ctx["request"] | null): void {
    const key = this.keyOfIntent.get(pi.id) ?? `(no key) ${pi.id}`;
    const charge = this.newCharge(pi, "succeeded", null);
    pi.status = "succeeded";
    pi.amount_received = pi.amount;
    pi.latest_charge = charge.id;
    pi.next_action = null;
    this.chargesByKey.set(key, (this.chargesByKey.get(key) ?? 0) + 1);
    this.emit("charge.succeeded", charge, request);
    this.emit("payment_intent.succeeded", pi, request);
  }

  private openDispute(pi: Obj): void {
    const charge = this.charges.get(pi.latest_charge)!;
    charge.disputed = true;
    const dispute = {
      id: randomId("dp"),
      object: "dispute",
      amount: charge.amount,
      balance_transactions: [],
      charge: charge.id,
      created: this.nowSeconds(),
      currency: charge.currency,
      enhanced_eligibility_types: [],
      evidence: disputeEvidence(),
      evidence_details: { due_by: this.nowSeconds() + 7 * 86_400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0, submission_method: "not_submitted" },
      intended_submission_method: null,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: pi.id,
      reason: "fraudulent",
      status: "needs_response",
    };
    this.disputes.set(dispute.id, dispute);
    this.emit("charge.dispute.created", dispute, null);
  }

  private cancelPaymentIntent(id: string, ctx: Ctx): Obj {
    const pi = this.get(this.paymentIntents, id, "payment_intent", "intent");
    if (!["requires_payment_method", "requires_confirmation", "requires_action", "requires_capture"].includes(pi.status)) {
      throw new FakeError(400, { type: "invalid_request_error", code: "payment_intent_unexpected_state", message: `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`, payment_intent: copy(pi) }, false);
    }
    pi.status = "canceled";
    pi.next_action = null;
    pi.canceled_at = this.nowSeconds();
    pi.cancellation_reason = "requested_by_customer";
    this.emit("payment_intent.canceled", pi, ctx.request);
    return copy(pi);
  }

  private createRefund(p: Obj, ctx: Ctx): Obj {
    if (!p.payment_intent) throw invalid("Missing required param: payment_intent.", { code: "parameter_missing", param: "payment_intent" });
    const pi = this.get(this.paymentIntents, p.payment_intent, "payment_intent", "payment_intent");
    const charge = pi.latest_charge ? this.charges.get(pi.latest_charge) : undefined;
    if (pi.status !== "succeeded" || !charge) {
      throw invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, { code: "charge_not_refundable", param: "payment_intent" });
    }
    if (charge.disputed) throw invalid(`Charge ${charge.id} has been charged back; cannot issue a refund.`, { code: "charge_disputed" });
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) throw invalid(`Charge ${charge.id} has already been refunded.`, { code: "charge_already_refunded" });
    const amount = p.amount === undefined ? left : integer(p.amount, "amount");
    if (amount < 1) throw invalid("This value must be greater than or equal to 1.", { code: "parameter_invalid_integer", param: "amount" });
    if (amount > left) throw invalid(`Refund amount (R$${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (R$${(left / 100).toFixed(2)})`, { code: "amount_too_large", param: "amount" });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = {
      id: randomId("re"),
      object: "refund",
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: this.nowSeconds(),
      currency: charge.currency,
      customer: pi.customer,
      customer_account: null,
      // failure_reason: absent until the refund fails (Stripe omits it, never null).
      metadata: this.metadata(p),
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      reason: p.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: this.nextRefundStatus as string,
      transfer_reversal: null,
    } as Obj;
    this.refunds.set(refund.id, refund);
    this.emit("refund.created", refund, ctx.request);
    this.emit("charge.refunded", charge, ctx.request);
    return copy(refund);
  }

  /** Newest first, `limit` (1-100, default 10), `starting_after`, `created[gte|gt|lte|lt]`. */
  private list(url: string, map: Map<string, Obj>, p: Obj, keep: (o: Obj) => boolean): Obj {
    const limit = p.limit === undefined ? 10 : integer(p.limit, "limit");
    if (limit < 1 || limit > 100) throw invalid("This value must be between 1 and 100.", { param: "limit" });
    const created = (p.created ?? {}) as Obj;
    const bounds: [string, (a: number, b: number) => boolean][] = [["gte", (a, b) => a >= b], ["gt", (a, b) => a > b], ["lte", (a, b) => a <= b], ["lt", (a, b) => a < b]];
    let all = [...map.values()].filter(keep).filter((o) => bounds.every(([op, ok]) => created[op] === undefined || ok(o.created, integer(created[op], `created[${op}]`))));
    all = all.reverse(); // insertion order is creation order; lists are newest first
    if (p.starting_after) {
      const i = all.findIndex((o) => o.id === p.starting_after);
      if (i < 0) throw missing("object", p.starting_after, "starting_after");
      all = all.slice(i + 1);
    }
    return { object: "list", data: copy(all.slice(0, limit)), has_more: all.length > limit, url };
  }

  /** Stripe's search language, the part the adapter uses: `field:'value'` clauses joined by AND, metadata['key'] fields. */
  private search(url: string, map: Map<string, Obj>, p: Obj): Obj {
    const query = String(p.query ?? "");
    const clauses = query.split(/\s+AND\s+/).map((c) => /^(metadata\[['"]([^'"]+)['"]\]|[a-z_]+):['"](.*)['"]$/.exec(c.trim()));
    if (!query || clauses.some((c) => !c)) throw invalid(`Invalid search query: ${query}`, { param: "query" });
    const limit = p.limit === undefined ? 10 : integer(p.limit, "limit");
    if (!this.searchIndexed) return { object: "search_result", data: [], has_more: false, next_page: null, url };
    const found = [...map.values()].filter((o) => clauses.every((c) => (c![2] ? o.metadata?.[c![2]] : o[c![1]!]) === c![3])).reverse();
    return { object: "search_result", data: copy(found.slice(0, limit)), has_more: found.length > limit, next_page: null, url };
  }
}

interface Ctx {
  params: Record<string, string>;
  request: { id: string; idempotency_key: string | null };
  key: string | null;
}

/** A PaymentMethod's billing_details with nothing known: every field present, null. */
const noBillingDetails = (): Obj => ({ address: null, email: null, name: null, phone: null, tax_id: null });

/** A new dispute's evidence: nothing submitted yet. */
function disputeEvidence(): Obj {
  const fields = [
    "access_activity_log", "billing_address", "cancellation_policy", "cancellation_policy_disclosure", "cancellation_rebuttal", "customer_communication",
    "customer_email_address", "customer_name", "customer_purchase_ip", "customer_signature", "duplicate_charge_documentation", "duplicate_charge_explanation",
    "duplicate_charge_id", "product_description", "receipt", "refund_policy", "refund_policy_disclosure", "refund_refusal_explanation", "service_date",
    "service_documentation", "shipping_address", "shipping_carrier", "shipping_date", "shipping_documentation", "shipping_tracking_number",
    "uncategorized_file", "uncategorized_text",
  ];
  return { ...Object.fromEntries(fields.map((f) => [f, null])), enhanced_evidence: {} };
}

/** automatic_payment_methods as Stripe keeps it: on unless turned off (allowed_payment_method_types narrows it). */
function automaticPaymentMethods(p: Obj): Obj {
  const given = (p.automatic_payment_methods ?? {}) as Obj;
  if (typeof given !== "object") throw invalid("Invalid hash", { param: "automatic_payment_methods" });
  const allow = given.allow_redirects;
  if (allow !== undefined && allow !== "always" && allow !== "never") throw invalid(`Invalid automatic_payment_methods[allow_redirects]: must be one of always or never`, { param: "automatic_payment_methods[allow_redirects]" });
  return { ...(allow ? { allow_redirects: allow } : {}), enabled: given.enabled === undefined ? true : bool(given.enabled) };
}

/** Stripe's card_error fields for a test card that declines, or null when it approves. */
function declineOf(behaviour: CardBehaviour): { code: string; decline_code?: string; message: string } | null {
  switch (behaviour) {
    case "generic_decline":
    case "charge_customer_fail":
      return { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
    case "insufficient_funds":
      return { code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." };
    case "expired_card":
      return { code: "expired_card", message: "Your card has expired." };
    case "authentication_required":
      return { code: "authentication_required", decline_code: "authentication_required", message: "Your card was declined. This transaction requires authentication." };
    default:
      return null;
  }
}

export function startFakeStripe(opts: FakeStripeOptions): Promise<FakeStripe> {
  return FakeStripe.start(opts);
}
