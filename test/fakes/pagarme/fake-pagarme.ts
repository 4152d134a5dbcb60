/*
 * A local fake of the Pagar.me API v5 (https://api.pagar.me/core/v5), for the Pagar.me adapter's tests (no
 * test reaches the internet). Started by the tests on 127.0.0.1:0; an account's `apiBaseUrl` points the
 * official SDK here (the adapter swaps the origin, the /core/v5 path stays).
 *
 * Covers only what the adapter uses, in Pagar.me's documented shapes (docs.pagar.me/reference, and the
 * SDK's generated models, which define the wire names):
 *   - JSON requests and answers, snake_case; auth `Authorization: Basic base64(<secret key>:)` — only the
 *     configured key is accepted (401 `{message}` otherwise); POST /tokens?appId=<public key> takes the
 *     public key instead (what tokenizecard.js calls from the browser, CORS open);
 *   - errors as `{message, errors?: {"<field>": ["…"]}, request?}` with Pagar.me's statuses
 *     (docs.pagar.me/reference/erros-1; the SDK's CustomError): 400 bad request (a body that is not
 *     JSON), 401 bad key, 404 unknown resource, 412 business rule (`{message}`: e.g. Pix not enabled on
 *     the account, `pixEnabled: false`), 422 validation (`errors` by field path, and the `request` it
 *     read echoed back), 500 `{message}`;
 *   - Idempotency-Key (docs.pagar.me/reference/idempotência): the first answer of a key is saved once the
 *     endpoint ran (validation failures are not) and replayed for the same key; `chargesFor(key)` counts
 *     the charges paid under each key;
 *   - customers (create, list by code, update), cards (create from a token, get), tokens, orders (create
 *     closed with one credit_card or pix payment; get; list by code), charges (get; DELETE with amount =
 *     cancel / refund, partial or total, partials adding up, each a transaction whose metadata holds the
 *     operation_reference; GET /charges/{id}/transactions lists them all);
 *   - card outcomes by test number (docs.pagar.me/docs/simulador-de-cartão-de-crédito: 4000000000000010
 *     approved, 4000000000000028 declined) plus `setCardBehaviour` for a saved card that starts failing;
 *   - Pix: last_transaction {qr_code (a BR Code), qr_code_url, expires_at}; `payPix()`/`expirePix()` stand
 *     in for the payer's bank;
 *   - webhooks as Pagar.me sends them, unsigned: `{id: "hook_…", account, type, created_at, data}` with
 *     `data` the charge or order; every one is recorded, and POSTed to `webhookUrl` when given;
 *   - faults for the next matching request: "500" (nothing done), "500_after" (done and saved for replay,
 *     then a 500), "hang" (done, answer held past the client's timeout), "400" (Pagar.me's bad request).
 *   - the stand-in for tokenizecard.js at /v1/tokenizecard.js (tokenizecard-stand-in.ts).
 */
import { randomBytes } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Request, type Response } from "express";
import { brCode } from "../../../core/gateways/pix-br-code.ts";
import { tokenizeCardScript } from "./tokenizecard-stand-in.ts";

type Obj = Record<string, any>;

export interface FakePagarmeOptions {
  secretKey: string;
  publicKey?: string;
  /** Where notices are POSTed as they happen; absent: recorded only (deliver() sends one on demand). */
  webhookUrl?: string;
  hangMs?: number;
  /** false: the account has no Pix (a Pix order is refused 412, as a business rule). Default true. */
  pixEnabled?: boolean;
}

export type FaultKind = "500" | "500_after" | "hang" | "400";
export type CardBehaviour = "approve" | "decline" | "insufficient_funds" | "expired_card";

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
  replayed: boolean;
  body: Obj;
}

class FakeError extends Error {
  constructor(readonly status: number, readonly body: Obj, readonly saved = true) {
    super(String(body.message));
  }
}
const invalid = (errors: Record<string, string[]>) => new FakeError(422, { message: "The request is invalid.", errors }, false);
const notFound = (what: string) => new FakeError(404, { message: `${what} not found.` }, false);

