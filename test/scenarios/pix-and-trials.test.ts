// Pix renewals (QR 3 days before the due date, paid or left unpaid) and trials with and without a card.
import { describe, expect, it } from "vitest";
import { parseBrCode } from "../../core/gateways/pix-br-code.ts";
import { advanceClock, CARDS, EventLog, gatewayEvents, makeOffer, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

async function pixOfOpenInvoice(t: Awaited<ReturnType<typeof newTenant>>, subscriptionId: string) {
  const link = await get(`/v1/subscriptions/${subscriptionId}/payment-link`, t.readKey);
  expect(link.status).toBe(200);
  return link.body;
}

describe("pix_manual subscriptions", () => {
  it("checkout by Pix is pending until paid, then active; the renewal QR is issued 3 days early and paid", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-05-31T18:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    expect(sub.status).toBe("pending_first_payment");
    expect(parseBrCode(sub.pix!.copy_paste)?.get("54")).toBe("49.90");
    const qr = await fetch(`${(await import("../helpers/service.ts").then((m) => m.testService())).baseUrl}${new URL(sub.pix!.qr_png_url).pathname}`);
    expect(qr.headers.get("content-type")).toBe("image/png");
    expect((await subscription(t, sub.subscription_id)).status).toBe("pending_first_payment");

    const log = new EventLog(t);
    await payPix(sub.pix!.copy_paste);
    await log.collect();
    let now = await subscription(t, sub.subscription_id);
    expect(now).toMatchObject({ status: "active", collection_method: "pix_manual", payment_method: null, current_period_end: "2027-06-30T18:00:00.000Z" });
    expect(now.last_payment).toMatchObject({ method: "pix", status: "paid", paid_amount_cents: 4990 });
    expect(log.of(sub.subscription_id)).toEqual(["subscription.activated:active", "invoice.paid:active"]);

    const early = await log.advance("2027-06-27T17:59:00.000Z");
    expect(early.pixIssued).toBe(0);
    const issue = await log.advance("2027-06-27T18:00:00.000Z"); // due minus 3 days
    expect(issue.pixIssued).toBe(1);
    const open = await pixOfOpenInvoice(t, sub.subscription_id);
    expect(open).toMatchObject({ method: "pix", amount_cents: 4990 });
    expect((await gatewayEvents(t, sub.subscription_id)).map((e) => e.kind)).toContain("create_pix");

    await payPix(open.pix.copy_paste);
    await log.collect();
    now = await subscription(t, sub.subscription_id);
    expect(now.status).toBe("active");
    expect(now.current_period_end).toBe("2027-07-31T18:00:00.000Z"); // anchor day 31 kept
    // Paying twice is a replay, not a second payment.
    await payPix(open.pix.copy_paste);
    const passed = await log.advance("2027-07-05T00:00:00.000Z");
    expect(passed.pastDue).toBe(0);
    expect((await subscription(t, sub.subscription_id)).status).toBe("active");
    expect(log.of(sub.subscription_id).filter((k) => k.startsWith("invoice.paid"))).toHaveLength(2);
  });

  it("an unpaid Pix renewal goes past_due at the due date and suspended after D+9", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-08-15T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    const log = new EventLog(t);
    await log.advance("2027-09-15T11:59:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("active");
    await log.advance("2027-09-15T12:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    await log.advance("2027-09-24T12:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("suspended");
    expect(log.of(sub.subscription_id)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "invoice.payment_failed:past_due",
      "subscription.past_due:past_due",
      "invoice.payment_failed:suspended",
      "subscription.suspended:suspended",
    ]);
  });

  it("an abandoned Pix checkout is canceled when its QR expires", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-02-01T00:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await advanceClock(t, "2027-02-03T00:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");
  });
});

describe("trials", () => {
  it("a trial with a card starts without a charge and charges at its end", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 14 });
    await advanceClock(t, "2027-10-01T10:00:00.000Z");
    const sub = await subscribe(offerId);
    expect(sub.status).toBe("trialing");
    const log = new EventLog(t);
    await log.collect();
    let now = await subscription(t, sub.subscription_id);
    expect(now).toMatchObject({ status: "trialing", current_period_end: null, payment_method: { brand: "visa", last4: "4242" }, last_payment: null });
    expect(log.of(sub.subscription_id)).toEqual(["subscription.trial_started:trialing"]);
    // The card was verified (tokenized), not charged.
    expect((await gatewayEvents(t, sub.subscription_id)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["tokenize_card:approved"]);

    await log.advance("2027-10-15T10:00:00.000Z");
    now = await subscription(t, sub.subscription_id);
    expect(now).toMatchObject({ status: "active", current_period_end: "2027-11-15T10:00:00.000Z" });
    expect(log.of(sub.subscription_id)).toEqual(["subscription.trial_started:trialing", "invoice.paid:active", "subscription.updated:active"]);
  });

  it("a trial with a card that declines at its end goes past_due", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 7 });
    await advanceClock(t, "2027-10-01T10:00:00.000Z");
    const sub = await subscribe(offerId, { card_number: CARDS.insufficient });
    await advanceClock(t, "2027-10-08T10:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
  });

  it("a trial with the later-declines card 4000000000000341: accepted at checkout, declined at the trial's end, past_due and the retry schedule", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 7 });
    await advanceClock(t, "2027-10-01T10:00:00.000Z");
    const sub = await subscribe(offerId, { card_number: CARDS.laterDeclines });
    expect(sub.status).toBe("trialing");
    const log = new EventLog(t);
    await log.advance("2027-10-08T10:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    expect(log.of(sub.subscription_id)).toEqual(["subscription.trial_started:trialing", "invoice.payment_failed:past_due", "subscription.past_due:past_due"]);
    // D+1 retry: declined again, still past_due; the schedule goes on to suspension after D+9.
    await log.advance("2027-10-09T10:00:00.000Z");
    const charges = (await gatewayEvents(t, sub.subscription_id)).filter((e) => e.kind === "charge_card");
    expect(charges.map((e) => e.outcome)).toEqual(["declined", "declined"]);
    await log.advance("2027-10-17T10:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("suspended");
  });

  it("a trial without a card ends in an open invoice with a payment link, past_due, then suspension", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 10 });
    await advanceClock(t, "2027-03-01T00:00:00.000Z");
    const sub = await subscribe(offerId, {}, { pix: true });
    expect(sub).toMatchObject({ status: "trialing", pix: null });
    const log = new EventLog(t);
    await log.advance("2027-03-11T00:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    const link = await pixOfOpenInvoice(t, sub.subscription_id);
    expect(link.url).toMatch(/\/pay\/pl_[0-9A-Za-z]{32}$/);
    await log.advance("2027-03-20T00:00:00.000Z");
    expect((await subscription(t, sub.subscription_id)).status).toBe("suspended");
    // The first QR lived through the dunning window only; a fresh link carries a fresh QR.
    await expect(payPix(link.pix.copy_paste)).rejects.toThrow(/expired/);
    await payPix((await pixOfOpenInvoice(t, sub.subscription_id)).pix.copy_paste);
    const now = await subscription(t, sub.subscription_id);
    expect(now.status).toBe("active");
    expect(log.of(sub.subscription_id).slice(0, 3)).toEqual([
      "subscription.trial_started:trialing",
      "invoice.payment_failed:past_due",
      "subscription.past_due:past_due",
    ]);
  });
});
