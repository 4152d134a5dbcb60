// The Pagar.me adapter against the local fake of Pagar.me v5 (test/fakes/pagarme/): no request leaves
// loopback. Each test gets its own fake, so counters and faults never leak between tests.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayRefused, GatewayUnavailable, type GatewayAccountRef, type GatewayCredentials } from "../../../core/gateways/adapter.ts";
import { ADAPTER_DEFAULTS } from "../../../core/gateways/capabilities.ts";
import { CredentialsVault, loadCredentialKeys } from "../../../core/gateways/credentials-vault.ts";
import { parseBrCode } from "../../../core/gateways/pix-br-code.ts";
import { createGateways } from "../../../core/gateways/registry.ts";
import { PagarmeAdapter, parsePagarmeToken, type PagarmePayer } from "../../../core/gateways/pagarme-adapter.ts";
import { cents } from "../../../core/shared/money.ts";
import { FakePagarme, startFakePagarme } from "../../fakes/pagarme/fake-pagarme.ts";

const alnum = (n: number) => randomBytes(n).toString("hex");
const SECRET_KEY = `sk_test_${alnum(16)}`;
const PUBLIC_KEY = `pk_test_${alnum(16)}`;
const NOTICE_TOKEN = `wht_${alnum(24)}`;
const ACCOUNT: GatewayAccountRef = { id: "gwa_01JPAGARMETEST00000000000", tenantId: "tn_01JPAGARMETEST000000000000", provider: "pagarme", capabilities: ADAPTER_DEFAULTS.pagarme! };
const CUSTOMER = { customerRef: "cus_01JPAGARMECUSTOMER0000000", email: "ana@example.com", name: "Ana Souza" };
const PAYER: PagarmePayer = { name: "Ana Souza", email: "ana@example.com", doc: "39053344705", phone: "+5511987654321" };

let fake: FakePagarme;
let adapter: PagarmeAdapter;
let credentials: GatewayCredentials;
let payers: Map<string, PagarmePayer>;
const now = () => new Date();
let seq = 0;
const key = (label = "inv") => `${label}_01JTEST${String(++seq).padStart(6, "0")}:1`;

beforeEach(async () => {
  fake = await startFakePagarme({ secretKey: SECRET_KEY, publicKey: PUBLIC_KEY, hangMs: 1_500 });
  credentials = { credentials: { secretKey: SECRET_KEY, publicKey: PUBLIC_KEY, webhookToken: NOTICE_TOKEN }, apiBaseUrl: fake.url };
  payers = new Map();
  adapter = new PagarmeAdapter(async () => credentials, { timeoutMs: 500, payerOf: async (_a, ref) => payers.get(ref) ?? null });
});
afterEach(async () => {
  // Every POST and DELETE carried an Idempotency-Key.
  expect(fake.requests.filter((r) => r.method !== "GET" && !r.idempotencyKey)).toEqual([]);
  await fake.close();
});

async function savedCard(number = "4000000000000010", customerRef = CUSTOMER.customerRef) {
  const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: fake.tokenFor(number), ...CUSTOMER, customerRef }, now());
  if (!saved.ok) throw new Error(`card not saved: ${saved.code}`);
  return saved.token;
}

async function charge(token: string, opts: { amountCents?: number; idempotencyKey?: string; offSession?: boolean } = {}) {
  const idempotencyKey = opts.idempotencyKey ?? key();
  const result = await adapter.chargeToken(ACCOUNT, { token, amountCents: cents(opts.amountCents ?? 4990), currency: "BRL", idempotencyKey, reference: idempotencyKey.split(":")[0]!, offSession: opts.offSession }, now());
  return { ...result, idempotencyKey };
}

async function unavailable(p: Promise<unknown>): Promise<GatewayUnavailable> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayUnavailable);
  return err as GatewayUnavailable;
}

