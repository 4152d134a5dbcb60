// The Stripe adapter against the local fake of Stripe (test/fakes/stripe/): no request leaves loopback.
// Each test gets its own fake, so counters and faults never leak between tests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayUnavailable, type GatewayAccountRef, type GatewayCredentials } from "../../../core/gateways/adapter.ts";
import { ADAPTER_DEFAULTS } from "../../../core/gateways/capabilities.ts";
import { CredentialsVault, loadCredentialKeys } from "../../../core/gateways/credentials-vault.ts";
import { parseBrCode } from "../../../core/gateways/pix-br-code.ts";
import { createGateways } from "../../../core/gateways/registry.ts";
import { parseStripeToken, StripeAdapter } from "../../../core/gateways/stripe-adapter.ts";
import { FakeStripe, startFakeStripe } from "../../fakes/stripe/fake-stripe.ts";
import { signatureHeader } from "../../fakes/stripe/signing.ts";
import { cents } from "../../../core/shared/money.ts";

const SECRET_KEY = `sk_test_${randomBytes(16).toString("hex")}`;
const REVOKED_KEY = `sk_test_${randomBytes(16).toString("hex")}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`;
const ACCOUNT: GatewayAccountRef = { id: "gwa_01JSTRIPETEST000000000000", tenantId: "tn_01JSTRIPETEST0000000000000", provider: "stripe", capabilities: ADAPTER_DEFAULTS.stripe! };
const CUSTOMER = { customerRef: "cus_01JSTRIPECUSTOMER000000000", email: "ana@example.com", name: "Ana Souza" };
const RETURN_URL = "https://billing.example.com/pay/return";

let fake: FakeStripe;
let adapter: StripeAdapter;
let credentials: GatewayCredentials;
const now = () => new Date();
let seq = 0;
const key = (label = "inv") => `${label}_01JTEST${String(++seq).padStart(6, "0")}:1`;

beforeEach(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, revokedKeys: [REVOKED_KEY], webhookSecret: WEBHOOK_SECRET, hangMs: 1_500 });
  credentials = { credentials: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET }, apiBaseUrl: fake.url };
  adapter = new StripeAdapter(async () => credentials, { timeoutMs: 500, returnUrl: RETURN_URL });
});
afterEach(async () => {
  // Stripe's rule, checked after every test: each POST carried an Idempotency-Key.
  expect(fake.requests.filter((r) => r.method === "POST" && !r.idempotencyKey)).toEqual([]);
  await fake.close();
});

async function savedCard(pm = "pm_card_visa", customerRef = CUSTOMER.customerRef) {
  const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: pm, ...CUSTOMER, customerRef }, now());
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

/** A test card attached straight to a new customer (Stripe.js + a SetupIntent confirmed in the browser would do this). */
async function attachedOutsideUs(testPm: string): Promise<string> {
  const url = new URL(fake.url);
  const stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: url.port, protocol: "http", maxNetworkRetries: 0 });
  const customer = await stripe.customers.create({ email: CUSTOMER.email }, { idempotencyKey: key("setup") });
  const pm = await stripe.paymentMethods.attach(testPm, { customer: customer.id }, { idempotencyKey: key("attach") });
  return `${customer.id}|${pm.id}`;
}

describe("Stripe adapter: cards are tokenized in the browser (PCI SAQ A)", () => {
  it("tokenizeCard refuses a card number without calling Stripe", async () => {
    const result = await adapter.tokenizeCard(ACCOUNT, { holder: "Ana", number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123" }, now());
    expect(result).toEqual({ ok: false, code: "card_number_not_accepted" });
    expect(fake.requests).toEqual([]);
  });

  it("savePaymentMethod refuses anything but a pm_ id (a card number included) without calling Stripe", async () => {
    for (const paymentMethodId of ["4242424242424242", "tok_visa", "pm_x y", ""]) {
      expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId, ...CUSTOMER }, now())).toEqual({ ok: false, code: "invalid_payment_method" });
    }
    expect(fake.requests).toEqual([]);
  });

  it("saves a card: a Stripe customer for ours, the payment method set up off-session and attached to it", async () => {
    const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_card_visa", ...CUSTOMER }, now());
    expect(saved).toMatchObject({ ok: true, brand: "visa", last4: "4242", expMonth: 12 });
    const token = parseStripeToken((saved as { token: string }).token)!;
    expect(token.customer).toMatch(/^cus_/);
    expect(token.paymentMethod).toMatch(/^pm_/);
    expect(token.paymentMethod).not.toBe("pm_card_visa"); // Stripe gives a test method a new id on use
    const customer = fake.customers.get(token.customer)!;
    expect(customer).toMatchObject({ email: CUSTOMER.email, name: CUSTOMER.name, metadata: { customer_ref: CUSTOMER.customerRef } });
    expect(fake.paymentMethods.get(token.paymentMethod)!.customer).toBe(token.customer);
    expect([...fake.setupIntents.values()]).toMatchObject([{ status: "succeeded", usage: "off_session", customer: token.customer }]);

    // A second card of the same customer reuses the Stripe customer (found by metadata, or through the token).
    const second = parseStripeToken(await savedCard("pm_card_mastercard"))!;
    const third = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_card_visa", ...CUSTOMER, existingToken: (saved as { token: string }).token }, now());
    expect(second.customer).toBe(token.customer);
    expect(parseStripeToken((third as { token: string }).token)!.customer).toBe(token.customer);
    expect(fake.customers.size).toBe(1);
  });

  it("a card the issuer refuses is not saved; one that needs 3-D Secure asks for it", async () => {
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_card_chargeDeclined", ...CUSTOMER }, now())).toEqual({ ok: false, code: "generic_decline" });
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_card_authenticationRequired", ...CUSTOMER }, now())).toEqual({
      ok: false,
      code: "authentication_required",
      nextAction: expect.stringMatching(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/),
    });
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_nonexistent", ...CUSTOMER }, now())).toEqual({ ok: false, code: "invalid_payment_method" });
  });
});

