// The Mercado Pago adapter against the local fake of Mercado Pago (test/fakes/mercadopago/): no request
// leaves loopback. Each test gets its own fake, so counters and faults never leak between tests.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayUnavailable, type GatewayAccountRef, type GatewayCredentials } from "../../../core/gateways/adapter.ts";
import { ADAPTER_DEFAULTS } from "../../../core/gateways/capabilities.ts";
import { MercadoPagoAdapter, parseMercadoPagoToken, toReais } from "../../../core/gateways/mercadopago-adapter.ts";
import { parseBrCode } from "../../../core/gateways/pix-br-code.ts";
import type { Recurrence } from "../../../core/gateways/recurrence-lookup.ts";
import { cents } from "../../../core/shared/money.ts";
import { FakeMercadoPago, startFakeMercadoPago } from "../../fakes/mercadopago/fake-mercadopago.ts";
import { signatureHeader } from "../../fakes/mercadopago/signing.ts";

const ACCESS_TOKEN = `TEST-${randomBytes(8).toString("hex")}-112233-${randomBytes(16).toString("hex")}-123456789`;
const PUBLIC_KEY = `TEST-${randomBytes(4).toString("hex")}-1234-1234-1234-${randomBytes(6).toString("hex")}`;
const WEBHOOK_SECRET = randomBytes(32).toString("hex");
const ACCOUNT: GatewayAccountRef = { id: "gwa_01JMPTEST00000000000000000", tenantId: "tn_01JMPTEST000000000000000000", provider: "mercadopago", capabilities: ADAPTER_DEFAULTS.mercadopago! };
const CUSTOMER = { customerRef: "cus_01JMPCUSTOMER0000000000000", email: "ana@example.com", name: "Ana Souza" };

let fake: FakeMercadoPago;
let adapter: MercadoPagoAdapter;
let credentials: GatewayCredentials;
/** What our database would say of the charge's subscription (recurrence-lookup.ts); null: no subscription behind it. */
let recurrence: Recurrence | null;
const now = () => new Date();
let seq = 0;
const key = (label = "inv") => `${label}_01JTEST${String(++seq).padStart(6, "0")}:1`;

beforeEach(async () => {
  // Most tests here charge a saved card off-session: an account with Automatic Payments (the fake's default has none).
  fake = await startFakeMercadoPago({ accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET, hangMs: 1_500, automaticPayments: true });
  credentials = { credentials: { accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET }, apiBaseUrl: fake.url };
  recurrence = { subscriptionId: "sub_01JMPTEST000000000000000000", sequence: 1, interval: "MONTH", firstChargeId: null };
  adapter = new MercadoPagoAdapter(async () => credentials, { timeoutMs: 500, payerOf: async () => ({ email: "pix@example.com", name: "Pix Payer" }), recurrenceOf: async () => recurrence });
});
afterEach(async () => {
  // Mercado Pago's rule, checked after every test: each payment and refund carried an X-Idempotency-Key.
  expect(fake.requests.filter((r) => r.method === "POST" && /^\/v1\/payments/.test(r.path) && !r.idempotencyKey)).toEqual([]);
  await fake.close();
});

async function savedCard(opts: { holder?: string; number?: string; customerRef?: string; email?: string; chargeFollows?: boolean } = {}) {
  const saved = await adapter.savePaymentMethod(
    ACCOUNT,
    { paymentMethodId: fake.browserToken(opts), ...CUSTOMER, customerRef: opts.customerRef ?? CUSTOMER.customerRef, email: opts.email ?? CUSTOMER.email, chargeFollows: opts.chargeFollows },
    now(),
  );
  if (!saved.ok) throw new Error(`card not saved: ${saved.code}`);
  return saved;
}