const pixReq = (k: string, amount = 4990, payer: PagarmePayer | null = PAYER) => ({ amountCents: cents(amount), currency: "BRL", idempotencyKey: k, reference: k.split(":")[0]!, expiresAt: new Date(Date.now() + 3_600_000), ...(payer ? { payer } : {}) });

describe("Pagar.me adapter: cards are tokenized in the browser (tokenizecard.js)", () => {
  it("tokenizeCard refuses a card number; savePaymentMethod refuses anything but a token_, both without a call", async () => {
    expect(await adapter.tokenizeCard(ACCOUNT, { holder: "Ana", number: "4000000000000010", expMonth: 12, expYear: 2040, cvc: "123" }, now())).toEqual({ ok: false, code: "card_number_not_accepted" });
    for (const paymentMethodId of ["4000000000000010", "pm_card_visa", "token_x y", "card_abc", ""]) {
      expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId, ...CUSTOMER }, now())).toEqual({ ok: false, code: "invalid_payment_method" });
    }
    expect(fake.requests).toEqual([]);
  });

  it("saves a card: a Pagar.me customer whose code is our cus_ id, the card made from the token", async () => {
    payers.set(CUSTOMER.customerRef, PAYER);
    const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: fake.tokenFor("4000000000000010"), ...CUSTOMER }, now());
    expect(saved).toMatchObject({ ok: true, brand: "visa", last4: "0010", expMonth: 12 });
    const token = parsePagarmeToken((saved as { token: string }).token)!;
    expect(token.customer).toMatch(/^cus_/);
    expect(token.card).toMatch(/^card_/);
    expect(fake.customers.get(token.customer)).toMatchObject({ code: CUSTOMER.customerRef, email: CUSTOMER.email, name: CUSTOMER.name, document: "39053344705", phones: { mobile_phone: { area_code: "11", number: "987654321" } } });
    expect(fake.cards.get(token.card)!.customer.id).toBe(token.customer);
    // A second card of the same customer reuses the customer (found by code, or through the token).
    const second = parsePagarmeToken(await savedCard("5555555555554444"))!;
    const third = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: fake.tokenFor(), ...CUSTOMER, existingToken: (saved as { token: string }).token }, now());
    expect(second.customer).toBe(token.customer);
    expect(parsePagarmeToken((third as { token: string }).token)!.customer).toBe(token.customer);
    expect(fake.customers.size).toBe(1);
    // The same token twice: Pagar.me's replay of the first answer (one card).
    const tok = fake.tokenFor();
    const a = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: tok, ...CUSTOMER }, now());
    const b = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: tok, ...CUSTOMER }, now());
    expect(b).toEqual(a);
  });

  it("a card the issuer refuses, or a used or unknown token, is not saved", async () => {
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: fake.tokenFor("4000000000000028"), ...CUSTOMER }, now())).toEqual({ ok: false, code: "card_declined" });
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "token_doesnotexist0000", ...CUSTOMER }, now())).toEqual({ ok: false, code: "invalid_payment_method" });
  });
});