describe("Stripe adapter: 3-D Secure when saving a card (SetupIntent requires_action, confirmed by Stripe.js)", () => {
  /** Step 1 (server) and the browser's challenge at the fake; returns the handle and the SetupIntent's PaymentMethod. */
  async function authenticated(outcome: "complete" | "fail", pm = "pm_card_authenticationRequiredOnSetup", customer = CUSTOMER) {
    const first = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: pm, ...customer }, now());
    if (first.ok || !first.nextAction) throw new Error("expected requires_action");
    const id = first.nextAction.split("_secret_")[0]!;
    const si = fake.authenticateSetup(id, first.nextAction, outcome);
    return { handle: first.nextAction, pm: (fake.setupIntents.get(id)!.payment_method as string | null) ?? (si.payment_method as string | null) ?? "pm_none", id };
  }

  it("completed in the browser: the SetupIntent is fetched from Stripe, checked, and the card saved; later off-session charges need no 3-D Secure", async () => {
    const a = await authenticated("complete");
    const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: a.pm, ...CUSTOMER, authentication: { handle: a.handle } }, now());
    expect(saved).toMatchObject({ ok: true, brand: "visa", last4: "3155" });
    expect(fake.requests.some((r) => r.method === "GET" && r.path === `/v1/setup_intents/${a.id}`)).toBe(true);
    // Confirmed on our server for Stripe.js to finish (handleNextAction): use_stripe_sdk, off-session usage.
    expect(fake.requests.find((r) => r.method === "POST" && r.path === "/v1/setup_intents")?.params).toMatchObject({ use_stripe_sdk: "true", usage: "off_session", confirm: "true" });
    const renewal = await charge((saved as { token: string }).token, { offSession: true });
    expect(renewal.outcome).toBe("approved");
  });

  it("never trusts the browser: a failed challenge, another customer's SetupIntent, another card or a forged handle save nothing", async () => {
    const failed = await authenticated("fail", "pm_card_threeDSecure2Required");
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_card_visa", ...CUSTOMER, authentication: { handle: failed.handle } }, now())).toMatchObject({ ok: false });

    const other = await authenticated("complete", "pm_card_authenticationRequiredOnSetup", { ...CUSTOMER, customerRef: "cus_01JSTRIPEOTHER0000000000000" });
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: other.pm, ...CUSTOMER, authentication: { handle: other.handle } }, now())).toEqual({ ok: false, code: "authentication_failed" });

    const mine = await authenticated("complete");
    const stranger = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: "pm_card_mastercard", ...CUSTOMER }, now());
    const strangerPm = parseStripeToken((stranger as { token: string }).token)!.paymentMethod;
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: strangerPm, ...CUSTOMER, authentication: { handle: mine.handle } }, now())).toEqual({ ok: false, code: "authentication_failed" });
    const forged = `${mine.id}_secret_${"A".repeat(20)}`;
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: mine.pm, ...CUSTOMER, authentication: { handle: forged } }, now())).toEqual({ ok: false, code: "authentication_failed" });
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: mine.pm, ...CUSTOMER, authentication: { handle: "not a handle" } }, now())).toEqual({ ok: false, code: "authentication_failed" });
    // The genuine pair still works.
    expect(await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: mine.pm, ...CUSTOMER, authentication: { handle: mine.handle } }, now())).toMatchObject({ ok: true });
  });

  it("a new checkout customer: the cus_ id the SetupIntent carries is handed back; 4000008260003178 is saved, then declined for funds", async () => {
    const ref = "cus_01JSTRIPENEWCUSTOMER00000000";
    const a = await authenticated("complete", "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds", { ...CUSTOMER, customerRef: ref });
    const saved = await adapter.savePaymentMethod(ACCOUNT, { paymentMethodId: a.pm, ...CUSTOMER, customerRef: "cus_01JSTRIPESECONDPOST00000000", authentication: { handle: a.handle, newCustomer: true } }, now());
    expect(saved).toMatchObject({ ok: true, customerRef: ref, last4: "3178" });
    expect((await charge((saved as { token: string }).token)).detailCode).toBe("insufficient_funds");
  });
});

