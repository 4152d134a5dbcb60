/*
 * A local fake of the Mercado Pago API, for the Mercado Pago adapter's tests (no test reaches the internet).
 * Started by the tests on 127.0.0.1:0; the adapter's `apiBaseUrl` points the official `mercadopago` client here.
 *
 * Covers only what the adapter uses, in Mercado Pago's documented shapes (API reference,
 * mercadopago.com.br/developers/en/reference):
 *   - JSON requests and answers; amounts are decimal reais (`transaction_amount: 49.9`);
 *   - auth: `Authorization: Bearer <access token>` (APP_USR-… / TEST-…); any other token is 401
 *     `{message: "invalid_token", error: "unauthorized", status: 401, cause: []}`;
 *   - errors as `{message, error, status, cause: [{code, description, data}]}` (the reference's error tables);
 *   - X-Idempotency-Key: mandatory on POST /v1/payments and POST /v1/payments/{id}/refunds (400, cause 4292
 *     "Header X-Idempotency-Key can't be null", as the refunds reference lists); the first answer under a key is
 *     replayed for any later request with it (other keyed POSTs too);
 *   - GET /users/me; customers (create, search by email, get, update) with "the customer already exist" (cause
 *     101) for a taken e-mail; cards (POST /v1/customers/{id}/cards with a card token, list);
 *   - card tokens: from the browser (`?public_key=`, card number, CVV, expiry, holder: MercadoPago.js, served as
 *     a stand-in at /js/v2) or from a saved card (`card_id`, with or without `security_code`); get by id. Single
 *     use: a token that paid or saved a card pays no more (400 "Invalid card_token_id", cause 3003, Mercado Pago's
 *     support article); a token that paid may still save its card once (the recurring-charges guide's order);
 *   - payment methods (GET /v1/payment_methods): the test brands with BIN patterns, and Pix;
 *   - payments: card (token, payment_method_id, payer {type: customer, id}, binary_mode) decided by the test
 *     cardholder name (test-cards.ts); a token made from a saved card WITHOUT security_code is refused 400
 *     "security_code_id can't be null" (cause 3031) unless the account has Automatic Payments (card on file
 *     without CVV), which most accounts lack and the fake's default lacks too (`automaticPayments: true` grants
 *     it); point_of_interaction SUBSCRIPTIONS checked as Automatic payments messaging documents it (a later
 *     payment of a sequence names its subscription, cycle, period, payer presence and first payment); Pix
 *     (payment_method_id pix, payer.email, date_of_expiration 30 min to 30 days ahead, 24 h by default) with
 *     point_of_interaction.transaction_data {qr_code, qr_code_base64, ticket_url}; get; search by external_reference;
 *   - refunds: POST /v1/payments/{id}/refunds with `amount` (partial) or without (total), several partial refunds
 *     adding up to the payment; payment status `refunded` once all is returned; list; a refund may stay
 *     `in_process` (`refundsInProcess`) until `settleRefund` (only approved ones count as refunded);
 *   - chargebacks: chargeback(id) turns an approved payment charged_back (status_detail reimbursed);
 *   - notices: each payment creation/update POSTed to `webhookUrl?data.id=<id>&type=payment` (Webhooks, with
 *     `x-signature: ts=…,v1=…` and `x-request-id`, signing.ts), or built on demand by `signedNotice`;
 *   - counters: approved payments per X-Idempotency-Key and in total; every request's key;
 *   - faults for the next matching request: "500" (nothing done), "500_after" (done, then a 500; the key keeps
 *     the real answer), "hang" (done, answer held past the client's timeout).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import { brCode } from "../../../core/gateways/pix-br-code.ts";
import { signatureHeader } from "./signing.ts";
import { HOLDER_BEHAVIOURS, STATUS_DETAIL, TEST_NUMBERS, type CardBehaviour } from "./test-cards.ts";
import { cardFrameHtml, standInScript } from "./mercadopago-js-stand-in.ts";

type Obj = Record<string, any>;

export interface FakeMercadoPagoOptions {
  /** The only access token the fake accepts. */
  accessToken: string;
  /** The public key MercadoPago.js (the stand-in) tokenizes with. */
  publicKey?: string;
  /** The application's webhook secret that signs notices. */
  webhookSecret?: string;
  /** Where notices are POSTed as they happen; absent: recorded only. */
  webhookUrl?: string;
  /** How long a "hang" fault holds its answer (ms). */
  hangMs?: number;
  /** Card on file without CVV (Automatic Payments, a capability most accounts lack). Default false. */
  automaticPayments?: boolean;
}

export type FaultKind = "500" | "500_after" | "hang";

interface Fault {
  kind: FaultKind;
  method?: string;
  path?: RegExp;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
  body: Obj;
  query: Obj;
}

/** A notice Mercado Pago would send (payment created or updated); POSTed when `webhookUrl` is set. */
export interface Notice {
  dataId: string;
  action: string;
}

class FakeError extends Error {
  constructor(readonly status: number, readonly body: Obj) {
    super(String(body.message));
  }
}