describe("Pagar.me adapter: charges", () => {
  it("charges on-session and off-session: a closed order whose code is our key, card-on-file fields, charged once", async () => {
    const token = await savedCard();
    const onPage = await charge(token);
    const renewal = await charge(token, { offSession: true });
    expect(onPage).toMatchObject({ outcome: "approved", detailCode: "" });
    expect(renewal).toMatchObject({ outcome: "approved", detailCode: "" });
    expect(renewal.chargeId).toMatch(/^ch_/);
    const [order] = fake.ordersFor(renewal.idempotencyKey);
    expect(order).toMatchObject({ code: renewal.idempotencyKey, status: "paid", amount: 4990, metadata: { idempotency_key: renewal.idempotencyKey, reference: renewal.idempotencyKey.split(":")[0] } });
    const post = (k: string) => fake.requests.find((r) => r.method === "POST" && r.path === "/orders" && r.idempotencyKey === k)!;
    expect(post(renewal.idempotencyKey).body.payments[0]).toMatchObject({ payment_method: "credit_card", credit_card: { card_id: parsePagarmeToken(token)!.card, recurrence: true, recurrency_cycle: "subsequent", installments: 1 } });
    expect(post(onPage.idempotencyKey).body.payments[0].credit_card.recurrency_cycle).toBe("first");
    expect(post(renewal.idempotencyKey).body.customer_id).toBe(parsePagarmeToken(token)!.customer);
    expect(fake.chargesFor(onPage.idempotencyKey)).toBe(1);
    expect(fake.chargesFor(renewal.idempotencyKey)).toBe(1);
  });

  it("a decline carries the issuer's reason in our words, and nothing is charged", async () => {
    const token = await savedCard();
    fake.setCardBehaviour(parsePagarmeToken(token)!.card, "insufficient_funds");
    const poor = await charge(token, { offSession: true });
    expect(poor).toMatchObject({ outcome: "declined", detailCode: "insufficient_funds" });
    expect(poor.chargeId).toMatch(/^ch_/);
    fake.setCardBehaviour(parsePagarmeToken(token)!.card, "decline");
    expect(await charge(token, { offSession: true })).toMatchObject({ outcome: "declined", detailCode: "card_declined" });
    expect(fake.totalCharges).toBe(0);
  });

  it("below Pagar.me's minimum (R$1.00) is refused by Pagar.me and read as a decline", async () => {
    expect(adapter.defaults).toEqual({ sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: false, minimumChargeCents: 100, supportsPix: true, supportsCard: true });
    const token = await savedCard();
    expect(await charge(token, { amountCents: 99 })).toMatchObject({ outcome: "declined", chargeId: "", detailCode: "amount_too_small" });
    expect(await charge(token, { amountCents: 100 })).toMatchObject({ outcome: "approved" });
  });

  it("a token that is not ours is declined invalid_token without a call", async () => {
    expect(await charge("cus_x|pm_y")).toMatchObject({ outcome: "declined", detailCode: "invalid_token" });
    expect(fake.requests).toEqual([]);
  });
});

describe("Pagar.me adapter: idempotency and unknown outcomes", () => {
  it("the same key twice is one charge: Pagar.me replays the first answer", async () => {
    const token = await savedCard();
    const first = await charge(token, { offSession: true });
    const again = await charge(token, { offSession: true, idempotencyKey: first.idempotencyKey });
    expect(again).toMatchObject({ outcome: "approved", chargeId: first.chargeId });
    expect(fake.requests.filter((r) => r.idempotencyKey === first.idempotencyKey).map((r) => r.replayed)).toEqual([false, true]);
    expect(fake.chargesFor(first.idempotencyKey)).toBe(1);
    expect(fake.orders.size).toBe(1);
  });

  it("a 5xx before Pagar.me did anything: unknown, then fetchStatus says not_found (safe to try again)", async () => {
    const token = await savedCard();
    fake.failNext("500", { method: "POST", path: /^\/orders$/ });
    const k = key();
    expect((await unavailable(charge(token, { idempotencyKey: k, offSession: true }))).detailCode).toBe("gateway_error");
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toEqual({ outcome: "not_found", chargeId: "", detailCode: "" });
    expect(fake.totalCharges).toBe(0);
  });

  it("a 5xx after the charge: unknown; fetchStatus finds the order by its code; a retry replays it: charged once", async () => {
    const token = await savedCard();
    fake.failNext("500_after", { method: "POST", path: /^\/orders$/ });
    const k = key();
    await unavailable(charge(token, { idempotencyKey: k, offSession: true }));
    const status = await adapter.fetchStatus(ACCOUNT, k, now());
    expect(status).toMatchObject({ outcome: "approved", detailCode: "" });
    expect(fake.charges.get(status.chargeId)!.code).toBe(k);
    expect(fake.requests.some((r) => r.method === "GET" && r.path === "/orders")).toBe(true);
    expect(await charge(token, { idempotencyKey: k, offSession: true })).toMatchObject({ outcome: "approved", chargeId: status.chargeId });
    expect(fake.chargesFor(k)).toBe(1);
    expect(fake.totalCharges).toBe(1);
  });

  it("a timeout after the charge: unknown (timeout), and fetchStatus finds it", async () => {
    const token = await savedCard();
    fake.failNext("hang", { method: "POST", path: /^\/orders$/ });
    const k = key();
    expect((await unavailable(charge(token, { idempotencyKey: k, offSession: true }))).detailCode).toBe("timeout");
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "approved" });
    expect(fake.chargesFor(k)).toBe(1);
  });

  it("fetchStatus reads a decline as declined with its code", async () => {
    const token = await savedCard();
    fake.setCardBehaviour(parsePagarmeToken(token)!.card, "expired_card");
    const declined = await charge(token, { offSession: true });
    expect(await adapter.fetchStatus(ACCOUNT, declined.idempotencyKey, now())).toEqual({ outcome: "declined", chargeId: declined.chargeId, detailCode: "expired_card" });
  });

  it("Pagar.me unreachable: unknown (connection_error); a wrong key is unknown (authentication_failed); no secret in the error", async () => {
    credentials = { ...credentials, apiBaseUrl: "http://127.0.0.1:9" };
    const down = await unavailable(charge("cus_X|card_Y", { offSession: true }));
    expect(down.detailCode).toBe("connection_error");
    expect(`${down.message} ${down.stack} ${JSON.stringify(down)}`).not.toContain(SECRET_KEY);
    credentials = { credentials: { secretKey: `sk_test_${"w".repeat(32)}` }, apiBaseUrl: fake.url };
    const wrong = await unavailable(charge("cus_X|card_Y", { offSession: true }));
    expect(wrong.detailCode).toBe("authentication_failed");
    expect(`${wrong.message} ${JSON.stringify(wrong)}`).not.toContain("w".repeat(32));
  });
});