describe("Stripe adapter: charges", () => {
  it("charges on-session and off-session: a confirmed PaymentIntent carrying our key and reference", async () => {
    const token = await savedCard();
    const onPage = await charge(token);
    const renewal = await charge(token, { offSession: true });
    expect(onPage).toMatchObject({ outcome: "approved", detailCode: "" });
    expect(renewal).toMatchObject({ outcome: "approved", detailCode: "" });
    const pi = fake.paymentIntents.get(renewal.chargeId)!;
    expect(pi).toMatchObject({ status: "succeeded", amount: 4990, amount_received: 4990, currency: "brl", metadata: { reference: renewal.idempotencyKey.split(":")[0], idempotency_key: renewal.idempotencyKey } });
    expect(fake.requests.find((r) => r.path === "/v1/payment_intents" && r.idempotencyKey === renewal.idempotencyKey)).toBeTruthy();
    expect(fake.chargesFor(onPage.idempotencyKey)).toBe(1);
    expect(fake.chargesFor(renewal.idempotencyKey)).toBe(1);
  });

  it("on-session confirmations (saving a card, a charge on our page) carry a return_url to our page; an off-session renewal and a Pix none", async () => {
    const token = await savedCard();
    await charge(token);
    await charge(token, { offSession: true });
    await adapter.createPixCharge(ACCOUNT, { amountCents: cents(1000), currency: "BRL", idempotencyKey: key(), reference: "inv_01JPIXRU", expiresAt: new Date(Date.now() + 3_600_000) }, now());
    const posts = fake.requests.filter((r) => r.method === "POST" && /^\/v1\/(setup|payment)_intents$/.test(r.path));
    expect(posts.map((r) => [r.path, r.params.off_session ?? null, r.params.return_url ?? null, r.status])).toEqual([
      ["/v1/setup_intents", null, RETURN_URL, 200],
      ["/v1/payment_intents", "false", RETURN_URL, 200],
      ["/v1/payment_intents", "true", null, 200],
      ["/v1/payment_intents", null, null, 200],
    ]);
  });

  it("the fake, like Stripe, refuses an on-session confirmation without a return_url while redirects are allowed", async () => {
    const url = new URL(fake.url);
    const stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: url.port, protocol: "http", maxNetworkRetries: 0 });
    const customer = await stripe.customers.create({ email: CUSTOMER.email }, { idempotencyKey: key("cus") });
    const refusal = { type: "StripeInvalidRequestError", param: "return_url", message: expect.stringMatching(/^A `return_url` must be specified because this (Setup|Payment) Intent is configured to automatically accept the payment methods enabled in the Dashboard/) };
    const setup = (extra: Partial<Stripe.SetupIntentCreateParams>) =>
      stripe.setupIntents.create({ customer: customer.id, payment_method: "pm_card_visa", confirm: true, usage: "off_session", allowed_payment_method_types: ["card"], ...extra }, { idempotencyKey: key("seti") });
    await expect(setup({})).rejects.toMatchObject(refusal);
    await expect(setup({ return_url: RETURN_URL })).resolves.toMatchObject({ status: "succeeded" });
    await expect(setup({ automatic_payment_methods: { enabled: true, allow_redirects: "never" } })).resolves.toMatchObject({ status: "succeeded" });
    const pay = (extra: Partial<Stripe.PaymentIntentCreateParams>) =>
      stripe.paymentIntents.create({ amount: 1000, currency: "brl", payment_method: "pm_card_visa", allowed_payment_method_types: ["card"], confirm: true, ...extra }, { idempotencyKey: key("pi") });
    await expect(pay({})).rejects.toMatchObject(refusal);
    await expect(pay({ return_url: RETURN_URL })).resolves.toMatchObject({ status: "succeeded" });
    await expect(pay({ off_session: true })).resolves.toMatchObject({ status: "succeeded" });
    // Nothing was made by a refused confirmation.
    expect(fake.setupIntents.size).toBe(2);
    expect(fake.paymentIntents.size).toBe(2);
  });

  it("a decline is declined with Stripe's decline_code as the detail code, and nothing is charged", async () => {
    const failing = await savedCard("pm_card_chargeCustomerFail"); // saves fine, every charge declines
    const poor = await savedCard("pm_card_chargeDeclinedInsufficientFunds");
    const declined = await charge(failing, { offSession: true });
    const insufficient = await charge(poor);
    expect(declined).toMatchObject({ outcome: "declined", detailCode: "generic_decline" });
    expect(declined.chargeId).toMatch(/^pi_/);
    expect(insufficient).toMatchObject({ outcome: "declined", detailCode: "insufficient_funds" });
    expect(fake.totalCharges).toBe(0);
  });

  it("3-D Secure on an off-session renewal is a decline authentication_required (dunning sends a /pay link)", async () => {
    const token = await attachedOutsideUs("pm_card_authenticationRequired");
    const renewal = await charge(token, { offSession: true });
    expect(renewal).toMatchObject({ outcome: "declined", detailCode: "authentication_required" });
    // Declined by Stripe because the customer is away (off_session), not cancelled by us.
    expect(fake.paymentIntents.get(renewal.chargeId)).toMatchObject({ status: "requires_payment_method", last_payment_error: { code: "authentication_required" } });
    // On a page, the PaymentIntent would wait for the browser: it is cancelled so it can never complete unseen.
    const onPage = await charge(token);
    expect(onPage).toMatchObject({ outcome: "declined", detailCode: "authentication_required" });
    expect(fake.paymentIntents.get(onPage.chargeId)!.status).toBe("canceled");
    expect(fake.totalCharges).toBe(0);
  });

  it("below Stripe's minimum for BRL (R$0.50) is refused by Stripe and read as a decline", async () => {
    expect(adapter.defaults).toEqual({ sumsPartialRefunds: true, capturesCardOnlyOnPaymentPage: false, minimumChargeCents: 50, supportsPix: true, supportsCard: true });
    const token = await savedCard();
    expect(await charge(token, { amountCents: cents(49) })).toMatchObject({ outcome: "declined", detailCode: "amount_too_small" });
    expect(await charge(token, { amountCents: cents(50) })).toMatchObject({ outcome: "approved" });
  });

  it("a token that is not ours is declined invalid_token without a call", async () => {
    const before = fake.requests.length;
    expect(await charge("tok_sandbox_approve_01J")).toMatchObject({ outcome: "declined", detailCode: "invalid_token" });
    expect(fake.requests.length).toBe(before);
  });
});

