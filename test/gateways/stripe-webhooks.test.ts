// Inbound Stripe webhooks: POST /gateways/{gateway_account_id}/webhooks against the fake Stripe
// (test/fakes/stripe/), signed as Stripe signs them. A lost notice, a dispute, and a notice settling a
// charge left unknown by an outage are the contract suite's (test/gateways/contract/). The state is built
// with the core use cases and the Stripe adapter (issuePixCharge, chargeInvoice, refundPayment) on a Stripe
// gateway account pointing at the fake.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issuePixCharge } from "../../core/billing/issue-pix-charge.ts";
import { chargeInvoice } from "../../core/billing/charge-invoice.ts";
import { ensureCycleInvoice } from "../../core/billing/ensure-cycle-invoice.ts";
import { refundPayment } from "../../core/refunds/refund-payment.ts";
import { StripeAdapter } from "../../core/gateways/stripe-adapter.ts";
import { accountRef } from "../../core/gateways/registry.ts";
import { reconcilePayments } from "../../jobs/reconcile-payments.job.ts";
import { REFUSED_NOTICES_PER_MINUTE } from "../../server/gateway-webhooks.ts";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { makeCustomer, makeSubscription } from "../helpers/factories.ts";
import type { TestService } from "../helpers/service.ts";
import { SECRET_KEY, startStripeTestbed, stripeOffer, WEBHOOK_SECRET } from "../helpers/stripe.ts";
import type { TestTenant } from "../helpers/tenant.ts";
import { sendFrom } from "../security/hosted-client.ts";
import { gql } from "../helpers/http.ts";
import { postNotice } from "../helpers/provider-notice.ts";


let fake: FakeStripe;
let svc: TestService;

beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

interface Setup {
  t: TestTenant;
  accountId: string;
  offerId: string;
  url: string;
}

async function stripeTenant(credentials: Record<string, string> = { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET }): Promise<Setup> {
  const offer = await stripeOffer(fake, credentials);
  return { ...offer, url: `${svc.baseUrl}/gateways/${offer.accountId}/webhooks` };
}

const prisma = () => svc.runtime.db.prisma;
const now = () => svc.runtime.wallClock.now();

/** A subscription of the Stripe offer with a card saved at the fake (token cus_|pm_), and its open December invoice. */
async function subscriptionWithInvoice(s: Setup, card = "pm_card_visa") {
  const customer = await makeCustomer(s.t);
  const sub = await makeSubscription(s.t, customer.id, { offerId: s.offerId });
  const account = await prisma().gatewayAccount.findUniqueOrThrow({ where: { id: s.accountId } });
  const saved = await (svc.runtime.gateways.adapter("stripe") as StripeAdapter).savePaymentMethod(
    accountRef(account),
    { paymentMethodId: card, customerRef: customer.id, email: customer.email ?? "maria@example.com", name: "Maria Silva" },
    now(),
  );
  if (!saved.ok) throw new Error(`save failed: ${saved.code}`);
  await prisma().paymentMethod.update({ where: { id: sub.paymentMethodId! }, data: { token: saved.token, gatewayAccountId: s.accountId } });
  const invoice = (await ensureCycleInvoice(svc.runtime, { tenantId: s.t.tenantId, subscriptionId: sub.id, periodStart: sub.currentPeriodEnd!, anchorDay: 1, now: now() }))!;
  return { customer, sub, invoice };
}

async function post(url: string, signed: { rawBody: string; headers: Record<string, string> }) {
  return postNotice(url, signed.headers, signed.rawBody);
}

const eventCount = (s: Setup, type: string) => prisma().event.count({ where: { tenantId: s.t.tenantId, type } });
const notifications = (s: Setup) => prisma().gatewayNotification.findMany({ where: { gatewayAccountId: s.accountId }, orderBy: { id: "asc" } });

/** A Pix of the invoice issued at the fake through the adapter, then paid by the payer's bank. */
async function paidPix(s: Setup) {
  const { invoice } = await subscriptionWithInvoice(s);
  const pix = await issuePixCharge(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, expiresAt: new Date(now().getTime() + 3_600_000), now: now() });
  const payment = await prisma().payment.findUniqueOrThrow({ where: { id: pix.paymentId } });
  fake.payPix(payment.gatewayChargeId);
  const event = fake.lastEvent("payment_intent.succeeded")!;
  expect(event.data.object.id).toBe(payment.gatewayChargeId);
  return { invoice, payment, event };
}

