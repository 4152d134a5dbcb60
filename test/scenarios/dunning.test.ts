// The full dunning cycle: a card that declines after checkout goes past_due at the due date, is
// retried on D+1, D+3, D+5 and D+9, is suspended when D+9 fails, and comes back to active when the
// customer pays the open invoice through its payment link.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, EventLog, gatewayEvents, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

describe("dunning", () => {
  it("past_due on failure, retries D+1/3/5/9 from the due date, suspension, reactivation by payment", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T15:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    const log = new EventLog(t);

    await log.advance("2027-04-10T15:00:00.000Z"); // due date: the renewal fails
    let now = await subscription(t, sub.subscription_id);
    expect(now.status).toBe("past_due");
    expect(now.current_period_end).toBe("2027-04-10T15:00:00.000Z");
    expect(now.entitlements).toEqual({ seats: 5, reports: true }); // golden rule
    expect(log.of(sub.subscription_id).slice(-2)).toEqual(["invoice.payment_failed:past_due", "subscription.past_due:past_due"]);

    const ent = await get(`/v1/entitlements?external_id=${encodeURIComponent(now.customer.external_id)}`, t.readKey);
    expect(ent.body.merged_entitlements).toEqual({ seats: 5, reports: true }); // access continues until suspension

    await log.advance("2027-04-19T14:59:00.000Z"); // just before D+9: still retrying
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    await log.advance("2027-04-19T15:00:00.000Z"); // D+9 fails: suspended
    now = await subscription(t, sub.subscription_id);
    expect(now.status).toBe("suspended");
    expect(now.entitlements).toEqual({ seats: 5, reports: true });

    const charges = (await gatewayEvents(t, sub.subscription_id)).filter((e) => e.kind === "charge_card");
    expect(charges.map((e) => `${e.created_at}:${e.outcome}:${e.detail_code}`)).toEqual([
      "2027-03-10T15:00:00.000Z:approved:",
      "2027-04-10T15:00:00.000Z:declined:insufficient_funds",
      "2027-04-11T15:00:00.000Z:declined:insufficient_funds",
      "2027-04-13T15:00:00.000Z:declined:insufficient_funds",
      "2027-04-15T15:00:00.000Z:declined:insufficient_funds",
      "2027-04-19T15:00:00.000Z:declined:insufficient_funds",
    ]);
    expect(log.of(sub.subscription_id)).toEqual([
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
    // Suspended: nothing more is tried, however far the clock goes.
    const quiet = await log.advance("2027-05-30T00:00:00.000Z");
    expect(quiet.chargeFailed + quiet.renewed).toBe(0);
    const ent2 = await get(`/v1/entitlements?external_id=${encodeURIComponent(now.customer.external_id)}`, t.readKey);
    expect(ent2.body.merged_entitlements).toEqual({});

    // The customer pays the open invoice through its link (Pix): active again, a fresh cycle from today.
    const link = await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey);
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ status: "open", amount_cents: 4990, currency: "brl", method: "card" });
    expect(link.text).not.toContain(sub.subscription_id);
    await payPix(link.body.pix.copy_paste);
    await log.collect();
    now = await subscription(t, sub.subscription_id);
    expect(now.status).toBe("active");
    expect(now.current_period_end).toBe("2027-06-30T00:00:00.000Z");
    expect(log.of(sub.subscription_id).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    const again = await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("nenhuma fatura em aberto");
  });

  it("a past_due subscription paid during the retries returns to active with invoice.paid and subscription.updated", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-06-01T08:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    const log = new EventLog(t);
    await log.advance("2027-07-02T08:00:00.000Z"); // due + D+1 retry failed
    expect((await subscription(t, sub.subscription_id)).status).toBe("past_due");
    const link = await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey);
    await payPix(link.body.pix.copy_paste);
    await log.collect();
    const now = await subscription(t, sub.subscription_id);
    expect(now.status).toBe("active");
    // The paid invoice covers its own period: the anchor is kept.
    expect(now.current_period_end).toBe("2027-08-01T08:00:00.000Z");
    expect(log.of(sub.subscription_id).slice(-2)).toEqual(["invoice.paid:active", "subscription.updated:active"]);
    // No retry happens after the payment.
    const later = await log.advance("2027-07-20T00:00:00.000Z");
    expect(later.chargeFailed).toBe(0);
  });

  it("paused renewals charge nothing until resumed", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-01-05T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    await op(`mutation($t: ID!) { setRenewalsPaused(tenantId: $t, paused: true) { id } }`, { t: t.tenantId });
    const paused = await advanceClock(t, "2027-02-20T00:00:00.000Z");
    expect(paused.renewed + paused.chargeFailed).toBe(0);
    expect((await gatewayEvents(t, sub.subscription_id)).filter((e) => e.kind === "charge_card")).toHaveLength(1);
    await op(`mutation($t: ID!) { setRenewalsPaused(tenantId: $t, paused: false) { id } }`, { t: t.tenantId });
    const resumed = await advanceClock(t, "2027-02-20T00:00:01.000Z");
    expect(resumed.renewed).toBe(1);
    expect((await subscription(t, sub.subscription_id)).current_period_end).toBe("2027-03-05T10:00:00.000Z");
  });
});