describe("Pagar.me adapter: Pix", () => {
  it("creates a Pix order with an expiry and its payer; the BR Code is shown on our page; paid, it is approved", async () => {
    const k = key();
    const req = pixReq(k);
    const at = now();
    const pix = await adapter.createPixCharge(ACCOUNT, { ...req, expiresAt: new Date(at.getTime() + 3_600_000) }, at);
    expect(pix.chargeId).toMatch(/^ch_/);
    expect(pix.expiresAt).toEqual(new Date(at.getTime() + 3_600_000));
    expect(parseBrCode(pix.copyPaste)?.get("54")).toBe("49.90");
    const body = fake.requests.find((r) => r.method === "POST" && r.path === "/orders")!.body;
    expect(body.payments[0]).toEqual({ payment_method: "pix", amount: 4990, pix: { expires_in: 3600 } });
    expect(body.customer).toMatchObject({ name: PAYER.name, email: PAYER.email, document: "39053344705", type: "individual", phones: { mobile_phone: { country_code: "55" } } });
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "pending", chargeId: pix.chargeId });
    // Asked again (the next pass): the same Pix.
    expect((await adapter.createPixCharge(ACCOUNT, req, now())).chargeId).toBe(pix.chargeId);
    fake.payPix(pix.copyPaste);
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toEqual({ outcome: "approved", chargeId: pix.chargeId, detailCode: "", amountCents: 4990 });
    expect(fake.chargesFor(k)).toBe(1);
  });

  it("without the payer in the request, the payer of the reference is looked up; with none, nothing is sent", async () => {
    const k = key();
    payers.set(k.split(":")[0]!, PAYER);
    expect((await adapter.createPixCharge(ACCOUNT, pixReq(k, 1000, null), now())).chargeId).toMatch(/^ch_/);
    const err = await unavailable(adapter.createPixCharge(ACCOUNT, pixReq(key(), 1000, null), now()));
    expect(err.detailCode).toBe("pagarme_pix_payer_unknown");
    expect(fake.orders.size).toBe(1);
  });

  it("a Pix Pagar.me refuses (400, 412, 422) is a definitive refusal with its reason, not an outage; its echo of the payer stays out", async () => {
    const refused = async (p: Promise<unknown>) => {
      const err = await p.then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayRefused);
      const r = err as GatewayRefused;
      // Pagar.me's 422 echoes the request (the payer's CPF): none of it in what we keep.
      expect(`${r.message} ${JSON.stringify(r)}`).not.toContain(PAYER.doc!);
      return `${r.httpStatus}:${r.detailCode}`;
    };
    expect(await refused(adapter.createPixCharge(ACCOUNT, pixReq(key(), 4990, { ...PAYER, doc: null }), now()))).toBe("422:payer_document_refused");
    expect(await refused(adapter.createPixCharge(ACCOUNT, pixReq(key(), 4990, { ...PAYER, phone: "+447911123456" }), now()))).toBe("422:payer_phone_refused");
    fake.pixEnabled = false;
    expect(await refused(adapter.createPixCharge(ACCOUNT, pixReq(key()), now()))).toBe("412:refused");
    fake.pixEnabled = true;
    fake.failNext("400", { method: "POST", path: /^\/orders$/ });
    expect(await refused(adapter.createPixCharge(ACCOUNT, pixReq(key()), now()))).toBe("400:invalid_request");
    expect(fake.orders.size).toBe(0);
    // A 5xx is still an outage (unknown), not a refusal.
    fake.failNext("500", { method: "POST", path: /^\/orders$/ });
    expect((await unavailable(adapter.createPixCharge(ACCOUNT, pixReq(key()), now()))).detailCode).toBe("gateway_error");
  });

  it("an expired Pix reads as declined", async () => {
    const k = key();
    const pix = await adapter.createPixCharge(ACCOUNT, pixReq(k, 1000), now());
    fake.expirePix(pix.chargeId);
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toEqual({ outcome: "declined", chargeId: pix.chargeId, detailCode: "pix_expired" });
  });
});