/** The subscription's invoices and their payments as the tenant reads them (GraphQL). */
async function invoicesOf(s: Setup, subscriptionId: string) {
  const r = await gql(
    `query($s: String) { invoices(subscriptionId: $s) { edges { node { id status payments {
       id status amountCents paidAmountCents refundedAmountCents refundInFlight refundReason items { kind amountCents refundedAmountCents } } } } } }`,
    { s: subscriptionId },
    s.t.readKey,
  );
  expect(r.errors).toBeUndefined();
  return r.data.invoices.edges.map((e: any) => e.node);
}

/** The refund requests Stripe received for a PaymentIntent (POST /v1/refunds), as amounts. */
const refundsAsked = (pi: string) => fake.requests.filter((q) => q.method === "POST" && q.path === "/v1/refunds" && q.params.payment_intent === pi && !q.replayed).map((q) => Number(q.params.amount));

describe("Stripe: the money is what Stripe received (amount_received), not what was asked", () => {
  it("a Pix paid short of an open invoice: nothing is paid, the 100 received are refunded (100, not the invoice's amount), the invoice stays open", async () => {
    const s = await stripeTenant();
    const { invoice, payment, event } = await paidPix(s);
    expect(invoice.amountCents).toBeGreaterThan(100);
    const short = structuredClone(event);
    short.data.object.amount_received = 100;
    expect(await post(s.url, fake.signed(short))).toMatchObject({ status: 200, body: { result: "applied" } });

    expect(refundsAsked(payment.gatewayChargeId)).toEqual([100]);
    const [inv] = await invoicesOf(s, invoice.subscriptionId);
    expect(inv).toMatchObject({ id: invoice.id, status: "OPEN" });
    expect(inv.payments).toEqual([
      expect.objectContaining({ id: payment.id, status: "REFUNDED", amountCents: invoice.amountCents, paidAmountCents: 100, refundedAmountCents: 100, refundInFlight: false }),
    ]);
    expect(inv.payments[0].refundReason).toMatch(/menor que o cobrado/);
    expect(await eventCount(s, "invoice.paid")).toBe(0);
    expect(await eventCount(s, "payment.refunded")).toBe(1);
    const row = await fetch(`${svc.baseUrl}/v1/payments/${payment.id}`, { headers: { authorization: `Bearer ${s.t.readKey}` } }).then((r) => r.json() as any);
    expect(row).toMatchObject({ status: "refunded", refunded_amount_cents: 100, refund_in_flight: false });
  });

  it("a Pix paid over an open invoice: the invoice is paid and only the excess is refunded, from its own item", async () => {
    const s = await stripeTenant();
    const { invoice, payment, event } = await paidPix(s);
    const over = structuredClone(event);
    over.data.object.amount_received = invoice.amountCents + 250;
    expect(await post(s.url, fake.signed(over))).toMatchObject({ status: 200, body: { result: "applied" } });

    expect(refundsAsked(payment.gatewayChargeId)).toEqual([250]);
    const [inv] = await invoicesOf(s, invoice.subscriptionId);
    expect(inv).toMatchObject({ id: invoice.id, status: "PAID" });
    expect(inv.payments[0]).toMatchObject({ status: "PAID", amountCents: invoice.amountCents, paidAmountCents: invoice.amountCents + 250, refundedAmountCents: 250, refundInFlight: false });
    expect(inv.payments[0].items).toEqual(
      expect.arrayContaining([
        { kind: "plan", amountCents: invoice.amountCents, refundedAmountCents: 0 },
        { kind: "overpayment", amountCents: 250, refundedAmountCents: 250 },
      ]),
    );
    expect(await eventCount(s, "invoice.paid")).toBe(1);
  });

  it("a Pix for an invoice of a subscription canceled meanwhile, paid short: the surplus refund is of the 100 received", async () => {
    const s = await stripeTenant();
    const { invoice, payment, event } = await paidPix(s);
    // Canceled while its invoice was open (the race settlement-decision.ts guards: a duty read it live just before).
    await prisma().subscription.update({ where: { id: invoice.subscriptionId }, data: { status: "CANCELED", canceledAt: now(), nextBillingAt: null } });
    const short = structuredClone(event);
    short.data.object.amount_received = 100;
    expect(await post(s.url, fake.signed(short))).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(refundsAsked(payment.gatewayChargeId)).toEqual([100]);
    const [inv] = await invoicesOf(s, invoice.subscriptionId);
    expect(inv.status).not.toBe("PAID");
    expect(inv.payments[0]).toMatchObject({ status: "REFUNDED", paidAmountCents: 100, refundedAmountCents: 100 });
  });

  it("a lost notice of a Pix paid short: the reconcile job reads amount_received at Stripe and refunds that, the invoice stays open", async () => {
    const s = await stripeTenant();
    const { invoice, payment } = await paidPix(s);
    fake.paymentIntents.get(payment.gatewayChargeId)!.amount_received = 100;
    await prisma().payment.update({ where: { id: payment.id }, data: { createdAt: new Date(now().getTime() - 5 * 60_000) } });
    await reconcilePayments(svc.runtime);
    expect(refundsAsked(payment.gatewayChargeId)).toEqual([100]);
    const [inv] = await invoicesOf(s, invoice.subscriptionId);
    expect(inv.status).toBe("OPEN");
    expect(inv.payments[0]).toMatchObject({ status: "REFUNDED", paidAmountCents: 100, refundedAmountCents: 100 });
  });
});