async function charge(token: string, opts: { amountCents?: number; idempotencyKey?: string; offSession?: boolean } = {}) {
  const idempotencyKey = opts.idempotencyKey ?? key();
  const result = await adapter.chargeToken(ACCOUNT, { token, amountCents: cents(opts.amountCents ?? 4990), currency: "BRL", idempotencyKey, reference: idempotencyKey.split(":")[0]!, offSession: opts.offSession ?? true }, now());
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

describe("Mercado Pago adapter: cards are tokenized in the browser (PCI SAQ A)", () => {
  it("tokenizeCard refuses a card number without calling Mercado Pago; savePaymentMethod refuses anything but a card token", async () => {
    expect(await adapter.tokenizeCard(ACCOUNT, { holder: "Ana", number: "5031433215406351", expMonth: 11, expYear: 2040, cvc: "123" }, now())).toEqual({ ok: false, code: "card_number_not_accepted" });
    for (const paymentMethodId of ["5031 4332 1540 6351", "tok x", "", "pm_card_visa"]) {
      expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId, ...CUSTOMER }, now())).toMatchObject({ ok: false });
    }
    expect(fake.requests).toEqual([]);
  });

  it("savePaymentMethod makes a customer of the e-mail (our cus_ id in its description and metadata), saves the card; the token names customer, card and brand", async () => {
    const saved = await savedCard();
    expect(saved).toMatchObject({ brand: "master", last4: "6351", expMonth: 11 });
    const token = parseMercadoPagoToken(saved.token)!;
    const customer = fake.customers.get(token.customer)!;
    expect(customer).toMatchObject({ email: CUSTOMER.email, description: CUSTOMER.customerRef, metadata: { customer_ref: CUSTOMER.customerRef }, first_name: "Ana", last_name: "Souza" });
    expect(fake.cards.get(token.card)).toMatchObject({ customer_id: token.customer, last_four_digits: "6351" });
    expect(token.paymentMethod).toBe("master");
    // The same e-mail later: the Mercado Pago customer is reused, not duplicated.
    const again = await savedCard({ number: "4235647728025682" });
    expect(parseMercadoPagoToken(again.token)!.customer).toBe(token.customer);
    expect(fake.customers.size).toBe(1);
    // No card number, CVV or token in our token.
    expect(saved.token).not.toMatch(/5031|6351\d/);
  });

  it("a customer made meanwhile under the same e-mail (customer already exist) is found and reused", async () => {
    await savedCard({ email: "race@example.com" });
    const first = [...fake.customers.values()][0]!;
    // Search answers nothing the first time (as if the other checkout had not created it yet).
    fake.customerSearchMisses = 1;
    const saved = await savedCard({ email: "race@example.com", customerRef: "cus_01JOTHER00000000000000000" });
    expect(parseMercadoPagoToken(saved.token)!.customer).toBe(first.id);
    expect(fake.requests.filter((r) => r.path === "/v1/customers" && r.status === 400)).toHaveLength(1);
  });
});

