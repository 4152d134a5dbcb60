// The adapter contract: declines, written once for every provider's driver. A card the issuer refuses
// at checkout leaves nothing behind. A saved card that starts declining fails the renewal: past_due at
// the due date, retries on D+1, D+3, D+5 and D+9 (a new key each), suspended when D+9 fails; paying the
// open invoice's link by Pix at the provider brings the subscription back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventLog, gatewayEvents } from "../../helpers/billing.ts";
import { get } from "../../helpers/http.ts";
import { expectResult, paymentsOf, subscribeWith, subscriptionOf } from "./driver.ts";
import { DRIVERS } from "./drivers/index.ts";

const DAY = 86_400_000;
const at = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();

describe.each(DRIVERS)("$name: declines", (d) => {
  beforeAll(() => d.start());
  afterAll(() => d.stop());

  it("a card the issuer refuses at checkout: 422 on the card field, no subscription", async () => {
    const o = await d.offer();
    const refused = await d.checkout(o, "declined_card");
    expect(refused).toMatchObject({ status: 422, body: { field: "card_number" } });
    expect(typeof refused.body.error).toBe("string");
    expect((await get(`/v1/subscriptions?limit=10`, o.t.readKey)).body.results).toEqual([]);
  });

  it("a renewal declined: past_due, retries D+1/3/5/9 each under a new key, suspended; paying the open invoice by Pix reactivates", async () => {
    const s = await subscribeWith(d, "card_declining_later");
    expect(s.answer.status).toBe("active");
    const due = (await subscriptionOf(s, s.subscriptionId)).current_period_end as string;
    const log = new EventLog(s.t);

    await log.advance(due);
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("past_due");
    expect(log.of(s.subscriptionId).slice(-2)).toEqual(["invoice.payment_failed:past_due", "subscription.past_due:past_due"]);
    await log.advance(at(due, 9));
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("suspended");
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
    expect(charges.map((e) => `${e.created_at}:${e.outcome}:${e.detail_code}`).slice(1)).toEqual([0, 1, 3, 5, 9].map((n) => `${at(due, n)}:declined:${d.declineCode}`));
    // Each attempt is its own charge under its own key, refused by the issuer: nothing charged.
    const attempts = (await paymentsOf(s.subscriptionId)).slice(1);
    expect(attempts.map((p) => p.status)).toEqual(["FAILED", "FAILED", "FAILED", "FAILED", "FAILED"]);
    expect(new Set(attempts.map((p) => p.idempotencyKey)).size).toBe(5);
    for (const p of attempts) {
      expect(await d.side(p.idempotencyKey)).toEqual({ made: 1, charged: 0, refunded: 0 });
      await d.hooks?.declinedAttempt?.(p);
    }
    // Suspended: no more tries.
    const quiet = await log.advance(at(due, 20));
    expect(quiet.chargeFailed + quiet.renewed).toBe(0);

    // The customer pays the open invoice through its link, by Pix at the provider.
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link).toMatchObject({ status: 200, body: { status: "open", amount_cents: 4990 } });
    expect(link.body.url).toMatch(/\/pay\/pl_[0-9A-Za-z]{32}$/);
    await d.hooks?.linkPix?.(s, link.body.pix.copy_paste);
    expectResult(await (await d.payPix(s, link.body.pix.copy_paste)).deliver(), "applied");
    await log.collect();
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("active");
    expect(log.of(s.subscriptionId).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
  });
});