const error = (status: number, message: string, cause: { code: number | string; description: string }[] = [], kind = status === 404 ? "not_found" : "bad_request") =>
  new FakeError(status, { message, error: kind, status, cause: cause.map((c) => ({ ...c, data: null })) });

/** Minimum card payment in BRL the fake enforces (the adapter's capability). */
const MIN_CARD_CENTS = 100;
const PIX_MIN_MS = 30 * 60_000;
const PIX_MAX_MS = 30 * 86_400_000;
const PIX_DEFAULT_MS = 86_400_000;

const hex = (n: number) => randomBytes(n).toString("hex");
const digits = (n: number) => [...randomBytes(n)].map((b) => String(b % 10)).join("").replace(/^0/, "1");
const copy = <T>(o: T): T => structuredClone(o);
const toCents = (reais: unknown) => Math.round(Number(reais) * 100);
const reais = (cents: number) => Number(`${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`);
/** Mercado Pago's date format: ISO 8601 with milliseconds and an offset (-03:00 or -04:00). */
const mpDate = (d: Date) => new Date(d.getTime() - 4 * 3600_000).toISOString().replace("Z", "-04:00");

export class FakeMercadoPago {
  readonly customers = new Map<string, Obj>();
  readonly cards = new Map<string, Obj>();
  readonly cardTokens = new Map<string, Obj>();
  readonly payments = new Map<string, Obj>();
  readonly requests: RecordedRequest[] = [];
  readonly notices: Notice[] = [];
  readonly deliveries: { dataId: string; status: number | "error" }[] = [];
  /** Approved payments, by the X-Idempotency-Key of the request that made them. */
  readonly chargesByKey = new Map<string, number>();
  /** How many times the MercadoPago.js stand-in (/js/v2) was served. */
  scriptLoads = 0;
  automaticPayments: boolean;
  /** The next N customer searches find nothing (as if another checkout had not made the customer yet). */
  customerSearchMisses = 0;
  /** The next N refunds stay in_process (a Pix refund waiting on the central bank) until settleRefund. */
  refundsInProcess = 0;