/** Test numbers (Pagar.me's simulator) and what the fake adds for the other issuer answers. */
const TEST_CARDS: Record<string, { brand: string; behaviour: CardBehaviour }> = {
  "4000000000000010": { brand: "Visa", behaviour: "approve" },
  "5555555555554444": { brand: "Mastercard", behaviour: "approve" },
  "4000000000000028": { brand: "Visa", behaviour: "decline" },
  "4000000000000051": { brand: "Visa", behaviour: "insufficient_funds" },
  "4000000000000069": { brand: "Visa", behaviour: "expired_card" },
};
const RETURN_CODE: Record<CardBehaviour, [string, string]> = {
  approve: ["00", "Transação aprovada com sucesso"],
  decline: ["05", "Não autorizada"],
  insufficient_funds: ["51", "Saldo insuficiente"],
  expired_card: ["54", "Cartão vencido"],
};
/** The floor the fake applies to a charge (the adapter's capability is R$1.00). */
export const FAKE_MIN_CHARGE = 100;

function randomId(prefix: string, length = 16): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return `${prefix}_${[...randomBytes(length)].map((b) => alphabet[b % 62]).join("")}`;
}
const iso = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, "Z");
const copy = <T>(o: T): T => structuredClone(o);

export class FakePagarme {
  readonly customers = new Map<string, Obj>();
  readonly cards = new Map<string, Obj>();
  readonly tokens = new Map<string, Obj>();
  readonly orders = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly events: Obj[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly deliveries: { eventId: string; status: number | "error" }[] = [];
  /** Paid charges, by the Idempotency-Key of the request that made them. */
  readonly chargesByKey = new Map<string, number>();
  scriptLoads = 0;
  /** Whether the account takes Pix (see FakePagarmeOptions.pixEnabled); a test may switch it. */
  pixEnabled: boolean;

  private readonly saved = new Map<string, { status: number; body: string }>();
  private nextRefundStatus: string | null = null;
  private readonly behaviours = new Map<string, CardBehaviour>();
  private readonly keyOfCharge = new Map<string, string | null>();
  /** Every transaction of each charge, oldest first (GET /charges/{id}/transactions); `last_transaction` is the newest. */
  private readonly transactionsOf = new Map<string, Obj[]>();
  private readonly faults: { kind: FaultKind; method?: string; path?: RegExp }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private server!: http.Server;

  private constructor(private readonly opts: FakePagarmeOptions) {
    this.pixEnabled = opts.pixEnabled ?? true;
  }

  static async start(opts: FakePagarmeOptions): Promise<FakePagarme> {
    const fake = new FakePagarme(opts);
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

  failNext(kind: FaultKind, match: { method?: string; path?: RegExp } = {}): void {
    this.faults.push({ kind, ...match });
  }

  /**
   * The next refund (DELETE /charges/{id}) is answered 200 with the charge unchanged and a last transaction
   * in `status` (Pagar.me's `error_on_refunding`, `with_error`… or `pending_refund`): nothing returned yet.
   */
  answerNextRefund(status: string): void {
    this.nextRefundStatus = status;
  }

  /** The orders created under our key (their `code`), oldest first. */
  ordersFor(idempotencyKey: string): Obj[] {
    return [...this.orders.values()].filter((o) => o.code === idempotencyKey).map(copy);
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

  // --- the payer's side and Pagar.me's own later moves (test controls) ---

  /** A token as tokenizecard.js would get it for a test card number (the browser's step, without a browser). */
  tokenFor(number = "4000000000000010", holder = "MARIA SILVA"): string {
    return this.createToken({ type: "card", card: { number, holder_name: holder, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvv: "123" } }).id;
  }

  /** What a saved card does from now on (by card_ id, or every card of a cus_ id). */
  setCardBehaviour(idOrCustomer: string, behaviour: CardBehaviour): void {
    const cards = idOrCustomer.startsWith("cus_") ? [...this.cards.values()].filter((c) => c.customer.id === idOrCustomer) : [this.cards.get(idOrCustomer)].filter(Boolean);
    if (!cards.length) throw new Error(`fake pagarme: no saved card for ${idOrCustomer}`);
    for (const c of cards) this.behaviours.set(c!.id, behaviour);
  }

  /** The payer's bank pays a Pix charge (by ch_ id or by its copy-and-paste code). */
  payPix(idOrCode: string): Obj {
    const charge = this.charges.get(idOrCode) ?? [...this.charges.values()].find((c) => c.last_transaction?.qr_code === idOrCode);
    if (!charge || charge.payment_method !== "pix" || charge.status !== "pending") throw new Error(`fake pagarme: no payable Pix for ${idOrCode}`);
    if (Date.parse(charge.last_transaction.expires_at) <= Date.now()) throw new Error("fake pagarme: that Pix has expired");
    charge.status = "paid";
    charge.paid_amount = charge.amount;
    charge.paid_at = iso();
    charge.last_transaction.status = "paid";
    charge.last_transaction.success = true;
    charge.last_transaction.end_to_end_id = randomId("E", 28);
    this.countPaid(charge);
    const order = this.orders.get(charge.order.id)!;
    order.status = "paid";
    this.syncOrder(order);
    this.emit("charge.paid", charge);
    this.emit("order.paid", order);
    return copy(charge);
  }

  /** A Pix charge reaches its expiry unpaid. */
  expirePix(id: string): Obj {
    const charge = this.charges.get(id);
    if (!charge || charge.payment_method !== "pix" || charge.status !== "pending") throw new Error(`fake pagarme: no pending Pix ${id}`);
    charge.status = "failed";
    charge.last_transaction.status = "failed";
    const order = this.orders.get(charge.order.id)!;
    order.status = "failed";
    this.syncOrder(order);
    this.emit("charge.payment_failed", charge);
    this.emit("order.payment_failed", order);
    return copy(charge);
  }

  /** The cardholder disputes a paid charge with the issuer: Pagar.me marks it chargedback and tells us. */
  chargeback(id: string): Obj {
    const charge = this.charges.get(id);
    if (!charge || charge.status !== "paid") throw new Error(`fake pagarme: no paid charge ${id}`);
    charge.status = "chargedback";
    charge.updated_at = iso();
    const order = this.orders.get(charge.order.id)!;
    order.status = "chargedback";
    this.syncOrder(order);
    this.emit("charge.chargedback", charge);
    return copy(charge);
  }

  // --- webhooks (unsigned, as Pagar.me v5 sends them) ---

  /** A notice as Pagar.me would send it about a charge or order now (or any body, for forgeries). */
  notice(type: string, data: Obj, id = randomId("hook")): Obj {
    return { id, account: { id: "acc_fake00000000000", name: "Fake Pagar.me" }, type, created_at: iso(), data: copy(data) };
  }

  lastEvent(type: string, about?: string): Obj | undefined {
    return [...this.events].reverse().find((e) => e.type === type && (!about || e.data.id === about || e.data.order?.id === about || e.data.charges?.some((c: Obj) => c.id === about)));
  }

  async deliver(event: Obj, url = this.opts.webhookUrl): Promise<number | "error"> {
    if (!url) throw new Error("fake pagarme: no webhookUrl");
    let status: number | "error";
    try {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "user-agent": "Pagar.me-Webhooks" }, body: JSON.stringify(event), signal: AbortSignal.timeout(10_000) });
      status = res.status;
    } catch {
      status = "error";
    }
    this.deliveries.push({ eventId: event.id, status });
    return status;
  }

