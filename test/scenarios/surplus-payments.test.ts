// An invoice paid twice: its renewal Pix QR stays in the payer's bank app after the customer paid
// the invoice by card on /pay, or after the subscription was canceled. The late Pix payment is money
// the gateway took: it is recorded and refunded automatically in full, never lost and never applied twice.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, payJson, tokenOf } from "../links/pay-helpers.ts";

async function pixSubscriptionWithRenewalQr() {
  const t = await newTenant();
  await advanceClock(t, "2027-06-01T12:00:00.000Z");
  const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
  await payPix(sub.pix!.copy_paste);
  await advanceClock(t, "2027-06-28T12:00:00.000Z"); // 3 days before the due date: the renewal QR
  const link = await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey);
  expect(link.status).toBe(200);
  expect(link.body.pix).not.toBeNull();
  return { t, subId: sub.subscription_id, link: link.body };
}

describe("surplus payments", () => {
  it("a renewal QR paid after the invoice was paid by card is refunded in full", async () => {
    const { t, subId, link } = await pixSubscriptionWithRenewalQr();
    const paid = await payJson(tokenOf(link.url), { ...CARD(CARDS.ok), method: "card" });
    expect(paid.body.status).toBe("paid");
    const periodEnd = (await subscription(t, subId)).current_period_end;

    const late = await payPix(link.pix.copy_paste);
    expect(late.status).toBe("REFUNDED");
    const row = (await get(`/v1/payments/${late.id}`, t.readKey)).body;
    expect(row).toMatchObject({ status: "refunded", refunded_amount_cents: row.amount_cents, refund_in_flight: false });
    expect((await subscription(t, subId)).current_period_end).toBe(periodEnd); // applied once
    const kinds = (await get(`/v1/subscriptions/${subId}/gateway-events`, t.readKey)).body.results.map((e: any) => `${e.kind}:${e.outcome}`);
    expect(kinds.slice(-2)).toEqual(["pix_paid:approved", "refund:refunded"]);
  });

  it("a renewal QR paid after the subscription was canceled is refunded and does not revive it", async () => {
    const { t, subId, link } = await pixSubscriptionWithRenewalQr();
    const cancel = await post(`/v1/subscriptions/${subId}/cancel`, t.writeKey, { at_period_end: true });
    expect(cancel.status).toBe(200);
    await advanceClock(t, "2027-07-02T12:00:00.000Z");
    expect((await subscription(t, subId)).status).toBe("canceled");
    // The QR still lives in the payer's bank app (the gateway keeps it until it expires).
    const late = await payPix(link.pix.copy_paste);
    expect(late.status).toBe("REFUNDED");
    expect((await subscription(t, subId)).status).toBe("canceled");
    // After the cancellation only the refund is announced (payment.refunded, still canceled): nothing revives it.
    const events = (await get(`/v1/events`, t.readKey)).body.results;
    expect(events.slice(-2).map((e: any) => e.type)).toEqual(["subscription.canceled", "payment.refunded"]);
    expect(events.at(-1).data).toMatchObject({ status: "canceled", last_payment: { payment_id: late.id, status: "refunded" } });
  });
});