describe("Stripe adapter: idempotency and unknown outcomes", () => {
  it("the same key twice is one charge: Stripe replays the first answer", async () => {
    const token = await savedCard();
    const first = await charge(token, { offSession: true });
    const again = await charge(token, { offSession: true, idempotencyKey: first.idempotencyKey });
    expect(again).toMatchObject({ outcome: "approved", chargeId: first.chargeId });
    expect(fake.chargesFor(first.idempotencyKey)).toBe(1);
    expect(fake.requests.filter((r) => r.idempotencyKey === first.idempotencyKey).map((r) => r.replayed)).toEqual([false, true]);
    // The same key with other parameters is Stripe's idempotency_error: unknown, never a second charge.
    const other = await unavailable(charge(token, { offSession: true, idempotencyKey: first.idempotencyKey, amountCents: cents(9990) }));
    expect(other.detailCode).toBe("idempotency_conflict");
    expect(fake.totalCharges).toBe(1);
  });

  it("a 5xx before Stripe did anything: unknown, then fetchStatus says not_found (safe to try again)", async () => {
    const token = await savedCard();
    fake.failNext("500", { path: /^\/v1\/payment_intents$/ });
    const k = key();
    const err = await unavailable(charge(token, { idempotencyKey: k, offSession: true }));
    expect(err.detailCode).toBe("gateway_error");
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toEqual({ outcome: "not_found", chargeId: "", detailCode: "" });
    expect(fake.totalCharges).toBe(0);
  });

  it("a 5xx after the charge: unknown; a retry hears the saved 500 again; fetchStatus finds the real outcome, charged once", async () => {
    const token = await savedCard();
    fake.failNext("500_after", { path: /^\/v1\/payment_intents$/ });
    const k = key();
    await unavailable(charge(token, { idempotencyKey: k, offSession: true }));
    await unavailable(charge(token, { idempotencyKey: k, offSession: true })); // Stripe replays 500s too
    expect(fake.requests.filter((r) => r.idempotencyKey === k).map((r) => [r.status, r.replayed])).toEqual([
      [500, false],
      [500, true],
    ]);
    const status = await adapter.fetchStatus(ACCOUNT, k, now());
    expect(status).toMatchObject({ outcome: "approved", detailCode: "" });
    expect(fake.paymentIntents.get(status.chargeId)!.metadata.idempotency_key).toBe(k);
    expect(fake.chargesFor(k)).toBe(1);
    expect(fake.totalCharges).toBe(1);
  });

  it("a timeout after the charge: unknown (timeout), and fetchStatus finds it even before search indexes it", async () => {
    const token = await savedCard();
    fake.failNext("hang", { path: /^\/v1\/payment_intents$/ });
    const k = key();
    const err = await unavailable(charge(token, { idempotencyKey: k, offSession: true }));
    expect(err.detailCode).toBe("timeout");
    fake.searchIndexed = false; // Stripe's search lags: the strongly consistent list still sees it
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "approved" });
    expect(fake.requests.some((r) => r.method === "GET" && r.path === "/v1/payment_intents")).toBe(true);
    expect(fake.chargesFor(k)).toBe(1);
  });

  it("fetchStatus reads a decline as declined with its code", async () => {
    const token = await savedCard("pm_card_chargeDeclinedInsufficientFunds");
    const declined = await charge(token, { offSession: true });
    expect(await adapter.fetchStatus(ACCOUNT, declined.idempotencyKey, now())).toEqual({ outcome: "declined", chargeId: declined.chargeId, detailCode: "insufficient_funds" });
  });

  it("Stripe unreachable: unknown (connection_error), and no secret in the error", async () => {
    credentials = { ...credentials, apiBaseUrl: "http://127.0.0.1:9" };
    const err = await unavailable(charge("cus_X|pm_Y", { offSession: true }));
    expect(err.detailCode).toBe("connection_error");
    expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain(SECRET_KEY);
  });

  it("a wrong key on a charge is unknown (authentication_failed), never a decline, and the key is not echoed", async () => {
    credentials = { ...credentials, credentials: { secretKey: `sk_test_${"w".repeat(32)}` } };
    const err = await unavailable(charge("cus_X|pm_Y", { offSession: true }));
    expect(err.detailCode).toBe("authentication_failed");
    expect(`${err.message} ${JSON.stringify(err)}`).not.toContain("w".repeat(32));
  });
});