  private readonly saved = new Map<string, { status: number; body: string; pending: boolean }>();
  /** What each saved card (by card id) and each browser token does. */
  private readonly behaviours = new Map<string, CardBehaviour>();
  /** The full test number behind each token and card (the fake's own ledger; never answered). */
  private readonly numbers = new Map<string, string>();
  private readonly keyOfPayment = new Map<string, string>();
  private readonly faults: Fault[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly userId = Number(digits(9));
  private server!: http.Server;

  private constructor(private readonly opts: FakeMercadoPagoOptions) {
    this.automaticPayments = opts.automaticPayments ?? false;
  }

  static async start(opts: FakeMercadoPagoOptions): Promise<FakeMercadoPago> {
    const fake = new FakeMercadoPago(opts);
    const app = fake.app();
    await new Promise<void>((resolve) => {
      fake.server = app.listen(0, "127.0.0.1", () => resolve());
    });
    return fake;
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

  /** Payments whose external_reference is our key, oldest first. */
  paymentsFor(externalReference: string): Obj[] {
    return [...this.payments.values()].filter((p) => p.external_reference === externalReference).map(copy);
  }

  failNext(kind: FaultKind, match: { method?: string; path?: RegExp } = {}): void {
    this.faults.push({ kind, ...match });
  }

  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.settled();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // --- test controls: the payer's side and Mercado Pago's own later moves ---

  /** A browser card token, as MercadoPago.js makes one (the test cardholder name decides the outcome). */
  browserToken(opts: { number?: string; holder?: string; cvc?: string; expMonth?: number; expYear?: number } = {}): string {
    return this.createBrowserToken({
      card_number: opts.number ?? "5031433215406351",
      security_code: opts.cvc ?? "123",
      expiration_month: opts.expMonth ?? 11,
      expiration_year: opts.expYear ?? new Date().getUTCFullYear() + 3,
      cardholder: { name: opts.holder ?? "APRO", identification: { type: "CPF", number: "12345678909" } },
    }).id;
  }

  /** What a saved card does from now on (by card id, or every card of a customer id). */
  setCardBehaviour(cardOrCustomer: string, behaviour: CardBehaviour): void {
    const ids = this.cards.has(cardOrCustomer) ? [cardOrCustomer] : [...this.cards.values()].filter((c) => c.customer_id === cardOrCustomer).map((c) => c.id as string);
    if (!ids.length) throw new Error(`fake mercadopago: no saved card for ${cardOrCustomer}`);
    for (const id of ids) this.behaviours.set(id, behaviour);
  }

  /** The payer's bank pays a Pix (by payment id or its copy-and-paste code). */
  payPix(idOrCode: string): Obj {
    const p = this.payments.get(idOrCode) ?? [...this.payments.values()].find((x) => x.point_of_interaction?.transaction_data?.qr_code === idOrCode);
    if (!p || p.payment_method_id !== "pix" || p.status !== "pending") throw new Error(`fake mercadopago: no payable Pix for ${idOrCode}`);
    if (Date.parse(p.date_of_expiration) <= Date.now()) throw new Error("fake mercadopago: that Pix has expired");
    this.approve(p);
    this.notify(p, "payment.updated");
    return copy(p);
  }

  /** The payer's bank disputes an approved payment: Mercado Pago marks it charged_back and notifies. */
  chargeback(id: string): Obj {
    const p = this.payment(id);
    if (p.status !== "approved") throw new Error(`fake mercadopago: payment ${id} is not approved`);
    [p.status, p.status_detail] = ["charged_back", "reimbursed"];
    p.date_last_updated = mpDate(new Date());
    this.notify(p, "payment.updated");
    return copy(p);
  }

  /** An in_process refund is decided (approved: its amount returned, the payment refunded once all is); notifies. */
  settleRefund(refundId: string | number, status: "approved" | "rejected" = "approved"): Obj {
    const p = [...this.payments.values()].find((x) => x.refunds.some((r: Obj) => String(r.id) === String(refundId)));
    const refund = p?.refunds.find((r: Obj) => String(r.id) === String(refundId));
    if (!p || refund?.status !== "in_process") throw new Error(`fake mercadopago: no in_process refund ${refundId}`);
    refund.status = status;
    if (status === "approved") this.creditRefund(p, toCents(refund.amount));
    p.date_last_updated = mpDate(new Date());
    this.notify(p, "payment.updated");
    return copy(refund);
  }

  /** The body and headers Mercado Pago would POST about a payment (signed now, or at `ts`). */
  signedNotice(paymentId: string | number, opts: { ts?: number; secret?: string; action?: string; requestId?: string } = {}) {
    const dataId = String(paymentId);
    const requestId = opts.requestId ?? randomUUID();
    const secret = opts.secret ?? this.opts.webhookSecret;
    if (!secret) throw new Error("fake mercadopago: no webhookSecret configured");
    const body = {
      action: opts.action ?? "payment.updated",
      api_version: "v1",
      data: { id: dataId },
      date_created: mpDate(new Date()),
      id: Number(digits(11)),
      live_mode: false,
      type: "payment",
      user_id: String(this.userId),
    };
    return {
      query: `data.id=${encodeURIComponent(dataId)}&type=payment`,
      rawBody: JSON.stringify(body),
      requestId,
      headers: {
        "content-type": "application/json",
        "user-agent": "MercadoPago WebHook v1.0 payment",
        "x-request-id": requestId,
        "x-signature": signatureHeader(dataId, requestId, secret, opts.ts ?? Math.floor(Date.now() / 1000)),
      } as Record<string, string>,
    };
  }

  /** POSTs a notice about a payment to `url` (default: webhookUrl); resolves to the answer's status. */
  async deliver(paymentId: string | number, url = this.opts.webhookUrl, opts: { action?: string } = {}): Promise<number | "error"> {
    if (!url) throw new Error("fake mercadopago: no webhookUrl");
    const n = this.signedNotice(paymentId, opts);
    let status: number | "error";
    try {
      status = (await fetch(`${url}${url.includes("?") ? "&" : "?"}${n.query}`, { method: "POST", headers: n.headers, body: n.rawBody, signal: AbortSignal.timeout(10_000) })).status;
    } catch {
      status = "error";
    }
    this.deliveries.push({ dataId: String(paymentId), status });
    return status;
  }

  // --- internals ---

  private notify(p: Obj, action: string): void {
    this.notices.push({ dataId: String(p.id), action });
    if (this.opts.webhookUrl && this.opts.webhookSecret) {
      const d = this.deliver(p.id, this.opts.webhookUrl, { action }).finally(() => this.inFlight.delete(d));
      this.inFlight.add(d);
    }
  }

  private app(): express.Express {
    const app = express();
    // The stand-in for MercadoPago.js and its secure field frame (mercadopago-js-stand-in.ts); public like sdk.mercadopago.com.
    app.get(["/js/v2", "/js/v2/"], (_req, res) => {
      this.scriptLoads++;
      res.type("application/javascript").set("Cache-Control", "no-store").send(standInScript());
    });
    app.get("/js/v2/field.html", (_req, res) => void res.type("html").send(cardFrameHtml()));
    // MercadoPago.js posts the card to /v1/card_tokens?public_key= from its own frame (a cross-origin fetch).
    app.options("/v1/card_tokens", (_req, res) => void res.set({ "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "content-type", "Access-Control-Allow-Methods": "POST" }).sendStatus(204));
    app.use(express.json({ type: () => true }));

    type Handler = (body: Obj, req: Request) => { status?: number; body: Obj };
    const on = (method: "get" | "post" | "put", path: string, handler: Handler, opts: { keyRequired?: boolean; publicOk?: boolean } = {}) =>
      app[method](path, (req: Request, res: Response) => void this.run(req, res, handler, opts));

    on("get", "/users/me", () => ({ body: { id: this.userId, nickname: "TESTFAKE", email: "seller@fake-mercadopago.example", site_id: "MLB", country_id: "BR", status: { site_status: "active" } } }));
    on("post", "/v1/customers", (b) => ({ status: 201, body: this.createCustomer(b) }));
    on("get", "/v1/customers/search", (_b, req) => {
      const miss = this.customerSearchMisses > 0 && this.customerSearchMisses-- > 0;
      return { body: this.page(miss ? [] : [...this.customers.values()].filter((c) => !req.query.email || c.email === String(req.query.email).toLowerCase()), req.query) };
    });
    on("get", "/v1/customers/:id", (_b, req) => ({ body: copy(this.customer(String(req.params.id))) }));
    on("put", "/v1/customers/:id", (b, req) => ({ body: this.updateCustomer(String(req.params.id), b) }));
    on("post", "/v1/customers/:id/cards", (b, req) => ({ status: 201, body: this.saveCard(String(req.params.id), b) }));
    on("get", "/v1/customers/:id/cards", (_b, req) => ({ body: [...this.cards.values()].filter((c) => c.customer_id === this.customer(String(req.params.id)).id).map(copy) }));
    on("post", "/v1/card_tokens", (b, req) => ({ status: 201, body: req.query.public_key ? this.createBrowserToken(b) : this.createCardIdToken(b) }), { publicOk: true });
    on("get", "/v1/card_tokens/:id", (_b, req) => ({ body: publicToken(this.token(String(req.params.id))) }));
    on("get", "/v1/payment_methods", () => ({ body: PAYMENT_METHODS.map(copy) }));
    on("post", "/v1/payments", (b, req) => ({ status: 201, body: this.createPayment(b, req.get("X-Idempotency-Key")!) }), { keyRequired: true });
    on("get", "/v1/payments/search", (_b, req) => ({ body: this.searchPayments(req.query as Obj) }));
    on("get", "/v1/payments/:id", (_b, req) => ({ body: copy(this.payment(String(req.params.id))) }));
    on("post", "/v1/payments/:id/refunds", (b, req) => ({ status: 201, body: this.refund(String(req.params.id), b) }), { keyRequired: true });
    on("get", "/v1/payments/:id/refunds", (_b, req) => ({ body: copy(this.payment(String(req.params.id)).refunds) }));
    // Test-only stand-in for the payer's bank (not a Mercado Pago endpoint).
    app.post("/_test/pix/:id/pay", (req, res) => void res.json(this.payPix(String(req.params.id))));
    app.use((req, res) => void res.status(404).json({ message: `resource not found: ${req.method} ${req.path}`, error: "not_found", status: 404, cause: [] }));
    return app;
  }

  private async run(req: Request, res: Response, handler: (body: Obj, req: Request) => { status?: number; body: Obj }, opts: { keyRequired?: boolean; publicOk?: boolean }): Promise<void> {
    const key = req.method === "POST" || req.method === "PUT" ? (req.get("X-Idempotency-Key") ?? null) : null;
    const record: RecordedRequest = { method: req.method, path: req.path, idempotencyKey: key, status: 0, replayed: false, body: copy((req.body as Obj) ?? {}), query: copy(req.query as Obj) };
    this.requests.push(record);
    const send = (status: number, body: string) => {
      record.status = status;
      res.status(status).set({ "x-request-id": randomUUID(), "Access-Control-Allow-Origin": "*" }).type("application/json").send(body);
    };
    const isPublic = opts.publicOk && typeof req.query.public_key === "string";
    if (isPublic ? req.query.public_key !== this.opts.publicKey : req.get("Authorization") !== `Bearer ${this.opts.accessToken}`) {
      return send(401, JSON.stringify({ message: isPublic ? "invalid public_key" : "invalid_token", error: "unauthorized", status: 401, cause: [] }));
    }
    if (opts.keyRequired && !key) {
      return send(400, JSON.stringify(error(400, "Header X-Idempotency-Key can't be null", [{ code: 4292, description: "Header X-Idempotency-Key can't be null" }]).body));
    }
    const fault = this.takeFault(req);
    const serverError = JSON.stringify({ message: "internal_error", error: "internal_server_error", status: 500, cause: [] });
    if (fault?.kind === "500") return send(500, serverError);
    const scope = key ? `${req.method} ${req.path}\n${key}` : null;
    if (scope) {
      const prior = this.saved.get(scope);
      if (prior?.pending) return send(409, JSON.stringify(error(409, "request with this idempotency key is being processed", [], "conflict").body));
      if (prior) {
        record.replayed = true;
        return send(prior.status, prior.body);
      }
      this.saved.set(scope, { pending: true, status: 0, body: "" });
    }
    let status: number;
    let body: string;
    try {
      const out = handler((req.body as Obj) ?? {}, req);
      status = out.status ?? 200;
      body = JSON.stringify(out.body);
    } catch (err) {
      if (!(err instanceof FakeError)) throw err;
      status = err.status;
      body = JSON.stringify(err.body);
    }
    if (scope) this.saved.set(scope, { pending: false, status, body });
    if (fault?.kind === "500_after") [status, body] = [500, serverError];
    if (fault?.kind === "hang") {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => (this.timers.delete(t), resolve()), this.opts.hangMs ?? 3_000);
        this.timers.add(t);
      });
      if (res.destroyed || res.writableEnded) return;
    }
    send(status, body);
  }

  private takeFault(req: Request): Fault | undefined {
    const i = this.faults.findIndex((f) => (!f.method || f.method === req.method) && (!f.path || f.path.test(req.path)));
    return i < 0 ? undefined : this.faults.splice(i, 1)[0];
  }

  private page(all: Obj[], q: Obj) {
    const limit = Math.min(Number(q.limit ?? 10) || 10, 1000);
    const offset = Number(q.offset ?? 0) || 0;
    return { paging: { limit, offset, total: all.length }, results: copy(all.slice(offset, offset + limit)) };
  }

  // --- customers and cards ---

  private customer(id: string): Obj {
    return this.customers.get(id) ?? (() => { throw error(404, "Customer not found", [{ code: 2002, description: "Customer not found" }]); })();
  }

  private createCustomer(b: Obj): Obj {
    const email = String(b.email ?? "").toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw error(400, "invalid email", [{ code: 100, description: "the email is invalid" }]);
    if ([...this.customers.values()].some((c) => c.email === email)) throw error(400, "the customer already exist", [{ code: 101, description: "the customer already exist" }]);
    const customer = {
      id: `${digits(10)}-${randomBytes(8).toString("base64url").replace(/[-_]/g, "x")}`,
      email,
      first_name: b.first_name ?? null,
      last_name: b.last_name ?? null,
      phone: b.phone ?? { area_code: null, number: null },
      identification: b.identification ?? { type: null, number: null },
      description: b.description ?? null,
      metadata: b.metadata ?? {},
      date_created: mpDate(new Date()),
      date_last_updated: mpDate(new Date()),
      default_card: null as string | null,
      cards: [] as Obj[],
      live_mode: false,
    };
    this.customers.set(customer.id, customer);
    return copy(customer);
  }

  private updateCustomer(id: string, b: Obj): Obj {
    const c = this.customer(id);
    for (const f of ["email", "first_name", "last_name", "phone", "description", "metadata"]) if (f in b) c[f] = f === "email" ? String(b.email).toLowerCase() : b[f];
    c.date_last_updated = mpDate(new Date());
    return copy(c);
  }

  private token(id: unknown): Obj {
    const t = typeof id === "string" ? this.cardTokens.get(id) : undefined;
    if (!t) throw error(400, "Card Token not found", [{ code: 2006, description: "Card Token not found" }]);
    if (Date.parse(t.date_due) < Date.now()) throw error(400, "Invalid card token", [{ code: 2062, description: "Invalid card token" }]);
    return t;
  }

  private saveCard(customerId: string, b: Obj): Obj {
    const customer = this.customer(customerId);
    const t = this.token(b.token);
    if (t.card_id || t.saved_card) throw error(400, "Invalid card_token_id", [{ code: 3003, description: "Invalid card_token_id" }]);
    // The recurring-charges guide saves the card with the token of the approved first payment: a token that
    // paid may still save its card, once; a token that saved a card is used up.
    t.saved_card = true;
    t.status = "used";
    const number = this.numbers.get(t.id)!;
    // The same card saved again is the same card.
    const existing = [...this.cards.values()].find((c) => c.customer_id === customer.id && this.numbers.get(c.id) === number);
    if (existing) return copy(existing);
    const brand = TEST_NUMBERS[number]!;
    const card = {
      id: digits(13),
      customer_id: customer.id,
      expiration_month: t.expiration_month,
      expiration_year: t.expiration_year,
      first_six_digits: t.first_six_digits,
      last_four_digits: t.last_four_digits,
      payment_method: { id: brand.paymentMethodId, name: brand.issuer, payment_type_id: "credit_card", thumbnail: "", secure_thumbnail: "" },
      security_code: { length: number.length === 15 ? 4 : 3, card_location: number.length === 15 ? "front" : "back" },
      issuer: { id: 24, name: brand.issuer },
      cardholder: copy(t.cardholder),
      date_created: mpDate(new Date()),
      date_last_updated: mpDate(new Date()),
      user_id: String(this.userId),
      live_mode: false,
    };
    this.cards.set(card.id, card);
    this.numbers.set(card.id, number);
    this.behaviours.set(card.id, this.behaviours.get(t.id) ?? "approve");
    customer.cards.push(copy(card));
    customer.default_card ??= card.id;
    return copy(card);
  }

  private newToken(fields: Obj, number: string, behaviour: CardBehaviour): Obj {
    const t = {
      id: hex(16),
      first_six_digits: number.slice(0, 6),
      last_four_digits: number.slice(-4),
      card_number_length: number.length,
      security_code_length: number.length === 15 ? 4 : 3,
      luhn_validation: true,
      live_mode: false,
      require_esc: false,
      status: "active",
      date_created: mpDate(new Date()),
      date_last_updated: mpDate(new Date()),
      date_due: mpDate(new Date(Date.now() + 7 * 86_400_000)),
      used: false,
      ...fields,
    };
    this.cardTokens.set(t.id, t);
    this.numbers.set(t.id, number);
    this.behaviours.set(t.id, behaviour);
    return t;
  }

  /** MercadoPago.js' tokenization: the card typed in its fields, with the public key. */
  private createBrowserToken(b: Obj): Obj {
    const number = String(b.card_number ?? "").replace(/\D/g, "");
    if (!TEST_NUMBERS[number]) throw error(400, "invalid parameters", [{ code: "E301", description: "invalid card_number" }]);
    if (!/^\d{3,4}$/.test(String(b.security_code ?? ""))) throw error(400, "invalid parameters", [{ code: "E302", description: "invalid security_code" }]);
    const month = Number(b.expiration_month);
    const year = Number(b.expiration_year);
    if (!(month >= 1 && month <= 12) || !(year >= 2000)) throw error(400, "invalid parameters", [{ code: "325", description: "invalid expiration_month" }]);
    const holder = String(b.cardholder?.name ?? "").trim().toUpperCase();
    const t = this.newToken({ expiration_month: month, expiration_year: year, cardholder: { name: holder, identification: b.cardholder?.identification ?? {} }, security_code_given: true }, number, HOLDER_BEHAVIOURS[holder] ?? "approve");
    return publicToken(t);
  }

  /** A token for a saved card (server side, with the access token): with or without its CVV. */
  private createCardIdToken(b: Obj): Obj {
    const card = typeof b.card_id === "string" || typeof b.card_id === "number" ? this.cards.get(String(b.card_id)) : undefined;
    if (!card) throw error(404, "card not found", [{ code: 2000, description: "card not found" }]);
    if (b.customer_id !== undefined && b.customer_id !== card.customer_id) throw error(400, "invalid parameters", [{ code: 2000, description: "card does not belong to customer" }]);
    const t = this.newToken(
      { card_id: card.id, expiration_month: card.expiration_month, expiration_year: card.expiration_year, cardholder: copy(card.cardholder), security_code_given: typeof b.security_code === "string" && b.security_code.length > 0 },
      this.numbers.get(card.id)!,
      this.behaviours.get(card.id) ?? "approve",
    );
    return publicToken(t);
  }

  // --- payments ---

  private payment(id: string): Obj {
    return this.payments.get(id) ?? (() => { throw error(404, "Payment not found", [{ code: 2000, description: "Payment not found" }]); })();
  }

  private createPayment(b: Obj, key: string): Obj {
    const amount = toCents(b.transaction_amount);
    if (typeof b.transaction_amount !== "number" || !(amount > 0)) throw error(400, "Invalid transaction_amount", [{ code: 4037, description: "Invalid transaction_amount" }]);
    if (!b.payment_method_id) throw error(400, "payment_method_id attribute can't be null", [{ code: 4020, description: "payment_method_id attribute can't be null" }]);
    const base = {
      id: Number(digits(11)),
      date_created: mpDate(new Date()),
      date_approved: null as string | null,
      date_last_updated: mpDate(new Date()),
      date_of_expiration: null as string | null,
      money_release_date: null,
      operation_type: "regular_payment",
      payment_method_id: b.payment_method_id,
      payment_type_id: b.payment_method_id === "pix" ? "bank_transfer" : "credit_card",
      status: "pending",
      status_detail: "pending_waiting_transfer",
      currency_id: "BRL",
      description: b.description ?? null,
      live_mode: false,
      collector_id: this.userId,
      payer: { ...(b.payer ?? {}), email: b.payer?.email ?? null },
      metadata: b.metadata ?? {},
      external_reference: b.external_reference ?? null,
      transaction_amount: reais(amount),
      transaction_amount_refunded: 0,
      installments: b.installments ?? 1,
      binary_mode: b.binary_mode === true,
      captured: true,
      card: {} as Obj,
      refunds: [] as Obj[],
      point_of_interaction: (b.point_of_interaction ?? {}) as Obj,
    };
    if (b.payment_method_id === "pix") return this.createPix(base, b, key);
    if (amount < MIN_CARD_CENTS) throw error(400, "Invalid transaction_amount", [{ code: 4037, description: "Invalid transaction_amount" }]);
    const t = this.token(b.token);
    // Single use: a token that paid, or saved a card, pays no more (support article "Invalid card_token_id").
    if (t.used || t.saved_card) throw error(400, "Invalid card_token_id", [{ code: 3003, description: "Invalid card_token_id" }]);
    const number = this.numbers.get(t.id)!;
    if (TEST_NUMBERS[number]!.paymentMethodId !== b.payment_method_id) throw error(400, "Invalid payment_method_id", [{ code: 4033, description: "Invalid payment_method_id" }]);
    if (t.card_id) {
      const card = this.cards.get(t.card_id)!;
      if (b.payer?.type !== "customer" || b.payer?.id !== card.customer_id) throw error(400, "Invalid users involved", [{ code: 2034, description: "Invalid users involved" }]);
      // A saved card paid without its CVV needs Automatic Payments (card on file) on the account.
      if (!t.security_code_given && !this.automaticPayments) throw error(400, "security_code_id can't be null", [{ code: 3031, description: "security_code_id can't be null" }]);
    }
    this.checkSubscriptionMessaging(b.point_of_interaction);
    t.used = true;
    t.status = "used";
    const p: Obj = {
      ...base,
      card: { id: t.card_id ?? null, first_six_digits: t.first_six_digits, last_four_digits: t.last_four_digits, expiration_month: t.expiration_month, expiration_year: t.expiration_year, cardholder: copy(t.cardholder) },
    };
    this.payments.set(String(p.id), p);
    this.keyOfPayment.set(String(p.id), key);
    const behaviour = this.behaviours.get(t.id) ?? "approve";
    if (behaviour === "approve") this.approve(p);
    else if (behaviour === "pending" && !p.binary_mode) [p.status, p.status_detail] = ["in_process", "pending_contingency"];
    else [p.status, p.status_detail] = ["rejected", behaviour === "pending" ? "cc_rejected_other_reason" : STATUS_DETAIL[behaviour as keyof typeof STATUS_DETAIL]];
    this.notify(p, "payment.created");
    return copy(p);
  }

  /**
   * Automatic payments messaging (subscription-messaging page): with type SUBSCRIPTIONS, a first payment names
   * first_time_use true, subscription_id, subscription_sequence, invoice_period and billing_date; a later one the
   * same with first_time_use false, user_present and payment_reference.id (the sequence's first payment). Mercado
   * Pago documents no error for a missing field: the fake's 400 and its cause code are its own, so a test sees it.
   */
  private checkSubscriptionMessaging(poi: Obj | undefined): void {
    if (poi?.type !== "SUBSCRIPTIONS") return;
    const td = (poi.transaction_data ?? {}) as Obj;
    const bad = (field: string) => error(400, `invalid point_of_interaction.transaction_data.${field}`, [{ code: "fake_subscription_messaging", description: `invalid ${field}` }]);
    if (typeof td.first_time_use !== "boolean") throw bad("first_time_use");
    if (typeof td.billing_date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(td.billing_date)) throw bad("billing_date");
    if (td.user_present !== undefined && typeof td.user_present !== "boolean") throw bad("user_present");
    const seq = td.subscription_sequence;
    if (seq !== undefined && (!Number.isInteger(seq?.number) || seq.number < 1 || (seq.total != null && !(Number.isInteger(seq.total) && seq.total >= seq.number)))) throw bad("subscription_sequence");
    const period = td.invoice_period;
    if (period !== undefined && (!Number.isInteger(period?.period) || period.period < 1 || !["daily", "weekly", "monthly", "yearly"].includes(period.type))) throw bad("invoice_period");
    if (td.first_time_use) return;
    // A later payment of a sequence: all of it, and the first payment it refers to.
    if (typeof td.subscription_id !== "string" || !td.subscription_id) throw bad("subscription_id");
    if (seq === undefined) throw bad("subscription_sequence");
    if (period === undefined) throw bad("invoice_period");
    if (typeof td.user_present !== "boolean") throw bad("user_present");
    if (typeof td.payment_reference?.id !== "string" || !this.payments.has(td.payment_reference.id)) throw bad("payment_reference");
  }

  private createPix(base: Obj, b: Obj, key: string): Obj {
    if (typeof b.payer?.email !== "string" || !/^[^@\s]+@[^@\s]+$/.test(b.payer.email)) throw error(400, "payer.email must be a valid email", [{ code: 4050, description: "payer.email must be a valid email" }]);
    let expires = Date.now() + PIX_DEFAULT_MS;
    if (b.date_of_expiration !== undefined) {
      expires = Date.parse(String(b.date_of_expiration));
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}$/.test(String(b.date_of_expiration)) || Number.isNaN(expires)) {
        throw error(400, "The following parameters must be valid date and format (yyyy-MM-dd'T'HH:mm:ssz) date_of_expiration", [{ code: 23, description: "date_of_expiration" }]);
      }
      if (expires - Date.now() < PIX_MIN_MS - 5_000 || expires - Date.now() > PIX_MAX_MS) {
        throw error(400, "date_of_expiration must be between 30 minutes and 30 days", [{ code: 4376, description: "invalid date_of_expiration" }]);
      }
    }
    const p: Obj = { ...base, date_of_expiration: mpDate(new Date(expires)) };
    const qr = brCode({ pixKey: "pix@fake-mercadopago.example", amountCents: toCents(p.transaction_amount), merchantName: "FAKE MERCADO PAGO", merchantCity: "OSASCO", txid: String(p.id) });
    p.point_of_interaction = {
      type: "OPENPLATFORM",
      transaction_data: { qr_code: qr, qr_code_base64: Buffer.from(qr).toString("base64"), ticket_url: `https://www.mercadopago.com.br/payments/${p.id}/ticket?caller_id=${this.userId}` },
    };
    this.payments.set(String(p.id), p);
    this.keyOfPayment.set(String(p.id), key);
    this.notify(p, "payment.created");
    return copy(p);
  }