describe("POST /gateways/{gateway_account_id}/webhooks (Stripe)", () => {
  it("Pix paid: payment and invoice paid, invoice.paid once; the same event again is 200 duplicate and changes nothing", async () => {
    const s = await stripeTenant();
    const { invoice, payment, event } = await paidPix(s);
    expect(payment.status).toBe("PROCESSING");

    const first = await post(s.url, fake.signed(event));
    expect(first).toMatchObject({ status: 200, body: { received: true, event_id: event.id, result: "applied" } });
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("PAID");
    expect((await prisma().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe("PAID");
    expect(await eventCount(s, "invoice.paid")).toBe(1);
    const rows = await notifications(s);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenantId: s.t.tenantId, providerEventId: event.id, kind: "pix_paid", result: "applied" });
    expect(rows[0]!.appliedAt).not.toBeNull();
    // The summary keeps ids and amounts only: no secret.
    expect(JSON.stringify(rows[0]!.summary)).not.toMatch(/whsec_|sk_test_/);

    const events = await prisma().event.count({ where: { tenantId: s.t.tenantId } });
    // Stripe delivers again when our 200 was lost: verified, already recorded, answered 200, nothing written.
    const replay = await post(s.url, fake.signed(event));
    expect(replay).toMatchObject({ status: 200, body: { received: true, event_id: event.id, result: "duplicate" } });
    expect(await prisma().event.count({ where: { tenantId: s.t.tenantId } })).toBe(events);
    expect(await notifications(s)).toHaveLength(1);
    expect((await prisma().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe("PAID");
  });

  it("verified duplicates never count as refusals; a forged or stale copy of the same event is still 400", async () => {
    const s = await stripeTenant();
    const { event } = await paidPix(s);
    const from = "127.0.0.81";
    const send = (signed: { rawBody: string; headers: Record<string, string> }) => sendFrom(from, svc.baseUrl, `/gateways/${s.accountId}/webhooks`, signed.rawBody, signed.headers);
    expect((await send(fake.signed(event))).json()).toMatchObject({ result: "applied" });
    const answers: number[] = [];
    for (let i = 0; i <= REFUSED_NOTICES_PER_MINUTE; i++) answers.push((await send(fake.signed(event))).status);
    expect(answers).toEqual(Array(REFUSED_NOTICES_PER_MINUTE + 1).fill(200));
    expect(await notifications(s)).toHaveLength(1);
    expect(await eventCount(s, "invoice.paid")).toBe(1);
    // The budget is untouched: a forged and a stale copy are refused (400), not rate limited (429).
    expect((await send(fake.signed(event, { secret: `whsec_${randomBytes(16).toString("hex")}` }))).status).toBe(400);
    expect((await send(fake.signed(event, { timestampSeconds: Math.floor(Date.now() / 1000) - 301 }))).status).toBe(400);
  });

  it("a forged or stale signature, or none, is 400 and changes nothing", async () => {
    const s = await stripeTenant();
    const { payment, event } = await paidPix(s);
    const forged = await post(s.url, fake.signed(event, { secret: `whsec_${randomBytes(16).toString("hex")}` }));
    expect(forged).toMatchObject({ status: 400, body: { code: "webhook_refused" } });
    const stale = await post(s.url, fake.signed(event, { timestampSeconds: Math.floor(Date.now() / 1000) - 301 }));
    expect(stale).toMatchObject({ status: 400, body: { code: "webhook_refused" } });
    const tampered = fake.signed(event);
    const tamperedBody = tampered.rawBody.replace(`"${event.id}"`, `"${event.id}x"`);
    expect((await post(s.url, { rawBody: tamperedBody, headers: tampered.headers })).status).toBe(400);
    const unsigned = fake.signed(event);
    delete unsigned.headers["stripe-signature"];
    expect((await post(s.url, unsigned)).status).toBe(400);
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("PROCESSING");
    expect(await eventCount(s, "invoice.paid")).toBe(0);
    expect(await notifications(s)).toHaveLength(0);
    // Still applied by the genuine delivery afterwards.
    expect((await post(s.url, fake.signed(event))).status).toBe(200);
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("PAID");
  });

  it("an unknown account is 404; an account without a webhook secret is 400", async () => {
    const s = await stripeTenant();
    const event = { id: "evt_unknown_account", object: "event", type: "customer.created", created: Math.floor(Date.now() / 1000), livemode: false, data: { object: { id: "cus_x" } } };
    expect((await post(`${svc.baseUrl}/gateways/gwa_doesnotexist000000/webhooks`, fake.signed(event))).status).toBe(404);
    expect((await post(`${svc.baseUrl}/gateways/not-an-id/webhooks`, fake.signed(event))).status).toBe(404);
    const noSecret = await stripeTenant({ secretKey: SECRET_KEY });
    expect(await post(noSecret.url, fake.signed(event))).toMatchObject({ status: 400, body: { code: "webhook_refused" } });
    // A verified notice about nothing of ours: 200, recorded as ignored.
    expect(await post(s.url, fake.signed(event))).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await notifications(s)).toMatchObject([{ providerEventId: "evt_unknown_account", kind: "ignored", result: "ignored", appliedAt: null }]);
  });

  it("two deliveries of one event at once: one applies, the other is a duplicate; one row, one invoice.paid", async () => {
    const s = await stripeTenant();
    const { payment, event } = await paidPix(s);
    const answers = await Promise.all([post(s.url, fake.signed(event)), post(s.url, fake.signed(event))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.result).sort()).toEqual(["applied", "duplicate"]);
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("PAID");
    expect(await eventCount(s, "invoice.paid")).toBe(1);
    expect(await notifications(s)).toHaveLength(1);
  });

  it("another account's charge posted to this account's address changes nothing", async () => {
    const a = await stripeTenant();
    const b = await stripeTenant(); // same webhook secret on purpose: only the account scoping protects a's payment
    const { payment, event } = await paidPix(a);
    expect(await post(b.url, fake.signed(event))).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).status).toBe("PROCESSING");
    expect(await eventCount(a, "invoice.paid")).toBe(0);
  });

  it("a body over 256 kB is 413 and changes nothing", async () => {
    const s = await stripeTenant();
    const event = { id: "evt_big", object: "event", type: "customer.created", created: Math.floor(Date.now() / 1000), livemode: false, data: { object: { id: "cus_x", pad: "x".repeat(300_000) } } };
    expect((await post(s.url, fake.signed(event))).status).toBe(413);
    expect(await notifications(s)).toHaveLength(0);
  });

  it("a notice for an unknown charge changes nothing (200, ignored)", async () => {
    const s = await stripeTenant();
    const { event } = await paidPix(s);
    const other = structuredClone(event);
    other.id = `evt_other_${randomBytes(6).toString("hex")}`;
    other.data.object.id = "pi_not_ours";
    other.data.object.metadata = {};
    expect(await post(s.url, fake.signed(other))).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await eventCount(s, "invoice.paid")).toBe(0);
  });

  it("a charge failed after an unknown outcome: payment_intent.payment_failed settles the decline", async () => {
    const s = await stripeTenant();
    const { invoice } = await subscriptionWithInvoice(s, "pm_card_chargeCustomerFail");
    fake.failNext("500_after", { method: "POST", path: /\/v1\/payment_intents$/ });
    expect(await chargeInvoice(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, now: now() })).toBe("unknown");
    const payment = await prisma().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    const event = fake.lastEvent("payment_intent.payment_failed")!;
    expect(event.data.object.metadata.idempotency_key).toBe(payment.idempotencyKey);
    expect(await post(s.url, fake.signed(event))).toMatchObject({ status: 200, body: { result: "applied" } });
    const failed = await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(failed.status).toBe("FAILED");
    expect(failed.failureCode).not.toBe("");
    expect(await eventCount(s, "invoice.payment_failed")).toBe(1);
  });

  it("an unpaid Pix at Stripe stays waiting through the reconcile job", async () => {
    const s = await stripeTenant();
    const { invoice } = await subscriptionWithInvoice(s);
    const pix = await issuePixCharge(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, expiresAt: new Date(now().getTime() + 3_600_000), now: now() });
    await prisma().payment.update({ where: { id: pix.paymentId }, data: { createdAt: new Date(now().getTime() - 5 * 60_000) } });
    await reconcilePayments(svc.runtime);
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: pix.paymentId } })).status).toBe("PROCESSING");
    expect(await eventCount(s, "invoice.paid")).toBe(0);
  });

  it("refund.updated succeeded / failed finishes a pending refund", async () => {
    const s = await stripeTenant();
    // A card payment (a Pix is refunded in full only): charged off-session at the fake, paid.
    const { invoice } = await subscriptionWithInvoice(s);
    expect(await chargeInvoice(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, now: now() })).toBe("paid");
    const payment = await prisma().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    const ask = { tenantId: s.t.tenantId, paymentId: payment.id, reason: "pedido do cliente", revoke: "none", confirmRunway: true, now: now() };
    /** A refund Stripe leaves pending: ours stays PENDING until a notice (or the reconcile job) finishes it. */
    const pendingRefund = async (amountCents: number) => {
      fake.nextRefundStatus = "pending";
      try {
        await refundPayment(svc.runtime, { ...ask, amountCents });
      } finally {
        fake.nextRefundStatus = "succeeded";
      }
      const ours = await prisma().refund.findFirstOrThrow({ where: { paymentId: payment.id, status: "PENDING" } });
      const theirs = [...fake.refunds.values()].find((r) => r.metadata?.idempotency_key === ours.idempotencyKey && r.status === "pending")!;
      expect(theirs).toBeDefined();
      return { ours, theirs };
    };

    const first = await pendingRefund(1000);
    fake.settleRefund(first.theirs.id, "succeeded");
    const succeeded = fake.lastEvent("refund.updated")!;
    expect(await post(s.url, fake.signed(succeeded))).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await prisma().refund.findUniqueOrThrow({ where: { id: first.ours.id } })).toMatchObject({ status: "SUCCEEDED", gatewayRefundId: first.theirs.id });
    expect((await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedAmountCents).toBe(1000);
    expect(await eventCount(s, "payment.refunded")).toBe(1);

    const second = await pendingRefund(500);
    fake.settleRefund(second.theirs.id, "failed");
    const failed = fake.lastEvent("refund.failed")!;
    expect(await post(s.url, fake.signed(failed))).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await prisma().refund.findUniqueOrThrow({ where: { id: second.ours.id } })).toMatchObject({ status: "FAILED", failureCode: "declined" });
    const after = await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } });
    expect(after).toMatchObject({ refundedAmountCents: 1000, refundInFlight: false, status: "PAID" });
    expect(await eventCount(s, "payment.refunded")).toBe(1);
    // refund.updated of the same failure, a separate event: the refund is no longer pending, ignored.
    expect(await post(s.url, fake.signed(fake.lastEvent("refund.updated")!))).toMatchObject({ status: 200, body: { result: "ignored" } });
  });
});