describe("Stripe adapter: Pix", () => {
  it("creates a Pix PaymentIntent whose copy-and-paste code is shown on our page; paid, it is approved", async () => {
    const k = key();
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000);
    const pix = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(4990), currency: "BRL", idempotencyKey: k, reference: "inv_01JPIX", expiresAt }, now());
    expect(pix.chargeId).toMatch(/^pi_/);
    expect(pix.expiresAt).toEqual(expiresAt);
    expect(parseBrCode(pix.copyPaste)?.get("54")).toBe("49.90");
    const pi = fake.paymentIntents.get(pix.chargeId)!;
    expect(pi).toMatchObject({ status: "requires_action", payment_method_types: ["pix"], metadata: { reference: "inv_01JPIX", idempotency_key: k } });
    expect(pi.next_action.pix_display_qr_code).toMatchObject({ data: pix.copyPaste, expires_at: expiresAt.getTime() / 1000 });
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toMatchObject({ outcome: "pending", chargeId: pix.chargeId });
    // Asked again (the next pass): the same Pix.
    expect((await adapter.createPixCharge(ACCOUNT, { amountCents: cents(4990), currency: "BRL", idempotencyKey: k, reference: "inv_01JPIX", expiresAt }, now())).chargeId).toBe(pix.chargeId);

    fake.payPix(pix.copyPaste);
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toEqual({ outcome: "approved", chargeId: pix.chargeId, detailCode: "", amountCents: 4990 });
    expect(fake.chargesFor(k)).toBe(1);
  });

  it("a Pix creation stuck on a saved 500 is recovered: the Pix Stripe made is found by its metadata", async () => {
    const k = key();
    const req = { amountCents: cents(1000), currency: "BRL", idempotencyKey: k, reference: "inv_01JPIX2", expiresAt: new Date(Date.now() + 3_600_000) };
    fake.failNext("500_after", { path: /^\/v1\/payment_intents$/ });
    await unavailable(adapter.createPixCharge(ACCOUNT, req, now()));
    const made = [...fake.paymentIntents.values()];
    expect(made).toHaveLength(1);
    expect((await adapter.createPixCharge(ACCOUNT, req, now())).chargeId).toBe(made[0]!.id);
    expect(fake.paymentIntents.size).toBe(1);
    expect(fake.requests.filter((r) => r.idempotencyKey === k).map((r) => r.replayed)).toEqual([false, true]);
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/payment_intents/search" });
  });

  it("a Pix asked to live past Stripe's 14 days is capped with a margin: our clock a few seconds ahead of Stripe's is still accepted", async () => {
    // Our server's clock runs 5 s ahead of Stripe's (the fake measures on the real clock, as Stripe does on its own).
    const ahead = new StripeAdapter(async () => credentials, { timeoutMs: 2_000, wallClock: { now: () => new Date(Date.now() + 5_000) } });
    const k = key();
    const asked = new Date(Date.now() + 30 * 86_400_000);
    const pix = await ahead.createPixCharge(ACCOUNT, { amountCents: cents(1000), currency: "BRL", idempotencyKey: k, reference: "inv_01JPIX4", expiresAt: asked }, new Date(Date.now() + 5_000));
    const expiresAt = fake.paymentIntents.get(pix.chargeId)!.next_action.pix_display_qr_code.expires_at as number;
    const stripeNow = Date.now() / 1000;
    expect(expiresAt).toBeLessThanOrEqual(stripeNow + 14 * 86_400 - 1_800);
    expect(expiresAt).toBeGreaterThan(stripeNow + 13 * 86_400);
    expect(pix.expiresAt.getTime()).toBe(expiresAt * 1000);
    // A sandbox tenant's clock days ahead (the expiry shifted onto Stripe's clock) is capped the same way.
    const sandboxNow = new Date(Date.now() + 10 * 86_400_000);
    const shifted = await ahead.createPixCharge(ACCOUNT, { amountCents: cents(1000), currency: "BRL", idempotencyKey: key(), reference: "inv_01JPIX5", expiresAt: new Date(sandboxNow.getTime() + 20 * 86_400_000) }, sandboxNow);
    expect(fake.paymentIntents.get(shifted.chargeId)!.next_action.pix_display_qr_code.expires_at).toBeLessThanOrEqual(Date.now() / 1000 + 14 * 86_400 - 1_800);
  });

  it("the fake, like Stripe, refuses a Pix expiry past 14 days from its own clock", async () => {
    const url = new URL(fake.url);
    const stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: url.port, protocol: "http", maxNetworkRetries: 0 });
    const create = (expires_at: number) =>
      stripe.paymentIntents.create(
        { amount: 1000, currency: "brl", allowed_payment_method_types: ["pix"], payment_method_data: { type: "pix" }, payment_method_options: { pix: { expires_at } }, confirm: true },
        { idempotencyKey: key("pix") },
      );
    await expect(create(Math.floor(Date.now() / 1000) + 14 * 86_400 + 5)).rejects.toMatchObject({ type: "StripeInvalidRequestError", param: "payment_method_options[pix][expires_at]" });
    await expect(create(Math.floor(Date.now() / 1000) + 14 * 86_400 - 60)).resolves.toMatchObject({ status: "requires_action" });
  });

  it("an expired Pix reads as declined", async () => {
    const k = key();
    const pix = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(1000), currency: "BRL", idempotencyKey: k, reference: "inv_01JPIX3", expiresAt: new Date(Date.now() + 3_600_000) }, now());
    fake.expirePix(pix.chargeId);
    expect(await adapter.fetchStatus(ACCOUNT, k, now())).toEqual({ outcome: "declined", chargeId: pix.chargeId, detailCode: "payment_intent_payment_attempt_expired" });
  });
});