  private approve(p: Obj): void {
    p.status = "approved";
    p.status_detail = "accredited";
    p.date_approved = mpDate(new Date());
    p.date_last_updated = p.date_approved;
    const key = this.keyOfPayment.get(String(p.id)) ?? `(no key) ${p.id}`;
    this.chargesByKey.set(key, (this.chargesByKey.get(key) ?? 0) + 1);
  }

  private searchPayments(q: Obj): Obj {
    let all = [...this.payments.values()].filter((p) => (q.external_reference === undefined || p.external_reference === q.external_reference) && (q.status === undefined || p.status === q.status));
    if (q.criteria === "desc") all = all.reverse();
    return this.page(all, q);
  }

  private refund(paymentId: string, b: Obj): Obj {
    const p = this.payment(paymentId);
    if (p.status !== "approved") throw error(400, "The action requested is not valid for the current payment state", [{ code: 2063, description: "The action requested is not valid for the current payment state" }]);
    const paid = toCents(p.transaction_amount);
    const waiting = p.refunds.filter((r: Obj) => r.status === "in_process").reduce((sum: number, r: Obj) => sum + toCents(r.amount), 0);
    const left = paid - toCents(p.transaction_amount_refunded) - waiting;
    const amount = b.amount === undefined ? left : toCents(b.amount);
    if (b.amount !== undefined && (typeof b.amount !== "number" || !(amount > 0))) throw error(400, "amount attribute must be positive", [{ code: 4040, description: "amount attribute must be positive" }]);
    if (amount > left) throw error(400, "Invalid refund amount", [{ code: 4040, description: "amount is greater than the refundable amount" }]);
    const refund = {
      id: Number(digits(10)),
      payment_id: p.id,
      amount: reais(amount),
      metadata: b.metadata ?? {},
      source: { id: String(this.userId), name: "Fake Seller", type: "collector" },
      date_created: mpDate(new Date()),
      unique_sequence_number: null,
      refund_mode: "standard",
      adjustment_amount: 0,
      status: this.refundsInProcess > 0 && this.refundsInProcess-- > 0 ? "in_process" : "approved",
      reason: null,
    };
    p.refunds.push(refund);
    if (refund.status === "approved") this.creditRefund(p, amount);
    p.date_last_updated = mpDate(new Date());
    this.notify(p, "payment.updated");
    return copy(refund);
  }