describe("Mercado Pago adapter: the card of a page that pays (recurring-charges guide: pay first, save after)", () => {
  const posts = () =>
    fake.requests.filter((r) => r.method === "POST" && (r.path === "/v1/payments" || /^\/v1\/customers\/[^/]+\/cards$/.test(r.path))).map((r) => ({ path: r.path.replace(/customers\/[^/]+/, "customers/:id"), token: r.body.token, status: r.status }));

  it("MercadoPago.js' token pays first; the card is saved with it after the approval; a renewal charges that card", async () => {
    const browser = fake.browserToken();
    const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: browser, ...CUSTOMER, chargeFollows: true }, now());
    expect(saved).toMatchObject({ ok: true, brand: "master", last4: "6351", expMonth: 11 });
    if (!saved.ok) return;
    // Nothing saved yet, and the token not spent: Mercado Pago was only asked about it.
    expect(fake.cards.size).toBe(0);
    expect(saved.token).not.toContain(browser);
    const first = await charge(saved.token, { offSession: false });
    expect(first).toMatchObject({ outcome: "approved", detailCode: "" });
    expect(posts()).toEqual([
      { path: "/v1/payments", token: browser, status: 201 },
      { path: "/v1/customers/:id/cards", token: browser, status: 201 },
    ]);
    expect(fake.cards.size).toBe(1);
    const [card] = [...fake.cards.values()];
    expect(card).toMatchObject({ customer_id: parseMercadoPagoToken(saved.token)!.customer, last_four_digits: "6351" });

    recurrence = { ...recurrence!, sequence: 2, firstChargeId: first.chargeId };
    const renewal = await charge(saved.token);
    expect(renewal.outcome).toBe("approved");
    expect(fake.requests.find((r) => r.method === "POST" && r.path === "/v1/card_tokens")?.body).toEqual({ card_id: card!.id, customer_id: card!.customer_id });
  });

  it("a first payment whose answer is lost (500 after charging) still saves its card: the renewal finds it", async () => {
    const saved = await savedCard({ chargeFollows: true });
    fake.failNext("500_after", { method: "POST", path: /^\/v1\/payments$/ });
    const k = key();
    await unavailable(charge(saved.token, { offSession: false, idempotencyKey: k }));
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "approved" });
    expect(fake.cards.size).toBe(1);
    expect((await charge(saved.token)).outcome).toBe("approved");
  });

  it("a declined first payment saves no card; a page whose card is only saved (no payment follows) saves it at once", async () => {
    const declinedSave = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: fake.browserToken({ holder: "FUND" }), ...CUSTOMER, chargeFollows: true }, now());
    if (!declinedSave.ok) throw new Error(declinedSave.code);
    expect(await charge(declinedSave.token, { offSession: false })).toMatchObject({ outcome: "declined", detailCode: "cc_rejected_insufficient_amount" });
    expect(fake.cards.size).toBe(0);
    // A renewal of a card that was never saved is a decline, never a charge.
    expect(await charge(declinedSave.token)).toMatchObject({ outcome: "declined", chargeId: "" });

    const onlySaved = await savedCard({ number: "4235647728025682" });
    expect(fake.cards.get(parseMercadoPagoToken(onlySaved.token)!.card)).toMatchObject({ last_four_digits: "5682" });
  });
});