describe("Stripe adapter: refunds", () => {
  it("partial refunds sum up to the charge; a replayed key is the same refund; past the balance is declined", async () => {
    const paid = await charge(await savedCard(), { amountCents: cents(10_000) });
    const r1 = await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3_000), idempotencyKey: `${paid.chargeId}:refund:1` }, now());
    const r2 = await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(7_000), idempotencyKey: `${paid.chargeId}:refund:2` }, now());
    expect(r1).toMatchObject({ outcome: "refunded", detailCode: "" });
    expect(r2).toMatchObject({ outcome: "refunded", detailCode: "" });
    expect(r1.refundId).toMatch(/^re_/);
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(3_000), idempotencyKey: `${paid.chargeId}:refund:1` }, now())).toEqual(r1);
    expect(await adapter.refund(ACCOUNT, { chargeId: paid.chargeId, amountCents: cents(1), idempotencyKey: `${paid.chargeId}:refund:3` }, now())).toEqual({ outcome: "declined", refundId: "", detailCode: "charge_already_refunded" });
    expect(fake.refunds.size).toBe(2);
    expect([...fake.refunds.values()].map((r) => [r.amount, r.metadata.idempotency_key])).toEqual([
      [3_000, `${paid.chargeId}:refund:1`],
      [7_000, `${paid.chargeId}:refund:2`],
    ]);

    const other = await charge(await savedCard(), { amountCents: cents(5_000) });
    expect(await adapter.refund(ACCOUNT, { chargeId: other.chargeId, amountCents: cents(6_000), idempotencyKey: `${other.chargeId}:refund:1` }, now())).toMatchObject({ outcome: "declined", detailCode: "amount_too_large" });
    expect(await adapter.refund(ACCOUNT, { chargeId: other.chargeId, amountCents: cents(5_000), idempotencyKey: `${other.chargeId}:refund:2` }, now())).toMatchObject({ outcome: "refunded" });
  });

  it("a pending refund is unknown until Stripe settles it; asked again with its key, it is the same refund", async () => {
    const paid = await charge(await savedCard(), { amountCents: cents(2_000) });
    fake.nextRefundStatus = "pending";
    const req = { chargeId: paid.chargeId, amountCents: cents(2_000), idempotencyKey: `${paid.chargeId}:refund:1` };
    expect((await unavailable(adapter.refund(ACCOUNT, req, now()))).detailCode).toBe("refund_pending");
    const [pending] = [...fake.refunds.values()];
    fake.settleRefund(pending!.id, "succeeded");
    expect(await adapter.refund(ACCOUNT, req, now())).toEqual({ outcome: "refunded", refundId: pending!.id, detailCode: "" });
    expect(fake.refunds.size).toBe(1);
  });

  it("a refund retried after Stripe pruned its key (24 h) is found by its metadata, not made twice", async () => {
    const paid = await charge(await savedCard(), { amountCents: cents(2_000) });
    const req = { chargeId: paid.chargeId, amountCents: cents(800), idempotencyKey: `${paid.chargeId}:refund:1` };
    const first = await adapter.refund(ACCOUNT, req, now());
    fake.pruneIdempotencyKeys();
    expect(await adapter.refund(ACCOUNT, req, now())).toEqual(first);
    expect(fake.refunds.size).toBe(1);
  });

  it("a refund lost in a timeout happened once: the retry finds it", async () => {
    const paid = await charge(await savedCard(), { amountCents: cents(2_000) });
    const req = { chargeId: paid.chargeId, amountCents: cents(500), idempotencyKey: `${paid.chargeId}:refund:1` };
    fake.failNext("hang", { path: /^\/v1\/refunds$/ });
    expect((await unavailable(adapter.refund(ACCOUNT, req, now()))).detailCode).toBe("timeout");
    expect(await adapter.refund(ACCOUNT, req, now())).toMatchObject({ outcome: "refunded" });
    expect(fake.refunds.size).toBe(1);
  });
});

