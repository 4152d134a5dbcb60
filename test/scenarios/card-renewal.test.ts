// A card subscription born on the hosted checkout renews by itself for 13 months, keeping its
// anchor day (Jan 31 -> Feb 28 -> Mar 31 ... -> Feb 29 of a leap year), and a yearly one renews once.
import { describe, expect, it } from "vitest";
import { advanceClock, EventLog, gatewayEvents, subscribe, subscription } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

describe("card renewals", () => {
  it("renews monthly for 13 months on the anchor day, one charge per cycle", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-01-31T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    expect(sub.status).toBe("active");

    const first = await subscription(t, sub.subscription_id);
    expect(first).toMatchObject({ status: "active", collection_method: "card_auto", current_period_end: "2027-02-28T12:00:00.000Z" });
    expect(first.payment_method).toEqual({ brand: "visa", last4: "4242" });
    expect(first.last_payment).toMatchObject({ status: "paid", amount_cents: 4990, paid_at: "2027-01-31T12:00:00.000Z" });

    const log = new EventLog(t);
    const summary = await log.advance("2028-03-01T00:00:00.000Z");
    expect(summary.renewed).toBe(13);
    expect(summary.chargeFailed).toBe(0);

    const after = await subscription(t, sub.subscription_id);
    expect(after.status).toBe("active");
    expect(after.current_period_end).toBe("2028-03-31T12:00:00.000Z");
    expect(after.last_payment.paid_at).toBe("2028-02-29T12:00:00.000Z");

    const paidDates = (await gatewayEvents(t, sub.subscription_id)).filter((e) => e.kind === "charge_card").map((e) => e.created_at.slice(0, 10));
    expect(paidDates).toEqual([
      "2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30", "2027-07-31",
      "2027-08-31", "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31", "2028-01-31", "2028-02-29",
    ]);
    const kinds = log.of(sub.subscription_id);
    expect(kinds[0]).toBe("subscription.activated:active");
    expect(kinds.filter((k) => k === "invoice.paid:active")).toHaveLength(14);

    const payments = await get(`/v1/customers/${encodeURIComponent(first.customer.external_id)}/payments`, t.readKey);
    expect(payments.body.results).toHaveLength(14);
    expect(payments.body.results.every((p: any) => p.status === "paid" && p.amount_cents === 4990)).toBe(true);
  });

  it("renews a yearly subscription once a year, Feb 29 falling back to Feb 28", async () => {
    const t = await newTenant();
    await advanceClock(t, "2028-02-29T09:30:00.000Z");
    const sub = await subscribe(t.yearlyOfferId);
    expect((await subscription(t, sub.subscription_id)).current_period_end).toBe("2029-02-28T09:30:00.000Z");

    const summary = await advanceClock(t, "2030-01-01T00:00:00.000Z");
    expect(summary.renewed).toBe(1);
    const after = await subscription(t, sub.subscription_id);
    expect(after).toMatchObject({ status: "active", interval: "year", current_period_end: "2030-02-28T09:30:00.000Z" });
    expect(after.last_payment).toMatchObject({ amount_cents: 49900, paid_at: "2029-02-28T09:30:00.000Z" });
  });
});