  // --- internals ---

  private emit(type: string, data: Obj): Obj {
    const event = this.notice(type, data);
    this.events.push(event);
    if (this.opts.webhookUrl) {
      const p = this.deliver(event).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
    return event;
  }

  private app(): express.Express {
    const app = express();
    // The stand-in for tokenizecard.js (https://checkout.pagar.me/v1/tokenizecard.js); public.
    app.get("/v1/tokenizecard.js", (_req, res) => {
      this.scriptLoads++;
      res.type("application/javascript").set("Cache-Control", "no-store").send(tokenizeCardScript());
    });
    // tokenizecard.js posts the card from the page's origin: CORS is open on /tokens only.
    app.options("/core/v5/tokens", (_req, res) => void res.set({ "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "content-type" }).status(204).end());
    app.post("/core/v5/tokens", express.json(), (req, res) => {
      res.set("Access-Control-Allow-Origin", "*");
      const appId = String(req.query.appId ?? "");
      if (!this.opts.publicKey || appId !== this.opts.publicKey) return void res.status(401).json({ message: "Authorization has been denied for this request." });
      try {
        res.json(this.createToken(req.body ?? {}));
      } catch (err) {
        if (!(err instanceof FakeError)) throw err;
        res.status(err.status).json(err.body);
      }
    });
    app.use(express.json({ type: () => true, limit: "1mb" }));
    // A body that is not JSON: Pagar.me's 400.
    app.use(((err, _req, res, next) => {
      if (!(err as { type?: string })?.type?.startsWith("entity.parse")) return next(err);
      res.status(400).json({ message: "The request is invalid." });
    }) as express.ErrorRequestHandler);
    type Handler = (body: Obj, req: Request, key: string | null) => Obj;
    const on = (method: "get" | "post" | "put" | "delete", path: string, handler: Handler) => app[method](`/core/v5${path}`, (req: Request, res: Response) => void this.run(req, res, handler));

    on("get", "/customers", (_b, req) => this.list([...this.customers.values()], req, (c) => !req.query.code || c.code === req.query.code));
    on("post", "/customers", (b) => this.createCustomer(b));
    on("get", "/customers/:id", (_b, req) => copy(this.get(this.customers, String(req.params.id), "Customer")));
    on("put", "/customers/:id", (b, req) => this.updateCustomer(String(req.params.id), b));
    on("post", "/customers/:id/cards", (b, req) => this.createCard(String(req.params.id), b));
    on("get", "/customers/:id/cards/:cardId", (_b, req) => copy(this.get(this.cards, String(req.params.cardId), "Card")));
    on("post", "/orders", (b, _req, key) => this.createOrder(b, key));
    on("get", "/orders", (_b, req) => this.list([...this.orders.values()], req, (o) => !req.query.code || o.code === req.query.code));
    on("get", "/orders/:id", (_b, req) => copy(this.get(this.orders, String(req.params.id), "Order")));
    on("get", "/charges/:id", (_b, req) => copy(this.get(this.charges, String(req.params.id), "Charge")));
    on("get", "/charges/:id/transactions", (_b, req) => {
      const charge = this.get(this.charges, String(req.params.id), "Charge");
      return this.list(this.transactionsOf.get(charge.id) ?? [], req, () => true);
    });
    on("delete", "/charges/:id", (b, req) => this.cancelCharge(String(req.params.id), b));

    app.post("/_test/pix/:id/pay", (req, res) => void res.json(this.payPix(String(req.params.id))));
    app.use((req, res) => void res.status(404).json({ message: `No HTTP resource was found that matches the request URI '${req.path}'.` }));
    return app;
  }

  private async run(req: Request, res: Response, handler: (body: Obj, req: Request, key: string | null) => Obj): Promise<void> {
    const key = req.method !== "GET" ? (req.get("Idempotency-Key") ?? null) : null;
    const record: RecordedRequest = { method: req.method, path: req.path.replace(/^\/core\/v5/, ""), idempotencyKey: key, status: 0, replayed: false, body: copy((req.body as Obj) ?? {}) };
    this.requests.push(record);
    const send = (status: number, body: string) => {
      record.status = status;
      res.status(status).type("application/json").send(body);
    };
    const auth = /^Basic (.+)$/.exec(req.get("Authorization") ?? "")?.[1];
    const user = auth ? Buffer.from(auth, "base64").toString("utf8").replace(/:.*$/, "") : "";
    if (user !== this.opts.secretKey) return send(401, JSON.stringify({ message: "Authorization has been denied for this request." }));

    const i = this.faults.findIndex((f) => (!f.method || f.method === req.method) && (!f.path || f.path.test(record.path)));
    const fault = i < 0 ? undefined : this.faults.splice(i, 1)[0];
    const serverError = JSON.stringify({ message: "An error has occurred." });
    if (fault?.kind === "500") return send(500, serverError);
    if (fault?.kind === "400") return send(400, JSON.stringify({ message: "The request is invalid." }));

    const scope = key ? `${req.method} ${record.path}\n${key}` : null;
    const prior = scope ? this.saved.get(scope) : undefined;
    if (prior) {
      record.replayed = true;
      return send(prior.status, prior.body);
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(handler((req.body as Obj) ?? {}, req, key));
    } catch (err) {
      if (!(err instanceof FakeError)) throw err;
      // A validation failure echoes the request it read (Pagar.me's `request`, the SDK's CustomError.request).
      const errBody = err.status === 422 ? { ...err.body, request: copy((req.body as Obj) ?? {}) } : err.body;
      if (!err.saved) return send(err.status, JSON.stringify(errBody));
      [status, body] = [err.status, JSON.stringify(errBody)];
    }
    if (scope) this.saved.set(scope, { status, body });
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

  private get(map: Map<string, Obj>, id: string, what: string): Obj {
    const found = map.get(id);
    if (!found) throw notFound(what);
    return found;
  }

  /** Pagar.me's lists: {data, paging: {total}}, newest first, `page` from 1 and `size` (default 10, at most 100). */
  private list(all: Obj[], req: Request, keep: (o: Obj) => boolean): Obj {
    const page = Math.max(1, Number(req.query.page ?? 1) || 1);
    const size = Math.min(100, Math.max(1, Number(req.query.size ?? 10) || 10));
    const found = all.filter(keep).reverse();
    return { data: copy(found.slice((page - 1) * size, page * size)), paging: { total: found.length } };
  }

  private createToken(b: Obj): Obj {
    const card = (b.card ?? {}) as Obj;
    const number = String(card.number ?? "").replace(/\D/g, "");
    const errors: Record<string, string[]> = {};
    if (b.type !== "card") errors["request.type"] = ["The type field is required."];
    if (!/^\d{13,19}$/.test(number)) errors["request.card.number"] = ["The number field is not a valid card number."];
    if (!card.holder_name) errors["request.card.holder_name"] = ["The holder_name field is required."];
    if (!Number.isInteger(Number(card.exp_month)) || Number(card.exp_month) < 1 || Number(card.exp_month) > 12) errors["request.card.exp_month"] = ["The field exp_month must be between 1 and 12."];
    if (!/^\d{3,4}$/.test(String(card.cvv ?? ""))) errors["request.card.cvv"] = ["The cvv field is not valid."];
    if (Object.keys(errors).length) throw invalid(errors);
    const test = TEST_CARDS[number] ?? { brand: number.startsWith("5") ? "Mastercard" : "Visa", behaviour: "approve" as CardBehaviour };
    const year = Number(card.exp_year) < 100 ? 2000 + Number(card.exp_year) : Number(card.exp_year);
    const token = {
      id: randomId("token"),
      type: "card",
      created_at: iso(),
      expires_at: iso(new Date(Date.now() + 60_000)),
      card: { first_six_digits: number.slice(0, 6), last_four_digits: number.slice(-4), holder_name: String(card.holder_name), exp_month: Number(card.exp_month), exp_year: year, brand: test.brand },
    };
    this.tokens.set(token.id, { ...token, behaviour: test.behaviour, used: false });
    return token;
  }

  private customerObj(b: Obj): Obj {
    return {
      id: randomId("cus"),
      name: b.name,
      email: b.email ?? null,
      code: b.code ?? null,
      document: b.document ?? null,
      document_type: b.document_type ?? null,
      type: b.type ?? "individual",
      delinquent: false,
      phones: b.phones ?? {},
      metadata: b.metadata ?? {},
      created_at: iso(),
      updated_at: iso(),
    };
  }

  private createCustomer(b: Obj): Obj {
    const errors: Record<string, string[]> = {};
    if (!b.name) errors["customer.name"] = ["The name field is required."];
    if (b.type && !["individual", "company"].includes(b.type)) errors["customer.type"] = ["The type field is invalid."];
    if (Object.keys(errors).length) throw invalid(errors);
    const customer = this.customerObj(b);
    this.customers.set(customer.id, customer);
    return copy(customer);
  }

  private updateCustomer(id: string, b: Obj): Obj {
    const customer = this.get(this.customers, id, "Customer");
    for (const f of ["name", "email", "code", "document", "type", "phones"]) if (b[f] !== undefined) customer[f] = b[f];
    customer.updated_at = iso();
    return copy(customer);
  }

  /** A card from a token (single use, 60 s), verified with the issuer: a card it refuses is not saved (412). */
  private createCard(customerId: string, b: Obj): Obj {
    const customer = this.get(this.customers, customerId, "Customer");
    const token = b.token ? this.tokens.get(String(b.token)) : undefined;
    if (!token || token.used || Date.parse(token.expires_at) <= Date.now()) throw invalid({ "card.token": ["The card token is invalid or has expired."] });
    token.used = true;
    if (token.behaviour === "decline" || token.behaviour === "expired_card") throw new FakeError(412, { message: "Card verification failed: the issuer refused the card." });
    const card = {
      id: randomId("card"),
      first_six_digits: token.card.first_six_digits,
      last_four_digits: token.card.last_four_digits,
      brand: token.card.brand,
      holder_name: token.card.holder_name,
      exp_month: token.card.exp_month,
      exp_year: token.card.exp_year,
      status: "active",
      type: "credit",
      created_at: iso(),
      updated_at: iso(),
      customer: { id: customer.id, name: customer.name, email: customer.email, code: customer.code },
      metadata: {},
    };
    this.cards.set(card.id, card);
    this.behaviours.set(card.id, token.behaviour);
    return copy(card);
  }

  private createOrder(b: Obj, key: string | null): Obj {
    const errors: Record<string, string[]> = {};
    const items = Array.isArray(b.items) ? b.items : [];
    const payments = Array.isArray(b.payments) ? b.payments : [];
    if (!items.length) errors["order.items"] = ["The items field is required."];
    items.forEach((it: Obj, i: number) => {
      if (!Number.isInteger(it.amount) || it.amount < 0) errors[`order.items[${i}].amount`] = ["The amount field is required."];
      if (!it.description) errors[`order.items[${i}].description`] = ["The description field is required."];
    });
    if (payments.length !== 1) errors["order.payments"] = ["The fake takes exactly one payment."];
    if (typeof b.code === "string" && b.code.length > 52) errors["order.code"] = ["The field code must be a string with a maximum length of 52."];
    const total = items.reduce((s: number, it: Obj) => s + (Number(it.amount) || 0) * (Number(it.quantity) || 1), 0);
    const payment = (payments[0] ?? {}) as Obj;
    const amount = payment.amount ?? total;
    if (amount < FAKE_MIN_CHARGE) errors["order.payments[0].amount"] = [`The amount must be at least ${FAKE_MIN_CHARGE} cents (minimum).`];
    let customer: Obj | null = null;
    if (b.customer_id) customer = this.customers.get(b.customer_id) ?? null;
    if (b.customer_id && !customer) errors["order.customer_id"] = ["Customer not found."];
    if (!b.customer_id && !b.customer) errors["order.customer"] = ["The customer or customer_id field is required."];
    if (!["credit_card", "pix"].includes(payment.payment_method)) errors["order.payments[0].payment_method"] = ["The payment_method field is invalid."];
    if (payment.payment_method === "pix") {
      const c = (b.customer ?? customer ?? {}) as Obj;
      if (!c.name) errors["order.customer.name"] = ["The name field is required."];
      if (!c.email) errors["order.customer.email"] = ["The email field is required."];
      if (!c.document) errors["order.customer.document"] = ["The document field is required for Pix."];
      if (!c.phones?.mobile_phone && !c.phones?.home_phone) errors["order.customer.phones"] = ["The phones field is required for Pix."];
      const p = (payment.pix ?? {}) as Obj;
      if (p.expires_in === undefined && p.expires_at === undefined) errors["order.payments[0].pix.expires_in"] = ["The expires_in or expires_at field is required."];
      if (p.expires_in !== undefined && (!Number.isInteger(p.expires_in) || p.expires_in < 1 || p.expires_in > 315_360_000)) errors["order.payments[0].pix.expires_in"] = ["The expires_in field is invalid."];
    }
    let card: Obj | null = null;
    if (payment.payment_method === "credit_card") {
      const cc = (payment.credit_card ?? {}) as Obj;
      card = cc.card_id ? (this.cards.get(cc.card_id) ?? null) : null;
      if (!card) errors["order.payments[0].credit_card.card_id"] = ["Card not found."];
      else if (customer && card.customer.id !== customer.id) errors["order.payments[0].credit_card.card_id"] = ["The card does not belong to the customer."];
      if (cc.recurrency_cycle !== undefined && !["first", "subsequent"].includes(cc.recurrency_cycle)) errors["order.payments[0].credit_card.recurrency_cycle"] = ["The recurrency_cycle field must be first or subsequent."];
    }
    if (Object.keys(errors).length) throw invalid(errors);
    // Valid, but the account cannot take it: a business rule (412).
    if (payment.payment_method === "pix" && !this.pixEnabled) throw new FakeError(412, { message: "Pix is not enabled for this account." }, false);
    if (!customer) {
      customer = this.customerObj(b.customer);
      this.customers.set(customer.id, customer);
    }
    const order: Obj = {
      id: randomId("or"),
      code: b.code ?? randomId("", 10).slice(1),
      amount,
      currency: b.currency ?? "BRL",
      closed: b.closed !== false,
      items: items.map((it: Obj) => ({ id: randomId("oi"), amount: it.amount, description: it.description, quantity: it.quantity ?? 1, code: it.code ?? null, status: "active", created_at: iso(), updated_at: iso() })),
      customer: copy(customer),
      status: "pending",
      created_at: iso(),
      updated_at: iso(),
      closed_at: iso(),
      charges: [],
      metadata: b.metadata ?? {},
    };
    const charge: Obj = {
      id: randomId("ch"),
      code: order.code,
      gateway_id: randomId("", 12).slice(1),
      amount,
      status: "pending",
      currency: order.currency,
      payment_method: payment.payment_method,
      created_at: iso(),
      updated_at: iso(),
      customer: copy(customer),
      order: { id: order.id, code: order.code, status: "pending" },
      metadata: b.metadata ?? {},
      canceled_amount: 0,
      paid_amount: 0,
    };
    this.keyOfCharge.set(charge.id, key);
    if (card) {
      const cc = payment.credit_card as Obj;
      const behaviour = this.behaviours.get(card.id) ?? "approve";
      const [code, message] = RETURN_CODE[behaviour];
      const ok = behaviour === "approve";
      charge.recurrency_cycle = cc.recurrency_cycle ?? null;
      this.setTx(charge, {
        id: randomId("tran"),
        transaction_type: "credit_card",
        gateway_id: randomId("", 12).slice(1),
        amount,
        status: ok ? "captured" : "not_authorized",
        success: ok,
        installments: cc.installments ?? 1,
        operation_type: "auth_and_capture",
        acquirer_name: "simulator",
        acquirer_return_code: code,
        acquirer_message: message,
        card: copy({ ...card, customer: undefined }),
        created_at: iso(),
        updated_at: iso(),
        gateway_response: { code: "200", errors: [] },
        antifraud_response: {},
        metadata: {},
      });
      charge.status = ok ? "paid" : "failed";
      if (ok) {
        charge.paid_amount = amount;
        charge.paid_at = iso();
        this.countPaid(charge);
      }
      order.status = ok ? "paid" : "failed";
    } else {
      const p = payment.pix as Obj;
      const expiresAt = p.expires_at ? new Date(p.expires_at) : new Date(Date.now() + p.expires_in * 1000);
      const tran = randomId("tran");
      this.setTx(charge, {
        id: tran,
        transaction_type: "pix",
        gateway_id: randomId("", 12).slice(1),
        amount,
        status: "waiting_payment",
        success: true,
        qr_code: brCode({ pixKey: "pix@fake-pagarme.example", amountCents: amount, merchantName: "FAKE PAGARME", merchantCity: "SAO PAULO", txid: charge.id.slice(3) }),
        qr_code_url: `https://api.pagar.me/core/v5/transactions/${tran}/qrcode?payment_method=pix`,
        expires_at: iso(expiresAt),
        created_at: iso(),
        updated_at: iso(),
        gateway_response: { code: "200", errors: [] },
        antifraud_response: {},
        metadata: {},
      });
    }
    this.charges.set(charge.id, charge);
    this.orders.set(order.id, order);
    this.syncOrder(order);
    this.emit("order.created", order);
    if (charge.status === "paid") {
      this.emit("charge.paid", charge);
      this.emit("order.paid", order);
    } else if (charge.status === "failed") {
      this.emit("charge.payment_failed", charge);
      this.emit("order.payment_failed", order);
    } else this.emit("charge.pending", charge);
    return copy(this.orders.get(order.id)!);
  }

  /** A charge's new transaction: its last_transaction, and one more in its list. */
  private setTx(charge: Obj, tx: Obj): void {
    charge.last_transaction = tx;
    this.transactionsOf.set(charge.id, [...(this.transactionsOf.get(charge.id) ?? []), tx]);
  }

  /** The order carries copies of its charges; a charge names its order. */
  private syncOrder(order: Obj): void {
    order.charges = [...this.charges.values()].filter((c) => c.order.id === order.id).map((c) => {
      c.order.status = order.status;
      return copy({ ...c, order: undefined });
    });
    order.updated_at = iso();
  }

  private countPaid(charge: Obj): void {
    const key = this.keyOfCharge.get(charge.id) ?? `(no key) ${charge.id}`;
    this.chargesByKey.set(key, (this.chargesByKey.get(key) ?? 0) + 1);
  }

  /** DELETE /charges/{id}: cancels (refunds) `amount`, or what is left; partial cancellations add up. */
  private cancelCharge(id: string, b: Obj): Obj {
    const charge = this.get(this.charges, id, "Charge");
    if (charge.status === "canceled") throw new FakeError(412, { message: "The charge has already been canceled." }, false);
    if (charge.status !== "paid") throw new FakeError(412, { message: "The charge can not be canceled in its current status." }, false);
    const left = charge.paid_amount - charge.canceled_amount;
    const amount = b.amount === undefined ? left : b.amount;
    if (!Number.isInteger(amount) || amount < 1) throw invalid({ "request.amount": ["The amount field is invalid."] });
    if (amount > left) throw new FakeError(412, { message: `The amount to cancel (${amount}) is greater than the amount available (${left}).` }, false);
    if (this.nextRefundStatus) {
      const status = this.nextRefundStatus;
      this.nextRefundStatus = null;
      this.setTx(charge, { ...charge.last_transaction, id: randomId("tran"), amount, status, success: false, metadata: { operation_reference: String(b.operation_reference ?? "") }, created_at: iso(), updated_at: iso() });
      charge.updated_at = iso();
      return copy(charge);
    }
    charge.canceled_amount += amount;
    const total = charge.canceled_amount === charge.paid_amount;
    charge.status = total ? "canceled" : "paid";
    if (total) charge.canceled_at = iso();
    charge.updated_at = iso();
    this.setTx(charge, {
      ...charge.last_transaction,
      id: randomId("tran"),
      amount,
      status: charge.payment_method === "pix" ? "refunded" : total ? "refunded" : "partial_refunded",
      success: true,
      metadata: { operation_reference: String(b.operation_reference ?? "") },
      created_at: iso(),
      updated_at: iso(),
    });
    const order = this.orders.get(charge.order.id)!;
    if (total) order.status = "canceled";
    this.syncOrder(order);
    this.emit(total ? "charge.refunded" : "charge.partial_canceled", charge);
    return copy(charge);
  }
}

export function startFakePagarme(opts: FakePagarmeOptions): Promise<FakePagarme> {
  return FakePagarme.start(opts);
}