describe("Stripe adapter: webhooks (Stripe-Signature, 300 s)", () => {
  const parse = (rawBody: string, headers: Record<string, string>, at = now(), secret = WEBHOOK_SECRET) => adapter.parseWebhook(Buffer.from(rawBody), headers, secret, at);

  it("verifies a signed notice and normalizes it: Pix paid, charge succeeded or failed, refund, dispute, ignored", async () => {
    const pixKey = key();
    const pix = await adapter.createPixCharge(ACCOUNT, { amountCents: cents(4990), currency: "BRL", idempotencyKey: pixKey, reference: "inv_01JHOOK", expiresAt: new Date(Date.now() + 3_600_000) }, now());
    fake.payPix(pix.chargeId);
    const paid = fake.lastEvent("payment_intent.succeeded")!;
    const signed = fake.signed(paid);
    expect(await parse(signed.rawBody, signed.headers)).toEqual({
      ok: true,
      notification: {
        eventId: paid.id,
        providerType: "payment_intent.succeeded",
        kind: "pix_paid",
        chargeId: pix.chargeId,
        objectId: "",
        idempotencyKey: pixKey,
        reference: "inv_01JHOOK",
        amountCents: cents(4990),
        detailCode: "",
        occurredAt: new Date(paid.created * 1000),
        livemode: false,
      },
    });

    const card = await charge(await savedCard(), { amountCents: cents(3000) });
    const notice = async (type: string) => {
      const s = fake.signed(fake.lastEvent(type)!);
      const parsed = await parse(s.rawBody, s.headers);
      if (!parsed.ok) throw new Error(parsed.reason);
      return parsed.notification;
    };
    expect(await notice("payment_intent.succeeded")).toMatchObject({ kind: "charge_succeeded", chargeId: card.chargeId, idempotencyKey: card.idempotencyKey, amountCents: cents(3000) });
    expect(await notice("setup_intent.succeeded")).toMatchObject({ kind: "ignored", chargeId: "" });

    await charge(await savedCard("pm_card_chargeCustomerFail"), { offSession: true });
    expect(await notice("payment_intent.payment_failed")).toMatchObject({ kind: "charge_failed", detailCode: "generic_decline", amountCents: cents(4990) });

    const refund = await adapter.refund(ACCOUNT, { chargeId: card.chargeId, amountCents: cents(1000), idempotencyKey: `${card.chargeId}:refund:1` }, now());
    expect(await notice("refund.created")).toMatchObject({ kind: "refund_succeeded", chargeId: card.chargeId, objectId: refund.refundId, idempotencyKey: `${card.chargeId}:refund:1`, amountCents: cents(1000) });

    const disputed = await charge(await savedCard("pm_card_createDispute"), { offSession: true });
    expect(disputed.outcome).toBe("approved");
    expect(await notice("charge.dispute.created")).toMatchObject({ kind: "dispute_opened", chargeId: disputed.chargeId, amountCents: cents(4990), detailCode: "fraudulent" });
  });

  it("refuses a forged, tampered, stale, future-dated, unsigned or malformed notice", async () => {
    await charge(await savedCard());
    const event = fake.lastEvent("payment_intent.succeeded")!;
    const t = Math.floor(Date.now() / 1000);
    const good = fake.signed(event, { timestampSeconds: t });
    expect((await parse(good.rawBody, good.headers)).ok).toBe(true);

    const forged = fake.signed(event, { secret: "whsec_forgedforgedforgedforged" });
    expect(await parse(forged.rawBody, forged.headers)).toEqual({ ok: false, reason: "bad_signature" });
    expect(await parse(good.rawBody.replace('"amount": 4990', '"amount": 1'), good.headers)).toEqual({ ok: false, reason: "bad_signature" });
    expect(await parse(good.rawBody, good.headers, now(), "whsec_otherotherotherother")).toEqual({ ok: false, reason: "bad_signature" });

    const old = fake.signed(event, { timestampSeconds: t - 301 });
    expect(await parse(old.rawBody, old.headers, new Date(t * 1000))).toEqual({ ok: false, reason: "stale" });
    const justInTime = fake.signed(event, { timestampSeconds: t - 299 });
    expect((await parse(justInTime.rawBody, justInTime.headers, new Date(t * 1000))).ok).toBe(true);
    const future = fake.signed(event, { timestampSeconds: t + 301 });
    expect(await parse(future.rawBody, future.headers, new Date(t * 1000))).toEqual({ ok: false, reason: "stale" });

    expect(await parse(good.rawBody, { "content-type": "application/json" })).toEqual({ ok: false, reason: "missing_signature" });
    const garbage = "not json at all";
    const garbageSigned = { ...good.headers, "stripe-signature": signatureHeader(garbage, WEBHOOK_SECRET, t) };
    expect(await parse(garbage, garbageSigned, new Date(t * 1000))).toEqual({ ok: false, reason: "malformed" });
  });

  it("the fake delivers over HTTP exactly what the adapter verifies", async () => {
    const received: { raw: Buffer; headers: http.IncomingHttpHeaders }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ raw: Buffer.concat(chunks), headers: req.headers });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    try {
      await charge(await savedCard());
      const event = fake.lastEvent("payment_intent.succeeded")!;
      expect(await fake.deliver(event, `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateways/gwa_x/webhooks`)).toBe(200);
      const [got] = received;
      const parsed = await adapter.parseWebhook(got!.raw, got!.headers as Record<string, string>, WEBHOOK_SECRET, now());
      expect(parsed).toMatchObject({ ok: true, notification: { eventId: event.id, kind: "charge_succeeded" } });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("Stripe adapter: credentials and customers", () => {
  const check = (c: Record<string, string>, apiBaseUrl: string | null = fake.url) => adapter.verifyCredentials({ credentials: c, apiBaseUrl }, now());

  it("verifyCredentials: the right key passes; a wrong, revoked or publishable key is refused with a reason that never holds it", async () => {
    expect(await check({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET })).toEqual({ ok: true });
    expect(await check({ secretKey: SECRET_KEY })).toEqual({ ok: true }); // the webhook secret comes once the endpoint exists
    const wrong = `sk_test_${"q".repeat(30)}`;
    const refusals = [
      [{ secretKey: wrong }, /does not recognize the key/],
      [{ secretKey: REVOKED_KEY }, /expired or was rolled/],
      [{ secretKey: `pk_test_${"p".repeat(30)}` }, /publishable key/],
      [{ secretKey: "hunter2hunter2" }, /not a Stripe secret key/],
      [{}, /secretKey is missing/],
      [{ secretKey: SECRET_KEY, webhookSecret: "not-a-whsec" }, /webhookSecret/],
    ] as const;
    for (const [c, reason] of refusals) {
      const result = await check({ ...c });
      expect(result.ok).toBe(false);
      const text = (result as { reason: string }).reason;
      expect(text).toMatch(reason);
      for (const secret of Object.values(c)) expect(text).not.toContain(secret);
    }
    // Unreachable: a transport failure, not a verdict on the key (the operator is told to try again).
    await unavailable(check({ secretKey: SECRET_KEY }, "http://127.0.0.1:9"));
  });

  it("updateCustomer pushes name, e-mail and phone to the Stripe customer made for ours; none yet is fine", async () => {
    const token = parseStripeToken(await savedCard())!;
    const sync = { customerId: CUSTOMER.customerRef, name: "Ana S. Lima", email: "ana.lima@example.com", phone: "+5511987654321" };
    expect(await adapter.updateCustomer(ACCOUNT, sync, now())).toEqual({ ok: true });
    expect(fake.customers.get(token.customer)).toMatchObject({ name: "Ana S. Lima", email: "ana.lima@example.com", phone: "+5511987654321" });
    expect(await adapter.updateCustomer(ACCOUNT, { ...sync, customerId: "cus_01JNOBODY0000000000000000" }, now())).toEqual({ ok: true });
  });

  it("the registry runs the Stripe adapter for provider stripe", () => {
    const vault = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: randomBytes(32).toString("base64") }, "/nonexistent"));
    const gateways = createGateways({} as never, vault);
    expect(gateways.has("stripe")).toBe(true);
    expect(gateways.adapter("stripe")).toBeInstanceOf(StripeAdapter);
  });
});