describe("Mercado Pago adapter: charges", () => {
  it("the first charge on the page pays with MercadoPago.js' token (first use); a renewal makes a card token from the saved card and charges off-session", async () => {
    const saved = await savedCard({ chargeFollows: true });
    const first = await charge(saved.token, { offSession: false });
    expect(first).toMatchObject({ outcome: "approved", detailCode: "" });
    const firstReq = fake.requests.find((r) => r.path === "/v1/payments" && r.idempotencyKey === first.idempotencyKey)!;
    expect(firstReq.body).toMatchObject({
      transaction_amount: 49.9,
      installments: 1,
      payment_method_id: "master",
      binary_mode: true,
      external_reference: first.idempotencyKey,
      metadata: { idempotency_key: first.idempotencyKey },
      point_of_interaction: { type: "SUBSCRIPTIONS", transaction_data: { first_time_use: true } },
    });
    expect(fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/card_tokens")).toHaveLength(0);

    recurrence = { ...recurrence!, sequence: 2, firstChargeId: first.chargeId };
    const renewal = await charge(saved.token, { amountCents: 12345 });
    expect(renewal.outcome).toBe("approved");
    const tokenReq = fake.requests.find((r) => r.method === "POST" && r.path === "/v1/card_tokens")!;
    const token = parseMercadoPagoToken(saved.token)!;
    expect(tokenReq.body).toEqual({ card_id: [...fake.cards.keys()][0], customer_id: token.customer });
    const renewalReq = fake.requests.find((r) => r.path === "/v1/payments" && r.idempotencyKey === renewal.idempotencyKey)!;
    expect(renewalReq.body).toMatchObject({ transaction_amount: 123.45, payer: { type: "customer", id: token.customer }, point_of_interaction: { transaction_data: { first_time_use: false } } });
    expect(fake.payments.get(renewal.chargeId)).toMatchObject({ status: "approved", transaction_amount: 123.45 });
    expect(fake.chargesFor(renewal.idempotencyKey)).toBe(1);
  });

  it("subscription messaging: the first charge and a renewal carry the documented fields (subscription, sequence, period, billing date, user present, first payment)", async () => {
    const saved = await savedCard();
    const first = await charge(saved.token, { offSession: false });
    expect(first.outcome).toBe("approved");
    const sent = (k: string) => fake.requests.find((r) => r.path === "/v1/payments" && r.idempotencyKey === k)!.body.point_of_interaction;
    const today = new Date().toISOString().slice(0, 10);
    expect(sent(first.idempotencyKey)).toEqual({
      type: "SUBSCRIPTIONS",
      transaction_data: { first_time_use: true, subscription_id: recurrence!.subscriptionId, subscription_sequence: { number: 1 }, invoice_period: { type: "monthly", period: 1 }, billing_date: today, user_present: true },
    });
    recurrence = { subscriptionId: recurrence!.subscriptionId, sequence: 3, interval: "YEAR", firstChargeId: first.chargeId };
    const renewal = await charge(saved.token);
    expect(renewal.outcome).toBe("approved");
    expect(sent(renewal.idempotencyKey)).toEqual({
      type: "SUBSCRIPTIONS",
      transaction_data: {
        first_time_use: false,
        subscription_id: recurrence.subscriptionId,
        subscription_sequence: { number: 3 },
        invoice_period: { type: "monthly", period: 12 },
        payment_reference: { id: first.chargeId },
        billing_date: today,
        user_present: false,
      },
    });
    // The fake holds Mercado Pago's page to its word: a later payment without its sequence's fields is refused.
    recurrence = null;
    expect(await charge(saved.token)).toMatchObject({ outcome: "declined", detailCode: "mp_fake_subscription_messaging" });
  });

  it("a rejected card is a decline with Mercado Pago's status_detail (cc_rejected_insufficient_amount…)", async () => {
    const fund = await savedCard({ holder: "FUND" });
    expect(await charge(fund.token)).toMatchObject({ outcome: "declined", detailCode: "cc_rejected_insufficient_amount" });
    const ok = await savedCard({ number: "4235647728025682" });
    fake.setCardBehaviour(parseMercadoPagoToken(ok.token)!.card, "call_for_authorize");
    const declined = await charge(ok.token);
    expect(declined).toMatchObject({ outcome: "declined", detailCode: "cc_rejected_call_for_authorize" });
    expect(declined.chargeId).toMatch(/^\d+$/);
    expect(fake.totalCharges).toBe(0);
  });

  it("an account without Automatic Payments refuses a saved card without its CVV: the decline security_code_required (dunning sends a /pay link)", async () => {
    const saved = await savedCard();
    fake.automaticPayments = false;
    expect(await charge(saved.token)).toEqual(expect.objectContaining({ outcome: "declined", chargeId: "", detailCode: "security_code_required" }));
    expect(fake.totalCharges).toBe(0);
  });

  it("an amount under the minimum is refused by Mercado Pago: a decline, nothing charged", async () => {
    const saved = await savedCard();
    expect(await charge(saved.token, { amountCents: 50 })).toMatchObject({ outcome: "declined", detailCode: "invalid_amount" });
  });

  it("a replayed key answers the first payment: one payment, one charge", async () => {
    const saved = await savedCard();
    const a = await charge(saved.token, { idempotencyKey: "inv_01JREPLAY:1" });
    const b = await charge(saved.token, { idempotencyKey: "inv_01JREPLAY:1" });
    expect(b.chargeId).toBe(a.chargeId);
    expect(fake.paymentsFor("inv_01JREPLAY:1")).toHaveLength(1);
    expect(fake.chargesFor("inv_01JREPLAY:1")).toBe(1);
    expect(fake.requests.filter((r) => r.path === "/v1/payments" && r.replayed)).toHaveLength(1);
  });

  it("a 5xx before or after the charge, or a timeout, is GatewayUnavailable; fetchStatus settles it by external_reference, and a rerun under the key charges nothing more", async () => {
    const saved = await savedCard();
    fake.failNext("500", { method: "POST", path: /^\/v1\/payments$/ });
    const before = key();
    expect((await unavailable(charge(saved.token, { idempotencyKey: before }))).detailCode).toBe("gateway_error");
    expect(await adapter.fetchStatus(ACCOUNT, before, now())).toMatchObject({ outcome: "not_found" });

    fake.failNext("500_after", { method: "POST", path: /^\/v1\/payments$/ });
    const after = key();
    await unavailable(charge(saved.token, { idempotencyKey: after }));
    const status = await adapter.fetchStatus(ACCOUNT, after, now());
    expect(status).toMatchObject({ outcome: "approved" });
    expect(status.chargeId).toBe(fake.paymentsFor(after)[0]!.id.toString());
    expect((await charge(saved.token, { idempotencyKey: after })).chargeId).toBe(status.chargeId);
    expect(fake.chargesFor(after)).toBe(1);

    fake.failNext("hang", { method: "POST", path: /^\/v1\/payments$/ });
    const hung = key();
    expect((await unavailable(charge(saved.token, { idempotencyKey: hung }))).detailCode).toBe("timeout");
    expect(await adapter.fetchStatus(ACCOUNT, hung, now())).toMatchObject({ outcome: "approved" });
    expect(fake.chargesFor(hung)).toBe(1);
  });

  it("a wrong access token on a charge is unknown (authentication_failed), never a decline", async () => {
    const saved = await savedCard();
    credentials = { ...credentials, credentials: { ...credentials.credentials, accessToken: "TEST-0000000000-wrong-token" } };
    const err = await unavailable(charge(saved.token));
    expect(err.detailCode).toBe("authentication_failed");
    expect(err.message).not.toContain("wrong-token");
  });
});

describe("Mercado Pago adapter: Pix", () => {
  it("a Pix payment with an expiry: the BR Code of point_of_interaction, our key as external_reference, pending until paid", async () => {
    const k = key();
    const expiresAt = new Date(Date.now() + 3 * 3600_000);
    const pix = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(4990), currency: "BRL", idempotencyKey: k, reference: k.split(":")[0]!, expiresAt, payer: { name: "Maria Silva", email: "maria@example.com", doc: null, phone: null } }, now());
    expect(parseBrCode(pix.copyPaste)?.get("54")).toBe("49.90");
    expect(Math.abs(pix.expiresAt.getTime() - expiresAt.getTime())).toBeLessThan(5_000);
    const req = fake.requests.find((r) => r.path === "/v1/payments")!;
    expect(req).toMatchObject({ idempotencyKey: k, body: { payment_method_id: "pix", payer: { email: "maria@example.com", first_name: "Maria" }, external_reference: k } });
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "pending", chargeId: pix.chargeId });
    fake.payPix(pix.copyPaste);
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "approved", chargeId: pix.chargeId });
  });

  it("the payer comes from the lookup when the caller has none; the expiry is kept within Mercado Pago's 30 min to 30 days", async () => {
    const short = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(1000), currency: "BRL", idempotencyKey: key(), reference: "inv_01JX", expiresAt: new Date(Date.now() + 60_000) }, now());
    expect(short.expiresAt.getTime() - Date.now()).toBeGreaterThanOrEqual(30 * 60_000);
    const long = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(1000), currency: "BRL", idempotencyKey: key(), reference: "inv_01JY", expiresAt: new Date(Date.now() + 90 * 86_400_000) }, now());
    expect(long.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    expect(fake.requests.filter((r) => r.path === "/v1/payments").map((r) => r.body.payer.email)).toEqual(["pix@example.com", "pix@example.com"]);
  });
});