describe("Pagar.me adapter: refunds (DELETE /charges/{id} with an amount)", () => {
  it("partial refunds add up to the charge; a replayed key is the same refund; past the balance is declined", async () => {
    const paid = await charge(await savedCard(), { amountCents: 10_000 });
    const r1 = await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3_000), idempotencyKey: `${paid.chargeId}:refund:1` }, now());
    expect(r1).toMatchObject({ outcome: "refunded", detailCode: "" });
    expect(r1.refundId).toMatch(/^tran_/);
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3_000), idempotencyKey: `${paid.chargeId}:refund:1` }, now())).toEqual(r1);
    expect(fake.charges.get(paid.chargeId)).toMatchObject({ status: "paid", canceled_amount: 3_000 });
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(8_000), idempotencyKey: `${paid.chargeId}:refund:2` }, now())).toEqual({ outcome: "declined", refundId: "", detailCode: "amount_too_large" });
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(7_000), idempotencyKey: `${paid.chargeId}:refund:3` }, now())).toMatchObject({ outcome: "refunded" });
    expect(fake.charges.get(paid.chargeId)).toMatchObject({ status: "canceled", canceled_amount: 10_000 });
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(1), idempotencyKey: `${paid.chargeId}:refund:4` }, now())).toEqual({ outcome: "declined", refundId: "", detailCode: "charge_already_refunded" });
    const req = fake.requests.find((r) => r.method === "DELETE" && r.idempotencyKey === `${paid.chargeId}:refund:1`)!;
    expect(req.body).toEqual({ amount: 3_000, operation_reference: `${paid.chargeId}:refund:1` });
    // A refunded charge still reads as paid for reconciliation (the refund is its own story).
    expect(await adapter.fetchStatus(ACCOUNT, paid.idempotencyKey, now())).toMatchObject({ outcome: "approved", chargeId: paid.chargeId });
  });

  it("a total refund of a Pix; an unknown charge is declined", async () => {
    const pix = await adapter.createPixCharge(ACCOUNT, pixReq(key(), 2_000), now());
    fake.payPix(pix.chargeId);
    expect(await adapter.refund(ACCOUNT, { chargeId: pix.chargeId, amountCents: cents(2_000), idempotencyKey: `${pix.chargeId}:refund:1` }, now())).toMatchObject({ outcome: "refunded" });
    expect(await adapter.refund(ACCOUNT, { chargeId: "ch_nothere000000000", amountCents: cents(100), idempotencyKey: "x:refund:1" }, now())).toEqual({ outcome: "declined", refundId: "", detailCode: "charge_not_found" });
  });

  it("a 200 whose refund transaction failed is declined (refund_failed), one still pending is unknown; only a refunded transaction is a refund", async () => {
    const paid = await charge(await savedCard(), { amountCents: 2_000 });
    fake.answerNextRefund("error_on_refunding");
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:1` }, now())).toEqual({ outcome: "declined", refundId: "", detailCode: "refund_failed" });
    fake.answerNextRefund("with_error");
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:2` }, now())).toMatchObject({ outcome: "declined", detailCode: "refund_failed" });
    fake.answerNextRefund("pending_refund");
    expect((await unavailable(adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:3` }, now()))).detailCode).toBe("refund_pending");
    // A transaction that is no refund at all (the charge's capture): not confirmed, unknown rather than refunded.
    fake.answerNextRefund("captured");
    expect((await unavailable(adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:4` }, now()))).detailCode).toBe("refund_unconfirmed");
    expect(fake.charges.get(paid.chargeId)!.canceled_amount).toBe(0);
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:5` }, now())).toMatchObject({ outcome: "refunded" });
  });

  it("a refund lost in a timeout happened once: the retry replays it", async () => {
    const paid = await charge(await savedCard(), { amountCents: 2_000 });
    const req = { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:1` };
    fake.failNext("hang", { method: "DELETE" });
    expect((await unavailable(adapter.refund(ACCOUNT, req, now()))).detailCode).toBe("timeout");
    expect(await adapter.refund(ACCOUNT, req, now())).toMatchObject({ outcome: "refunded" });
    expect(fake.charges.get(paid.chargeId)!.canceled_amount).toBe(500);
  });
});

