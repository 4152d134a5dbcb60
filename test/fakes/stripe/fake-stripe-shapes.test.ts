// The fake is only as good as its likeness to Stripe: every answer the adapter reads, fetched through the
// official `stripe` client, and every event the fake emits (charge.*, payment_intent.*, refund.*,
// setup_intent.*, charge.dispute.*) is checked against the `stripe` package's own types (stripe-shapes.ts):
// required fields present, no field Stripe's type lacks, no null where Stripe omits, the right primitives.
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeStripe, startFakeStripe } from "./fake-stripe.ts";
import { loadShapes, shapeErrors, type ShapeName } from "./stripe-shapes.ts";

const SECRET_KEY = `sk_test_${randomBytes(16).toString("hex")}`;
const RETURN_URL = "https://billing.example.com/pay/return";

let fake: FakeStripe;
let stripe: Stripe;
let seq = 0;
const key = (label: string) => `${label}_shapes_${++seq}`;

beforeAll(async () => {
  loadShapes();
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: `whsec_${randomBytes(24).toString("hex")}` });
  const url = new URL(fake.url);
  stripe = new Stripe(SECRET_KEY, { host: url.hostname, port: url.port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(() => fake?.close());

/** The answer as it came over the wire (the client adds only lastResponse). */
function wire(value: unknown): unknown {
  const { lastResponse: _, ...rest } = value as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest));
}

function expectShape(name: ShapeName, value: unknown) {
  expect(shapeErrors(name, wire(value)), `${name} differs from the stripe package's type`).toEqual([]);
}

async function customer() {
  return stripe.customers.create({ email: "ana@example.com", name: "Ana Souza", metadata: { customer_ref: `cus_${++seq}` } }, { idempotencyKey: key("cus") });
}

async function paidIntent(pm = "pm_card_visa") {
  const c = await customer();
  return stripe.paymentIntents.create(
    { amount: 4990, currency: "brl", customer: c.id, payment_method: pm, allowed_payment_method_types: ["card"], confirm: true, return_url: RETURN_URL, metadata: { reference: "inv_1", idempotency_key: key("k") } },
    { idempotencyKey: key("pi") },
  );
}