describe("Mercado Pago adapter: refunds", () => {
  it("partial refunds add up to the payment; the last one makes it refunded; more is refused", async () => {
    const saved = await savedCard();
    const paid = await charge(saved.token, { amountCents: 10000 });
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3000), idempotencyKey: `${paid.chargeId}:refund:1` }, now())).toMatchObject({ outcome: "refunded" });
    expect(fake.payments.get(paid.chargeId)).toMatchObject({ status: "approved", transaction_amount_refunded: 30 });
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(7000), idempotencyKey: `${paid.chargeId}:refund:2` }, now())).toMatchObject({ outcome: "refunded" });
    expect(fake.payments.get(paid.chargeId)).toMatchObject({ status: "refunded", transaction_amount_refunded: 100 });
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(1), idempotencyKey: `${paid.chargeId}:refund:3` }, now())).toMatchObject({ outcome: "declined", detailCode: "refund_not_allowed" });
    // The same refund key again: Mercado Pago answers the first refund, nothing returned twice.
    const replay = await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3000), idempotencyKey: `${paid.chargeId}:refund:1` }, now());
    expect(replay.outcome).toBe("refunded");
    expect(fake.payments.get(paid.chargeId)!.refunds).toHaveLength(2);
    const bodies = fake.requests.filter((r) => r.path.endsWith("/refunds") && !r.replayed).map((r) => r.body.amount);
    expect(bodies).toEqual([30, 70, 0.01]);
  });

  it("a refund answered 5xx is unknown (GatewayUnavailable); the same key later returns the first answer", async () => {
    const saved = await savedCard();
    const paid = await charge(saved.token);
    fake.failNext("500_after", { path: /refunds$/ });
    await unavailable(adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(4990), idempotencyKey: "rk:1" }, now()));
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(4990), idempotencyKey: "rk:1" }, now())).toMatchObject({ outcome: "refunded" });
    expect(fake.payments.get(paid.chargeId)!.refunds).toHaveLength(1);
  });
});