describe("Pagar.me adapter: webhooks (unsigned: each notice is re-read by id)", () => {
  /** `token`: the notice URL's ?token= (null: none). */
  const parse = (body: unknown, token: string | null = NOTICE_TOKEN) =>
    adapter.parseWebhook(Buffer.from(typeof body === "string" ? body : JSON.stringify(body)), { "content-type": "application/json" }, "", now(), ACCOUNT, token === null ? {} : { token });

  it("a notice without the URL's secret token (or with another) is refused before anything is read; an account sealed before tokens (none stored) is still heard", async () => {
    const pix = await adapter.createPixCharge(ACCOUNT, pixReq(key()), now());
    fake.payPix(pix.chargeId);
    const paid = fake.lastEvent("charge.paid", pix.chargeId)!;
    const reads = fake.requests.filter((r) => r.method === "GET").length;
    for (const token of [null, "", `${NOTICE_TOKEN}x`, NOTICE_TOKEN.slice(0, -1), `wht_${alnum(24)}`]) expect(await parse(paid, token)).toEqual({ ok: false, reason: "bad_token" });
    expect(fake.requests.filter((r) => r.method === "GET").length).toBe(reads);
    expect(await parse(paid)).toMatchObject({ ok: true, notification: { kind: "pix_paid" } });
    credentials = { ...credentials, credentials: { secretKey: SECRET_KEY, publicKey: PUBLIC_KEY } };
    expect(await parse(paid, null)).toMatchObject({ ok: true, notification: { kind: "pix_paid" } });
  });

  it("a genuine notice is normalized from the charge Pagar.me returns: Pix paid, card paid or failed, refund", async () => {
    const k = key();
    const pix = await adapter.createPixCharge(ACCOUNT, pixReq(k), now());
    fake.payPix(pix.chargeId);
    const paid = fake.lastEvent("charge.paid", pix.chargeId)!;
    expect(await parse(paid)).toEqual({
      ok: true,
      notification: { eventId: paid.id, providerType: "charge.paid", kind: "pix_paid", chargeId: pix.chargeId, objectId: "", idempotencyKey: k, reference: k.split(":")[0], amountCents: 4990, detailCode: "", occurredAt: expect.any(Date), livemode: true },
    });
    const orderPaid = fake.lastEvent("order.paid", pix.chargeId)!;
    expect(await parse(orderPaid)).toMatchObject({ ok: true, notification: { eventId: orderPaid.id, kind: "pix_paid", chargeId: pix.chargeId } });

    const token = await savedCard();
    const card = await charge(token, { amountCents: 3000 });
    expect(await parse(fake.lastEvent("charge.paid", card.chargeId)!)).toMatchObject({ ok: true, notification: { kind: "charge_succeeded", chargeId: card.chargeId, idempotencyKey: card.idempotencyKey, amountCents: 3000 } });
    fake.setCardBehaviour(parsePagarmeToken(token)!.card, "insufficient_funds");
    const failed = await charge(token, { offSession: true });
    expect(await parse(fake.lastEvent("charge.payment_failed", failed.chargeId)!)).toMatchObject({ ok: true, notification: { kind: "charge_failed", detailCode: "insufficient_funds" } });

    const refund = await adapter.refund(ACCOUNT, { chargeId: card.chargeId, amountCents: cents(3000), idempotencyKey: `${card.chargeId}:refund:1` }, now());
    expect(await parse(fake.lastEvent("charge.refunded", card.chargeId)!)).toMatchObject({ ok: true, notification: { kind: "refund_succeeded", chargeId: card.chargeId, objectId: refund.refundId, amountCents: 3000, idempotencyKey: `${card.chargeId}:refund:1` } });
    expect(await parse(fake.notice("customer.created", { id: "cus_abcdef1234567890" }))).toMatchObject({ ok: true, notification: { kind: "ignored" } });
  });

  it("a late notice of an earlier partial refund is that refund (its transaction, amount and our key), not the charge's last one; a notice naming no refund is ignored", async () => {
    const paid = await charge(await savedCard(), { amountCents: 10_000 });
    const r1 = await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3_000), idempotencyKey: `${paid.chargeId}:refund:1` }, now());
    const first = fake.lastEvent("charge.partial_canceled", paid.chargeId)!;
    const r2 = await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(2_000), idempotencyKey: `${paid.chargeId}:refund:2` }, now());
    const second = fake.lastEvent("charge.partial_canceled", paid.chargeId)!;
    expect(second.id).not.toBe(first.id);
    // The first refund's notice arrives after the second refund.
    expect(await parse(first)).toMatchObject({ ok: true, notification: { kind: "refund_succeeded", chargeId: paid.chargeId, objectId: r1.refundId, amountCents: 3_000, idempotencyKey: `${paid.chargeId}:refund:1` } });
    expect(await parse(second)).toMatchObject({ ok: true, notification: { kind: "refund_succeeded", objectId: r2.refundId, amountCents: 2_000, idempotencyKey: `${paid.chargeId}:refund:2` } });
    // Forged: a refund notice naming the capture, a transaction Pagar.me does not list for that charge, or none.
    const capture = fake.lastEvent("charge.paid", paid.chargeId)!.data.last_transaction.id as string;
    for (const last_transaction of [{ id: capture, status: "refunded", amount: 10_000 }, { id: "tran_notatpagarme0000", status: "refunded" }, undefined]) {
      expect(await parse(fake.notice("charge.partial_canceled", { ...second.data, last_transaction }))).toMatchObject({ ok: true, notification: { kind: "ignored" } });
    }
  });

  it("a forged body claiming paid for an unpaid Pix is read back as it is (pending: ignored); an unknown id or garbage is refused", async () => {
    const pix = await adapter.createPixCharge(ACCOUNT, pixReq(key()), now());
    const forged = fake.notice("charge.paid", { ...fake.charges.get(pix.chargeId)!, status: "paid", paid_amount: 4990 });
    expect(await parse(forged)).toMatchObject({ ok: true, notification: { kind: "ignored", chargeId: pix.chargeId } });
    expect(fake.requests.filter((r) => r.method === "GET" && r.path === `/charges/${pix.chargeId}`)).toHaveLength(1);
    expect(await parse(fake.notice("charge.paid", { id: "ch_forgedforgedforg", status: "paid" }))).toEqual({ ok: false, reason: "malformed" });
    expect(await parse("not json")).toEqual({ ok: false, reason: "malformed" });
    expect(await parse({ id: "hook_x", type: "charge.paid" })).toEqual({ ok: false, reason: "malformed" });
    expect(await parse({ id: "hook_x", type: "charge.paid", data: { id: "../orders" } })).toEqual({ ok: false, reason: "malformed" });
    // Pagar.me unreachable while re-reading: the route answers 5xx and Pagar.me delivers again.
    credentials = { ...credentials, apiBaseUrl: "http://127.0.0.1:9" };
    await unavailable(parse(fake.notice("charge.paid", { id: pix.chargeId })));
  });
});

