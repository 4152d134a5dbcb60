// The adapter contract: checkout and renewal, written once and walked with every provider's driver
// (the sandbox and each local fake) through the public surfaces: the hosted checkout's JSON post, the
// provider's notices to POST /gateways/{id}/webhooks, the billing run through advanceClock, /v1 reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, gatewayEvents } from "../../helpers/billing.ts";
import { get } from "../../helpers/http.ts";
import { addEndpoint, Receiver } from "../../helpers/webhook-receiver.ts";
import { eventsOf, expectResult, paymentsOf, subscribeWith, subscriptionOf } from "./driver.ts";
import { DRIVERS } from "./drivers/index.ts";

describe.each(DRIVERS)("$name: checkout and renewal", (d) => {
  beforeAll(() => d.start());
  afterAll(() => d.stop());

  it("checkout by card: active, the card saved, one charge under our key, invoice.paid; the renewal charges the saved card once", async () => {
    const s = await subscribeWith(d, "card");
    expect(s.answer.status).toBe("active");
    const sub = await subscriptionOf(s, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", collection_method: "card_auto", payment_method: d.card });
    expect(sub.last_payment).toMatchObject({ status: "paid", amount_cents: 4990, method: "card", gateway_provider: d.provider });
    expect(await eventsOf(s, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    const [first] = await paymentsOf(s.subscriptionId);
    expect(first).toMatchObject({ status: "PAID", provider: d.provider });
    expect(await d.side(first!.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
    await d.hooks?.cardCheckout?.(s, first!);

    // The renewal at the period's end: the billing run charges the saved card, once, under a new key.
    const summary = await advanceClock(s.t, sub.current_period_end);
    expect(summary).toMatchObject({ renewed: 1, chargeFailed: 0, unknown: 0, errors: 0 });
    const renewed = await subscriptionOf(s, s.subscriptionId);
    expect(renewed.status).toBe("active");
    expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(new Date(sub.current_period_end).getTime());
    const payments = await paymentsOf(s.subscriptionId);
    expect(payments.map((p) => p.status)).toEqual(["PAID", "PAID"]);
    const renewal = payments[1]!;
    expect(renewal.idempotencyKey).not.toBe(first!.idempotencyKey);
    expect(await d.side(renewal.idempotencyKey)).toEqual({ made: 1, charged: 1, refunded: 0 });
    await d.hooks?.renewal?.(s, first!, renewal);
    expect(await eventsOf(s, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active", "invoice.paid:active"]);
    const charges = (await gatewayEvents(s.t, s.subscriptionId)).filter((e) => e.kind === "charge_card").map((e) => `${e.outcome}:${e.gateway_id}`);
    expect(charges).toEqual([`approved:${first!.gatewayChargeId}`, `approved:${renewal.gatewayChargeId}`]);
    // Moving on without a due date charges nothing more.
    const quiet = await advanceClock(s.t, new Date(new Date(sub.current_period_end).getTime() + 86_400_000).toISOString());
    expect(quiet.renewed).toBe(0);
    expect((await d.side(renewal.idempotencyKey)).made).toBe(1);
  });

  it("checkout by Pix: pending until the provider says it was paid, then active once; the same notice again changes nothing; the vendor hears it", { timeout: 60_000 }, async () => {
    const offer = await d.offer();
    const receiver = await Receiver.start();
    try {
      await addEndpoint(offer.t, receiver.url);
      const s = await subscribeWith(d, "pix", offer);
      expect(s.answer).toMatchObject({ status: "pending_first_payment" });
      expect(s.answer.pix.copy_paste).toMatch(/^000201/);
      const [pix] = await paymentsOf(s.subscriptionId);
      expect(pix).toMatchObject({ method: "PIX", status: "PROCESSING", provider: d.provider });
      expect(await d.side(pix!.idempotencyKey)).toEqual({ made: 1, charged: 0, refunded: 0 });
      await d.hooks?.pixCheckout?.(s, pix!, s.answer);
      expect(await eventsOf(s, s.subscriptionId)).toEqual([]);

      // The payer's bank pays the copy-and-paste code; the provider tells us.
      const notice = await d.payPix(s, s.answer.pix.copy_paste);
      expectResult(await notice.deliver(), "applied");
      const sub = await subscriptionOf(s, s.subscriptionId);
      expect(sub).toMatchObject({ status: "active", collection_method: "pix_manual" });
      expect(sub.last_payment).toMatchObject({ method: "pix", status: "paid", paid_amount_cents: 4990 });
      expect(await eventsOf(s, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
      expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => `${e.kind}:${e.outcome}`)).toEqual(["create_pix:pending", "pix_paid:approved"]);

      // Delivered again (a provider retries until it hears a 2xx): nothing twice.
      expectResult(await notice.deliver(), "duplicate");
      expect(await eventsOf(s, s.subscriptionId)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
      const payments = await get(`/v1/customers/${encodeURIComponent(sub.customer.external_id)}/payments`, s.t.readKey);
      expect(payments.body.results.map((p: any) => p.status)).toEqual(["paid"]);
      expect((await d.side(pix!.idempotencyKey)).charged).toBe(1);
      // The vendor's endpoint hears subscription.activated and invoice.paid, once each.
      const ours = (rs: typeof receiver.requests) => rs.filter((r) => r.body?.data?.subscription_id === s.subscriptionId).map((r) => r.body.type);
      await receiver.waitFor((rs) => ours(rs).length >= 2, 20_000);
      expect(ours(receiver.requests).sort()).toEqual(["invoice.paid", "subscription.activated"]);
    } finally {
      await receiver.stop();
    }
  });
});