describe("Mercado Pago adapter: credentials", () => {
  it("verifyCredentials reads users/me; a wrong token, a bad format or mixed modes are refused with a reason that never holds the token", async () => {
    expect(await adapter.verifyCredentials({ credentials: { accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET }, apiBaseUrl: fake.url }, now())).toEqual({ ok: true });
    const wrong = `TEST-${randomBytes(8).toString("hex")}-wrong`;
    const refused = await adapter.verifyCredentials({ credentials: { accessToken: wrong }, apiBaseUrl: fake.url }, now());
    expect(refused).toMatchObject({ ok: false });
    expect(JSON.stringify(refused)).not.toContain(wrong);
    expect(await adapter.verifyCredentials({ credentials: { accessToken: "sk_test_123456789012" }, apiBaseUrl: fake.url }, now())).toMatchObject({ ok: false, reason: expect.stringContaining("APP_USR") });
    expect(await adapter.verifyCredentials({ credentials: { accessToken: ACCESS_TOKEN, publicKey: `APP_USR-${PUBLIC_KEY.slice(5)}` }, apiBaseUrl: fake.url }, now())).toMatchObject({ ok: false, reason: expect.stringContaining("modes") });
    expect(await adapter.verifyCredentials({ credentials: {}, apiBaseUrl: fake.url }, now())).toMatchObject({ ok: false, reason: expect.stringContaining("missing") });
  });
});

