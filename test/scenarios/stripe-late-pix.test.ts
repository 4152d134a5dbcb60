// A Pix paid at Stripe after we gave it up (issue 18): our clock expired the QR (or the checkout it
// belonged to was abandoned and canceled) while Stripe still let the payer pay it. Stripe took the
// money, so payment_intent.succeeded is recorded, never ignored: a new attempt of the same invoice,
// settled like any payment — it pays the invoice if it is still open, otherwise it is a surplus,
// recorded and refunded in full at Stripe at once (as the sandbox does with a QR paid after its
// invoice was settled: test/scenarios/surplus-payments.test.ts). The vendor sees it in /v1.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { reconcilePayments } from "../../jobs/reconcile-payments.job.ts";
import { advanceClock } from "../helpers/billing.ts";
import { testService } from "../helpers/service.ts";
import { get } from "../helpers/http.ts";
import { startStripeTestbed } from "../helpers/stripe.ts";
import { deliver, eventAbout, eventsOf, paymentsOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

const DAY = 86_400_000;
const later = (iso: string | Date, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();

describe("Stripe: a Pix paid after we expired it", () => {
  it("an abandoned Pix checkout (canceled when its QR expired on our clock) paid at Stripe: recorded and refunded in full, still canceled", async () => {
    const s = await stripeSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    await advanceClock(s.t, later(pix!.pixExpiresAt!, 1));
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    expect((await paymentsOf(s.subscriptionId)).map((p) => [p.status, p.failureCode])).toEqual([["FAILED", "expired"]]);

    // The payer's bank app still had the code, and Stripe still took it.
    fake.payPix(pix!.gatewayChargeId);
    const paid = eventAbout(fake, "payment_intent.succeeded", pix!.gatewayChargeId);
    expect(await deliver(fake, s.accountId, paid)).toMatchObject({ status: 200, body: { result: "applied" } });

    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["FAILED", "REFUNDED"]);
    const late = payments[1]!;
    expect(late).toMatchObject({ method: "PIX", gatewayChargeId: pix!.gatewayChargeId, amountCents: 4990, refundedAmountCents: 4990, refundInFlight: false });
    const row = (await get(`/v1/payments/${late.id}`, s.t.readKey)).body;
    expect(row).toMatchObject({ status: "refunded", refunded_amount_cents: 4990, refund_in_flight: false });
    expect(row.refund_reason).toMatch(/duplicidade|cancelada/);
    // At Stripe: the whole amount given back, under our refund's key.
    const refunds = [...fake.refunds.values()].filter((r) => r.payment_intent === pix!.gatewayChargeId);
    expect(refunds.map((r) => [r.amount, r.status])).toEqual([[4990, "succeeded"]]);
    expect(fake.requests.find((q) => q.path === "/v1/refunds" && q.method === "POST" && q.status === 200)?.idempotencyKey).toBeTruthy();
    // Nothing revived: canceled, and only the refund is announced after the cancellation.
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).slice(-2)).toEqual(["subscription.canceled:canceled", "payment.refunded:canceled"]);
    const log = await (await testService()).runtime.db.prisma.gatewayEvent.findMany({ where: { subscriptionId: s.subscriptionId }, orderBy: { id: "asc" } });
    expect(log.map((e) => `${e.kind}:${e.outcome}:${e.paymentId === late.id}`).slice(-2)).toEqual(["pix_paid:approved:true", "refund:refunded:true"]);

    // Stripe delivers again: a 200 duplicate; another event about the same payment: ignored. Recorded once.
    expect(await deliver(fake, s.accountId, paid)).toMatchObject({ status: 200, body: { result: "duplicate" } });
    const other = { ...structuredClone(paid), id: `evt_${randomBytes(8).toString("hex")}` };
    expect(await deliver(fake, s.accountId, other)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await paymentsOf(s.subscriptionId)).toHaveLength(2);
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === pix!.gatewayChargeId)).toHaveLength(1);
  });

  it("the same late Pix paid short (amount_received 100): the surplus refund asks Stripe for the 100 received, not the 4990 charged", async () => {
    const s = await stripeSubscription(fake, "pix");
    const [pix] = await paymentsOf(s.subscriptionId);
    await advanceClock(s.t, later(pix!.pixExpiresAt!, 1));
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
    fake.payPix(pix!.gatewayChargeId);
    const short = structuredClone(eventAbout(fake, "payment_intent.succeeded", pix!.gatewayChargeId));
    short.data.object.amount_received = 100;
    expect(await deliver(fake, s.accountId, short)).toMatchObject({ status: 200, body: { result: "applied" } });

    const asked = fake.requests.filter((q) => q.method === "POST" && q.path === "/v1/refunds" && q.params.payment_intent === pix!.gatewayChargeId);
    expect(asked.map((q) => Number(q.params.amount))).toEqual([100]);
    const late = (await paymentsOf(s.subscriptionId))[1]!;
    expect(late).toMatchObject({ status: "REFUNDED", amountCents: 4990, amountReceivedCents: 100, refundedAmountCents: 100 });
    expect((await get(`/v1/payments/${late.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 100 });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("canceled");
  });

  it("a renewal QR replaced after it expired on our clock (suspended), then paid at Stripe: it pays the still-open invoice and reactivates; the replacement paid too is refunded", async () => {
    const s = await stripeSubscription(fake, "pix");
    const [first] = await paymentsOf(s.subscriptionId);
    fake.payPix(first!.gatewayChargeId);
    expect((await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", first!.gatewayChargeId))).status).toBe(200);
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;

    await advanceClock(s.t, later(due, -3)); // the renewal QR, 3 days before the due date
    const renewalQr = (await paymentsOf(s.subscriptionId)).at(-1)!;
    expect(renewalQr).toMatchObject({ method: "PIX", status: "PROCESSING" });
    await advanceClock(s.t, later(renewalQr.pixExpiresAt!, 1)); // past its expiry on our clock (the end of the dunning window)
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("suspended");
    // The customer asks for the payment link: the expired QR is given up (FAILED), a fresh one issued.
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link.status).toBe(200);
    const attempts = await paymentsOf(s.subscriptionId);
    expect(attempts.slice(1).map((p) => [p.status, p.failureCode])).toEqual([["FAILED", "expired"], ["PROCESSING", ""]]);
    const fresh = attempts.at(-1)!;
    expect(link.body.pix.copy_paste).toBe(fresh.pixCopyPaste);

    // The old QR, still alive at Stripe, is paid: the invoice is still open, so it is paid by it.
    fake.payPix(renewalQr.gatewayChargeId);
    expect(await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", renewalQr.gatewayChargeId))).toMatchObject({ status: 200, body: { result: "applied" } });
    let sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("active");
    expect(sub.last_payment).toMatchObject({ method: "pix", status: "paid", paid_amount_cents: 4990 });
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);

    // The fresh QR is paid as well: money for an invoice already paid, refunded in full.
    fake.payPix(fresh.gatewayChargeId);
    expect((await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", fresh.gatewayChargeId))).status).toBe(200);
    const end = await paymentsOf(s.subscriptionId);
    // The first, the given-up QR, the replacement (refunded), the late payment of the given-up QR.
    expect(end.map((p) => p.status)).toEqual(["PAID", "FAILED", "REFUNDED", "PAID"]);
    expect(end.find((p) => p.id === fresh.id)).toMatchObject({ status: "REFUNDED", refundedAmountCents: 4990 });
    expect(end.filter((p) => p.status === "PAID").map((p) => p.gatewayChargeId)).toEqual([first!.gatewayChargeId, renewalQr.gatewayChargeId]);
    sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("active");
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).slice(-3)).toEqual(["subscription.activated:active", "invoice.paid:active", "payment.refunded:active"]);
  });

  it("its notice lost too: the reconcile job asks Stripe about the given-up Pix, records and refunds it once; a dead one is asked once and left", async () => {
    const prisma = (await testService()).runtime.db.prisma;
    const fetches = (paymentId: string) => prisma.gatewayEvent.count({ where: { paymentId, kind: "fetch_status" } });
    const paid = await stripeSubscription(fake, "pix");
    const dead = await stripeSubscription(fake, "pix");
    const [pix] = await paymentsOf(paid.subscriptionId);
    const [unpaid] = await paymentsOf(dead.subscriptionId);
    for (const s of [paid, dead]) await advanceClock(s.t, later((await paymentsOf(s.subscriptionId))[0]!.pixExpiresAt!, 1));
    expect((await paymentsOf(paid.subscriptionId)).map((p) => p.status)).toEqual(["FAILED"]);
    fake.payPix(pix!.gatewayChargeId); // paid at Stripe; the notice never arrives
    fake.expirePix(unpaid!.gatewayChargeId); // never paid: Stripe lets it expire
    await prisma.payment.updateMany({ where: { id: { in: [pix!.id, unpaid!.id] } }, data: { createdAt: new Date(Date.now() - 5 * 60_000) } });

    // Two reconcile runs at once (two job instances): recorded once.
    await Promise.all([reconcilePayments((await testService()).runtime), reconcilePayments((await testService()).runtime)]);
    const payments = await paymentsOf(paid.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["FAILED", "REFUNDED"]);
    expect(payments[1]).toMatchObject({ gatewayChargeId: pix!.gatewayChargeId, refundedAmountCents: 4990 });
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === pix!.gatewayChargeId).map((r) => r.amount)).toEqual([4990]);
    expect((await subscriptionOf(paid.t.readKey, paid.subscriptionId)).status).toBe("canceled");
    expect(await paymentsOf(dead.subscriptionId)).toHaveLength(1);
    expect(await fetches(pix!.id)).toBeGreaterThanOrEqual(1);

    // Both answered for good: the next runs ask nothing more; the late notice changes nothing.
    const asked = [await fetches(pix!.id), await fetches(unpaid!.id)];
    await reconcilePayments((await testService()).runtime);
    expect([await fetches(pix!.id), await fetches(unpaid!.id)]).toEqual(asked);
    expect(await deliver(fake, paid.accountId, eventAbout(fake, "payment_intent.succeeded", pix!.gatewayChargeId))).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await paymentsOf(paid.subscriptionId)).toHaveLength(2);
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === pix!.gatewayChargeId)).toHaveLength(1);
  });

  it("Stripe expiring an unpaid renewal QR (payment_intent.payment_failed) is no decline: no dunning step, no event; our own schedule goes on", async () => {
    const s = await stripeSubscription(fake, "pix");
    const [first] = await paymentsOf(s.subscriptionId);
    fake.payPix(first!.gatewayChargeId);
    expect((await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", first!.gatewayChargeId))).status).toBe(200);
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    await advanceClock(s.t, later(due, -3));
    const qr = (await paymentsOf(s.subscriptionId)).at(-1)!;
    expect(qr).toMatchObject({ method: "PIX", status: "PROCESSING" });
    const before = await eventsOf(s.t.readKey, s.subscriptionId);

    fake.expirePix(qr.gatewayChargeId);
    const failed = eventAbout(fake, "payment_intent.payment_failed", qr.gatewayChargeId);
    expect(await deliver(fake, s.accountId, failed)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(await eventsOf(s.t.readKey, s.subscriptionId)).toEqual(before);
    expect((await paymentsOf(s.subscriptionId)).at(-1)!.status).toBe("PROCESSING");
    // The due date passes unpaid: past_due by our own schedule, one step.
    await advanceClock(s.t, due);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("past_due");
    expect((await eventsOf(s.t.readKey, s.subscriptionId)).filter((e) => e.startsWith("invoice.payment_failed"))).toEqual(["invoice.payment_failed:past_due"]);
  });
});