describe("the Stripe fake answers in the stripe package's shapes", () => {
  it("the checker itself: a null failure_reason, a missing field, an undeclared one and a wrong primitive are caught", () => {
    const refund = { id: "re_1", object: "refund", amount: 100, balance_transaction: null, charge: "ch_1", created: 1, currency: "brl", customer: null, customer_account: null, metadata: {}, payment_intent: "pi_1", payment_method: null, reason: null, receipt_number: null, source_transfer_reversal: null, status: "succeeded", transfer_reversal: null };
    expect(shapeErrors("refund", refund)).toEqual([]);
    expect(shapeErrors("refund", { ...refund, failure_reason: null })).toEqual([expect.stringMatching(/^refund\.failure_reason: null/)]);
    const { currency: _, ...noCurrency } = refund;
    expect(shapeErrors("refund", noCurrency)).toEqual([expect.stringMatching(/^refund\.currency: missing/)]);
    expect(shapeErrors("refund", { ...refund, surprise: 1 })).toEqual([expect.stringMatching(/^refund\.surprise: not a field/)]);
    expect(shapeErrors("refund", { ...refund, amount: "100" })).toEqual([expect.stringMatching(/^refund\.amount: string, expected number/)]);
  });

  it("account, balance, customers (create, search, update)", async () => {
    expectShape("account", await stripe.accounts.retrieveCurrent());
    expectShape("balance", await stripe.balance.retrieve());
    const c = await customer();
    expectShape("customer", c);
    expectShape("customer_search", await stripe.customers.search({ query: `metadata['customer_ref']:'${c.metadata.customer_ref}'`, limit: 10 }));
    expectShape("customer", await stripe.customers.update(c.id, { name: "Ana S.", email: "ana@example.com", phone: "" }, { idempotencyKey: key("cu") }));
  });

  it("setup intents (succeeded, 3-D Secure, retrieved) and their payment methods", async () => {
    const c = await customer();
    const setup = (pm: string) =>
      stripe.setupIntents.create({ customer: c.id, payment_method: pm, confirm: true, use_stripe_sdk: true, return_url: RETURN_URL, usage: "off_session", allowed_payment_method_types: ["card"], metadata: { customer_ref: "cus_1" } }, { idempotencyKey: key("seti") });
    const ok = await setup("pm_card_visa");
    expectShape("setup_intent", ok);
    expectShape("setup_intent", await setup("pm_card_authenticationRequiredOnSetup"));
    expectShape("setup_intent", await stripe.setupIntents.retrieve(ok.id));
    expectShape("payment_method", await stripe.paymentMethods.retrieve(ok.payment_method as string));
    expectShape("payment_method", await stripe.paymentMethods.attach("pm_card_mastercard", { customer: c.id }, { idempotencyKey: key("attach") }));
  });

  it("payment intents: card succeeded, declined (the error's payment_intent), 3-D Secure, canceled, Pix; search and list", async () => {
    const paid = await paidIntent();
    expectShape("payment_intent", paid);
    const declined = await paidIntent("pm_card_chargeDeclinedInsufficientFunds").catch((e: unknown) => e as Stripe.errors.StripeCardError);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expectShape("payment_intent", (declined as Stripe.errors.StripeCardError).payment_intent);
    const challenged = await paidIntent("pm_card_authenticationRequired");
    expectShape("payment_intent", challenged);
    expectShape("payment_intent", await stripe.paymentIntents.cancel(challenged.id, {}, { idempotencyKey: key("cancel") }));
    const pix = await stripe.paymentIntents.create(
      { amount: 1000, currency: "brl", allowed_payment_method_types: ["pix"], payment_method_data: { type: "pix", billing_details: { name: "Ana", email: "ana@example.com" } }, payment_method_options: { pix: { expires_at: Math.floor(Date.now() / 1000) + 3600 } }, confirm: true, metadata: { reference: "inv_2", idempotency_key: key("k") } },
      { idempotencyKey: key("pix") },
    );
    expectShape("payment_intent", pix);
    fake.payPix(pix.id);
    expectShape("payment_intent_search", await stripe.paymentIntents.search({ query: `metadata['idempotency_key']:'${paid.metadata.idempotency_key}'`, limit: 10 }));
    expectShape("payment_intent_list", await stripe.paymentIntents.list({ created: { gte: 0 }, limit: 100 }));
  });

  it("refunds: succeeded (no failure_reason), pending, failed; listed by payment intent", async () => {
    const paid = await paidIntent();
    const refund = await stripe.refunds.create({ payment_intent: paid.id, amount: 1000, metadata: { idempotency_key: key("r") } }, { idempotencyKey: key("re") });
    expect(refund.status).toBe("succeeded");
    expect(Object.keys(wire(refund) as object)).not.toContain("failure_reason");
    expectShape("refund", refund);
    fake.nextRefundStatus = "pending";
    const pending = await stripe.refunds.create({ payment_intent: paid.id, amount: 1000, metadata: { idempotency_key: key("r") } }, { idempotencyKey: key("re") });
    fake.nextRefundStatus = "succeeded";
    expectShape("refund", pending);
    const failed = fake.settleRefund(pending.id, "failed");
    expectShape("refund", failed);
    expect(failed.failure_reason).toBe("declined");
    expectShape("refund_list", await stripe.refunds.list({ payment_intent: paid.id, limit: 100 }));
  });

  it("every event the fake emits (charges with amount_captured, captured, billing_details; intents; refunds; disputes; setups)", async () => {
    const from = fake.events.length;
    const paid = await paidIntent();
    await paidIntent("pm_card_chargeDeclined").catch(() => undefined);
    const challenged = await paidIntent("pm_card_authenticationRequired");
    await stripe.paymentIntents.cancel(challenged.id, {}, { idempotencyKey: key("cancel") });
    await paidIntent("pm_card_createDispute");
    await stripe.refunds.create({ payment_intent: paid.id, amount: 1000 }, { idempotencyKey: key("re") });
    fake.nextRefundStatus = "pending";
    const pending = await stripe.refunds.create({ payment_intent: paid.id, amount: 1000 }, { idempotencyKey: key("re") });
    fake.nextRefundStatus = "succeeded";
    fake.settleRefund(pending.id, "failed");
    const c = await customer();
    await stripe.setupIntents.create({ customer: c.id, payment_method: "pm_card_visa", confirm: true, return_url: RETURN_URL, usage: "off_session" }, { idempotencyKey: key("seti") });
    await stripe.setupIntents.create({ customer: c.id, payment_method: "pm_card_authenticationRequired", confirm: true, return_url: RETURN_URL, usage: "off_session" }, { idempotencyKey: key("seti") });
    const pix = await stripe.paymentIntents.create(
      { amount: 1000, currency: "brl", allowed_payment_method_types: ["pix"], payment_method_data: { type: "pix" }, confirm: true },
      { idempotencyKey: key("pix") },
    );
    fake.expirePix(pix.id);

    const events = fake.events.slice(from);
    const types = new Set(events.map((e) => e.type as string));
    for (const t of ["charge.succeeded", "charge.refunded", "charge.dispute.created", "payment_intent.created", "payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.requires_action", "payment_intent.canceled", "refund.created", "refund.updated", "refund.failed", "setup_intent.succeeded", "setup_intent.requires_action"]) {
      expect(types, t).toContain(t);
    }
    const charge = events.find((e) => e.type === "charge.succeeded")!.data.object;
    expect(charge).toMatchObject({ amount_captured: charge.amount, captured: true, billing_details: { address: null, email: null, name: null, phone: null, tax_id: null } });
    const problems = events.flatMap((e) => shapeErrors("event", e).map((p) => `${e.type}: ${p}`));
    expect(problems).toEqual([]);
  });
});