describe("Mercado Pago adapter: notices (x-signature, then the payment re-fetched)", () => {
  async function pixPaid() {
    const k = key();
    const pix = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(4990), currency: "BRL", idempotencyKey: k, reference: "inv_01JPIX", expiresAt: new Date(Date.now() + 3600_000) }, now());
    fake.payPix(pix.chargeId);
    return { k, pix };
  }
  const parse = (n: { rawBody: string; headers: Record<string, string>; query: string }, secret = WEBHOOK_SECRET, at = now()) =>
    adapter.parseWebhook(Buffer.from(n.rawBody), n.headers, secret, at, ACCOUNT, Object.fromEntries(new URLSearchParams(n.query)));

  it("a signed notice is verified and becomes what Mercado Pago says of the payment now (Pix paid, our key, amount)", async () => {
    const { k, pix } = await pixPaid();
    const parsed = await parse(fake.signedNotice(pix.chargeId));
    expect(parsed).toMatchObject({ ok: true, notification: { kind: "pix_paid", chargeId: pix.chargeId, idempotencyKey: k, reference: "inv_01JPIX", amountCents: 4990 } });
    // The manifest is checked against a second, independent reading of Mercado Pago's rule.
    const n = fake.signedNotice(pix.chargeId, { ts: 1_700_000_000, requestId: "req-1" });
    expect(n.headers["x-signature"]).toBe(signatureHeader(String(pix.chargeId), "req-1", WEBHOOK_SECRET, 1_700_000_000));
  });

  it("a forged, re-signed with another secret, stale or future notice is refused; a body naming another id than the signed URL is refused", async () => {
    const { pix } = await pixPaid();
    expect(await parse(fake.signedNotice(pix.chargeId, { secret: "x".repeat(64) }))).toEqual({ ok: false, reason: "bad_signature" });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: Math.floor(Date.now() / 1000) - 301 }))).toEqual({ ok: false, reason: "stale" });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: Math.floor(Date.now() / 1000) + 301 }))).toEqual({ ok: false, reason: "stale" });
    const n = fake.signedNotice(pix.chargeId);
    expect(await parse({ ...n, query: "data.id=999999&type=payment" })).toEqual({ ok: false, reason: "bad_signature" });
    const { "x-signature": _s, ...unsigned } = n.headers;
    expect(await parse({ ...n, headers: unsigned })).toEqual({ ok: false, reason: "missing_signature" });
    expect(await parse(n, "")).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("ts is read in seconds (the page's example) or in milliseconds (the page's words): each within 300 s is accepted, past it stale", async () => {
    const { pix } = await pixPaid();
    const sec = Math.floor(Date.now() / 1000);
    const ms = Date.now();
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: sec }))).toMatchObject({ ok: true, notification: { kind: "pix_paid" } });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: sec - 290 }))).toMatchObject({ ok: true, notification: { kind: "pix_paid" } });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: ms }))).toMatchObject({ ok: true, notification: { kind: "pix_paid" } });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: ms - 290_000 }))).toMatchObject({ ok: true, notification: { kind: "pix_paid" } });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: ms - 301_000 }))).toEqual({ ok: false, reason: "stale" });
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: ms + 301_000 }))).toEqual({ ok: false, reason: "stale" });
    // A millisecond ts under another secret is still a bad signature, not a window question.
    expect(await parse(fake.signedNotice(pix.chargeId, { ts: ms, secret: "y".repeat(64) }))).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("a notice about a payment Mercado Pago does not know for this account is verified but ignored; an outage while re-fetching throws", async () => {
    expect(await parse(fake.signedNotice("123456"))).toMatchObject({ ok: true, notification: { kind: "ignored" } });
    const { pix } = await pixPaid();
    fake.failNext("500", { method: "GET", path: /^\/v1\/payments\/\d+$/ });
    await unavailable(parse(fake.signedNotice(pix.chargeId)));
  });

  it("card outcomes, refunds and chargebacks read from the payment", async () => {
    const saved = await savedCard();
    const paid = await charge(saved.token);
    expect(await parse(fake.signedNotice(paid.chargeId))).toMatchObject({ ok: true, notification: { kind: "charge_succeeded", idempotencyKey: paid.idempotencyKey } });
    await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(990), idempotencyKey: "r:1" }, now());
    const refundId = String(fake.payments.get(paid.chargeId)!.refunds[0].id);
    expect(await parse(fake.signedNotice(paid.chargeId))).toMatchObject({ ok: true, notification: { kind: "refund_succeeded", objectId: refundId, amountCents: 990 } });
    fake.payments.get(paid.chargeId)!.status = "charged_back";
    expect(await parse(fake.signedNotice(paid.chargeId))).toMatchObject({ ok: true, notification: { kind: "dispute_opened", chargeId: paid.chargeId } });
    const declined = await charge((await savedCard({ holder: "OTHE", number: "4235647728025682" })).token);
    expect(await parse(fake.signedNotice(declined.chargeId))).toMatchObject({ ok: true, notification: { kind: "charge_failed", detailCode: "cc_rejected_other_reason" } });
  });

  it("a refund still in_process is no finished refund: only an approved one is read as refund_succeeded", async () => {
    const saved = await savedCard();
    const paid = await charge(saved.token);
    fake.refundsInProcess = 1;
    await unavailable(adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(990), idempotencyKey: "r:waiting" }, now()));
    const waiting = fake.payments.get(paid.chargeId)!.refunds[0];
    expect(waiting.status).toBe("in_process");
    const before = await parse(fake.signedNotice(paid.chargeId));
    expect(before).toMatchObject({ ok: true });
    expect(before.ok && before.notification.kind).not.toBe("refund_succeeded");
    // A second, approved refund while the first still waits: the notice names the approved one only.
    await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: "r:approved" }, now());
    const approvedId = String(fake.payments.get(paid.chargeId)!.refunds[1].id);
    expect(await parse(fake.signedNotice(paid.chargeId))).toMatchObject({ ok: true, notification: { kind: "refund_succeeded", objectId: approvedId, amountCents: 500 } });
    // Once Mercado Pago approves the first, it is read as finished.
    fake.settleRefund(waiting.id);
    const after = await parse(fake.signedNotice(paid.chargeId));
    expect(after).toMatchObject({ ok: true, notification: { kind: "refund_succeeded" } });
    expect(after.ok && [String(waiting.id), approvedId]).toContain(after.ok && after.notification.objectId);
  });
});

