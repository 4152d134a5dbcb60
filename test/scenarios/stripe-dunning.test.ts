// Stripe scenarios (issue 18 item 5): the sandbox's dunning story on the fake Stripe. A saved card that
// starts declining off-session (or whose issuer starts asking for 3-D Secure) fails the renewal:
// past_due at the due date, retries on D+1, D+3, D+5 and D+9 (a new PaymentIntent and key each),
// suspended when D+9 fails, the open invoice's /pay link offered, and paying it by Pix at Stripe
// brings the subscription back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock, EventLog, gatewayEvents } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { startStripeTestbed } from "../helpers/stripe.ts";
import { deliver, eventAbout, paymentsOf, savedCard, stripeSideOf, stripeSubscription, subscriptionOf } from "./stripe-kit.ts";

let fake: FakeStripe;
beforeAll(async () => void ({ fake } = await startStripeTestbed()));
afterAll(() => fake?.close());

const DAY = 86_400_000;
const at = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();

describe("Stripe: decline and dunning", () => {
  it("an off-session decline: past_due, retries D+1/3/5/9 each under a new key, suspended; paying the open invoice by Pix reactivates", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.setCardBehaviour((await savedCard(s.subscriptionId)).pm, "insufficient_funds");
    const log = new EventLog(s.t);

    await log.advance(due);
    let sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("past_due");
    expect(log.of(s.subscriptionId).slice(-2)).toEqual(["invoice.payment_failed:past_due", "subscription.past_due:past_due"]);
    await log.advance(at(due, 9));
    sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("suspended");
    expect(log.of(s.subscriptionId)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "invoice.payment_failed:past_due",
      "subscription.past_due:past_due",
      "invoice.payment_failed:past_due",
      "invoice.payment_failed:past_due",
      "invoice.payment_failed:past_due",
      "invoice.payment_failed:suspended",
      "subscription.suspended:suspended",
    ]);
    const charges = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card");
    expect(charges.map((e) => `${e.created_at}:${e.outcome}:${e.detail_code}`).slice(1)).toEqual(
      [0, 1, 3, 5, 9].map((d) => `${at(due, d)}:declined:insufficient_funds`),
    );
    // Each attempt is its own PaymentIntent under its own key, refused by the issuer: nothing charged.
    const attempts = (await paymentsOf(s.subscriptionId)).slice(1);
    expect(attempts.map((p) => p.status)).toEqual(["FAILED", "FAILED", "FAILED", "FAILED", "FAILED"]);
    expect(new Set(attempts.map((p) => p.idempotencyKey)).size).toBe(5);
    for (const p of attempts) expect(stripeSideOf(fake, p.idempotencyKey)).toEqual({ intents: 1, status: ["requires_payment_method"], charges: 0 });
    // Suspended: no more tries.
    const quiet = await log.advance(at(due, 20));
    expect(quiet.chargeFailed + quiet.renewed).toBe(0);

    // The customer pays the open invoice through its link; at Stripe a Pix (the /pay page of a Stripe subscription offers Pix).
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ status: "open", amount_cents: 4990 });
    expect(link.body.url).toMatch(/\/pay\/pl_[0-9A-Za-z]{32}$/);
    const pix = fake.payPix(link.body.pix.copy_paste);
    expect((await deliver(fake, s.accountId, eventAbout(fake, "payment_intent.succeeded", pix.id))).body).toMatchObject({ result: "applied" });
    await log.collect();
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(log.of(s.subscriptionId).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });

  it("authentication_required off-session: a decline (never a PaymentIntent left waiting), past_due, and the /pay link for the customer", async () => {
    const s = await stripeSubscription(fake, { pm: "pm_card_visa" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.setCardBehaviour((await savedCard(s.subscriptionId)).pm, "authentication_required");
    const summary = await advanceClock(s.t, due);
    expect(summary).toMatchObject({ renewed: 0, pastDue: 1, unknown: 0 });
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub.status).toBe("past_due");
    const charge = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").at(-1);
    expect(charge).toMatchObject({ outcome: "declined", detail_code: "authentication_required" });
    const attempt = (await paymentsOf(s.subscriptionId)).at(-1)!;
    expect(attempt).toMatchObject({ status: "FAILED", failureCode: "authentication_required" });
    // Stripe never holds a PaymentIntent that could complete behind our back.
    const side = stripeSideOf(fake, attempt.idempotencyKey);
    expect(side.charges).toBe(0);
    expect(side.status.every((st) => st === "requires_payment_method" || st === "canceled")).toBe(true);
    // The customer gets a /pay link to the open invoice.
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/\/pay\/pl_/);
    const page = await fetch(link.body.url.replace(/^https?:\/\/[^/]+/, (await import("../helpers/service.ts").then((m) => m.testService())).baseUrl));
    expect(page.status).toBe(200);
  });
});
