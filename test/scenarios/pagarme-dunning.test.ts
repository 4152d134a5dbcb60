// Pagar.me scenarios (issue 19 item 5): the sandbox's dunning story on the fake Pagar.me. A saved card
// that starts declining (insufficient funds) fails the renewal: past_due at the due date, retries on
// D+1, D+3, D+5 and D+9 (an order and a key each), suspended when D+9 fails, and paying the open
// invoice's /pay link by Pix at Pagar.me (its charge.paid re-read) brings the subscription back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { EventLog, gatewayEvents } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { deliverNotice, pagarmeSideOf, pagarmeSubscription, paymentsOf, savedCardOf, startPagarmeTestbed, subscriptionOf } from "../helpers/pagarme.ts";

let fake: FakePagarme;
beforeAll(async () => void ({ fake } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const DAY = 86_400_000;
const at = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();

describe("Pagar.me: decline and dunning", () => {
  it("an off-session decline: past_due, retries D+1/3/5/9 each under a new key, suspended; paying the open invoice by Pix reactivates", async () => {
    const s = await pagarmeSubscription(fake, { card: "4000000000000010" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.setCardBehaviour((await savedCardOf(s.subscriptionId)).card, "insufficient_funds");
    const log = new EventLog(s.t);

    await log.advance(due);
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("past_due");
    await log.advance(at(due, 9));
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("suspended");
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
    expect(charges.map((e) => `${e.created_at}:${e.outcome}:${e.detail_code}`).slice(1)).toEqual([0, 1, 3, 5, 9].map((d) => `${at(due, d)}:declined:insufficient_funds`));
    // Each attempt is its own order under its own key, refused by the issuer: nothing charged.
    const attempts = (await paymentsOf(s.subscriptionId)).slice(1);
    expect(attempts.map((p) => p.status)).toEqual(["FAILED", "FAILED", "FAILED", "FAILED", "FAILED"]);
    expect(new Set(attempts.map((p) => p.idempotencyKey)).size).toBe(5);
    for (const p of attempts) expect(pagarmeSideOf(fake, p.idempotencyKey)).toEqual({ orders: 1, status: ["failed"], charges: 0 });
    const quiet = await log.advance(at(due, 20));
    expect(quiet.chargeFailed + quiet.renewed).toBe(0);

    // The customer pays the open invoice through its link: a Pix order at Pagar.me, paid by the bank.
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ status: "open", amount_cents: 4990 });
    const charge = fake.payPix(link.body.pix.copy_paste);
    expect(charge.customer).toMatchObject({ name: "Maria Silva", document: "52998224725" }); // the payer, looked up from our customer
    expect((await deliverNotice(s.accountId, fake.lastEvent("charge.paid", charge.id)!)).body).toMatchObject({ result: "applied" });
    await log.collect();
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("active");
    expect(log.of(s.subscriptionId).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });
});