describe("the fake keeps Mercado Pago's rules", () => {
  it("a card token is single use: once it saved a card it pays no more; once it paid it may still save its card, once (400, cause 3003)", async () => {
    const call = async (path: string, body: unknown, key = randomBytes(6).toString("hex")) => {
      const res = await fetch(`${fake.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${ACCESS_TOKEN}`, "content-type": "application/json", "x-idempotency-key": key }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const customer = (await call("/v1/customers", { email: "single@example.com" })).body.id as string;
    const pay = (token: string) => call("/v1/payments", { transaction_amount: 10, token, installments: 1, payment_method_id: "master", payer: { type: "customer", id: customer } });
    const usedUp = { status: 400, body: expect.objectContaining({ message: "Invalid card_token_id", cause: [expect.objectContaining({ code: 3003 })] }) };

    const savedFirst = fake.browserToken();
    expect((await call(`/v1/customers/${customer}/cards`, { token: savedFirst })).status).toBe(201);
    expect(await pay(savedFirst)).toEqual(usedUp);

    const paidFirst = fake.browserToken({ number: "4235647728025682" });
    expect((await call("/v1/payments", { transaction_amount: 10, token: paidFirst, installments: 1, payment_method_id: "visa", payer: { type: "customer", id: customer } })).status).toBe(201);
    expect(await pay(paidFirst)).toEqual(usedUp);
    expect((await call(`/v1/customers/${customer}/cards`, { token: paidFirst })).status).toBe(201);
    expect(await call(`/v1/customers/${customer}/cards`, { token: paidFirst })).toEqual(usedUp);
    fake.requests.length = 0;
  });

  it("a payment or refund without X-Idempotency-Key is refused 400 (cause 4292), as Mercado Pago does", async () => {
    for (const path of ["/v1/payments", "/v1/payments/123/refunds"]) {
      const res = await fetch(`${fake.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${ACCESS_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ transaction_amount: 10, payment_method_id: "pix" }) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "bad_request", status: 400, cause: [{ code: 4292 }] });
    }
    expect(fake.payments.size).toBe(0);
    // These two were ours, on purpose: the after-each check is about the adapter's requests.
    fake.requests.length = 0;
  });
});

describe("amounts on the wire", () => {
  it("cents become decimal reais from their digits", () => {
    expect([0, 1, 10, 99, 100, 4990, 12345, 100000007].map((c) => toReais(cents(c)))).toEqual([0, 0.01, 0.1, 0.99, 1, 49.9, 123.45, 1000000.07]);
  });

  it("a negative amount keeps its sign, under one real too", () => {
    expect([-1, -50, -99, -100, -150, -4990].map((c) => toReais(c))).toEqual([-0.01, -0.5, -0.99, -1, -1.5, -49.9]);
  });
});