describe("Pagar.me adapter: credentials and customers", () => {
  const check = (c: Record<string, string>, apiBaseUrl: string | null = fake.url) => adapter.verifyCredentials({ credentials: c, apiBaseUrl }, now());

  it("verifyCredentials: the right keys pass; wrong, public or mismatched keys are refused with a reason that never holds them", async () => {
    expect(await check({ secretKey: SECRET_KEY, publicKey: PUBLIC_KEY })).toEqual({ ok: true });
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/customers", status: 200 });
    const wrong = `sk_test_${"q".repeat(30)}`;
    const refusals = [
      [{ secretKey: wrong }, /does not recognize/],
      [{ secretKey: PUBLIC_KEY }, /public key/],
      [{ secretKey: "hunter2hunter2" }, /not a Pagar.me secret key/],
      [{}, /secretKey is missing/],
      [{ secretKey: SECRET_KEY, publicKey: "nope" }, /publicKey/],
      [{ secretKey: SECRET_KEY, publicKey: `pk_${"l".repeat(20)}` }, /different environments/],
    ] as const;
    for (const [c, reason] of refusals) {
      const result = await check({ ...c });
      expect(result.ok).toBe(false);
      const text = (result as { reason: string }).reason;
      expect(text).toMatch(reason);
      for (const secret of Object.values(c)) expect(text).not.toContain(secret);
    }
    await unavailable(check({ secretKey: SECRET_KEY }, "http://127.0.0.1:9"));
  });

  it("updateCustomer pushes name and e-mail to the Pagar.me customer made for ours; none yet is fine", async () => {
    const token = parsePagarmeToken(await savedCard())!;
    const sync = { customerId: CUSTOMER.customerRef, name: "Ana S. Lima", email: "ana.lima@example.com", phone: "+5511987654321" };
    expect(await adapter.updateCustomer(ACCOUNT, sync, now())).toEqual({ ok: true });
    expect(fake.customers.get(token.customer)).toMatchObject({ name: "Ana S. Lima", email: "ana.lima@example.com" });
    expect(await adapter.updateCustomer(ACCOUNT, { ...sync, customerId: "cus_01JNOBODY0000000000000000" }, now())).toEqual({ ok: true });
  });

  it("the registry runs the Pagar.me adapter for provider pagarme", () => {
    const vault = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: randomBytes(32).toString("base64") }, "/nonexistent"));
    const gateways = createGateways({} as never, vault);
    expect(gateways.has("pagarme")).toBe(true);
    expect(gateways.adapter("pagarme")).toBeInstanceOf(PagarmeAdapter);
    expect(gateways.adapter("pagarme").webhookSecretRequired).toBe(false);
  });
});