  /** An approved refund's amount returned: the payment is refunded once all of it is. */
  private creditRefund(p: Obj, amount: number): void {
    p.transaction_amount_refunded = reais(toCents(p.transaction_amount_refunded) + amount);
    if (toCents(p.transaction_amount_refunded) === toCents(p.transaction_amount)) [p.status, p.status_detail] = ["refunded", "refunded"];
    else p.status_detail = "partially_refunded";
  }
}

/**
 * GET /v1/payment_methods, the Brazilian card brands of the test numbers and Pix, in the reference's shape. The
 * BIN patterns are the fake's own, simplified (Elo's BINs are cut out of Mastercard's and Visa's ranges).
 */
const ELO_BINS = "^(401178|401179|431274|438935|451416|457393|457631|457632|504175|506699|5067|509|627780|636297|636368|650|6516|6550)";
const cardMethod = (id: string, name: string, pattern: string, exclusion: string, cvv: number) => ({
  id,
  name,
  payment_type_id: "credit_card",
  status: "active",
  secure_thumbnail: "",
  thumbnail: "",
  deferred_capture: "supported",
  settings: [{ bin: { pattern, exclusion_pattern: exclusion, installments_pattern: pattern }, card_number: { length: cvv === 4 ? 15 : 16, validation: "standard" }, security_code: { mode: "mandatory", length: cvv, card_location: cvv === 4 ? "front" : "back" } }],
  additional_info_needed: ["cardholder_name", "cardholder_identification_type", "cardholder_identification_number"],
  min_allowed_amount: 0.5,
  max_allowed_amount: 60000,
  accreditation_time: 2880,
  financial_institutions: [],
  processing_modes: ["aggregator"],
});
const PAYMENT_METHODS: Obj[] = [
  cardMethod("master", "Mastercard", "^(5|2(2[2-9]|[3-6]|7[01]|720))", ELO_BINS, 3),
  cardMethod("visa", "Visa", "^4", ELO_BINS, 3),
  cardMethod("amex", "American Express", "^(34|37)", "", 4),
  cardMethod("elo", "Elo", ELO_BINS, "", 3),
  { id: "pix", name: "PIX", payment_type_id: "bank_transfer", status: "active", secure_thumbnail: "", thumbnail: "", deferred_capture: "does_not_apply", settings: [], additional_info_needed: [], min_allowed_amount: 0.01, max_allowed_amount: 10000000, accreditation_time: 0, financial_institutions: [], processing_modes: ["aggregator"] },
];

/** A card token as Mercado Pago answers it (the fake's own bookkeeping fields left out). */
function publicToken(t: Obj): Obj {
  const { used: _u, security_code_given: _s, saved_card: _c, ...rest } = t;
  return copy(rest);
}

export function startFakeMercadoPago(opts: FakeMercadoPagoOptions): Promise<FakeMercadoPago> {
  return FakeMercadoPago.start(opts);
}
