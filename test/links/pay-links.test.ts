// /pay/{token} for every link kind built so far: unknown, expired and used tokens; a payment-method
// change with no charge; a renewal that extends the period; an open invoice that reactivates; a
// declined manual attempt that leaves the dunning schedule alone.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, EventLog, gatewayEvents, makeOffer, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { formatMoney } from "../../core/shared/format-money.ts";
import { CARD, payJson, payPage, plusDays, tokenOf } from "./pay-helpers.ts";

const validator = createOpenApiValidator();

const charges = async (t: Awaited<ReturnType<typeof newTenant>>, id: string) => (await gatewayEvents(t, id)).filter((e) => e.kind === "charge_card");

describe("/pay/{token}", () => {
  it("unknown and malformed tokens are a 404 page; an expired link is a 410 page", async () => {
    expect((await payPage("pl_doesnotexist0000000000000000000")).status).toBe(404);
    expect((await payPage("nope")).status).toBe(404);
    expect((await payJson("pl_doesnotexist0000000000000000000", CARD(CARDS.ok))).status).toBe(404);

    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const link = await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey);
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Atualize seu cartão");
    expect(page.text).toContain('name="card_number"');
    await advanceClock(t, plusDays(new Date().toISOString(), 8));
    const expired = await payPage(token);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("Link expirado");
    expect((await payJson(token, CARD("5555555555554444"))).body.code).toBe("link_expired");
  });

  it("a payment-method link changes the card without charging, emits subscription.updated, and is single use", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const log = new EventLog(t);
    await log.collect();
    const before = await charges(t, id);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);

    const refused = await payJson(token, CARD(CARDS.declined));
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe("card_number");
    expect((await subscription(t, id)).payment_method.last4).toBe("4242");

    const done = await payJson(token, CARD("5555555555554444"));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "card_updated", error: null, card: { brand: "mastercard", last4: "4444" } });
    const sub = await subscription(t, id);
    expect(sub.payment_method).toEqual({ brand: "mastercard", last4: "4444" });
    expect(await charges(t, id)).toHaveLength(before.length);
    await log.collect();
    expect(log.of(id).slice(-1)).toEqual(["subscription.updated:active"]);

    expect((await payPage(token)).status).toBe(410);
    const again = await payJson(token, CARD(CARDS.ok));
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("link_used");

    // The next renewal charges the new card.
    await advanceClock(t, plusDays(sub.current_period_end, 0));
    const after = await subscription(t, id);
    expect(after.status).toBe("active");
    expect(after.last_payment.card.last4).toBe("4444");
  });

  it("a Pix subscription moves to card through a payment-method link", async () => {
    const t = await newTenant();
    const pix = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(pix.pix!.copy_paste);
    const id = pix.subscription_id;
    expect((await subscription(t, id)).collection_method).toBe("pix_manual");
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    expect((await payJson(token, CARD(CARDS.ok))).status).toBe(200);
    const sub = await subscription(t, id);
    expect(sub).toMatchObject({ collection_method: "card_auto", payment_method: { last4: "4242" } });
    await advanceClock(t, sub.current_period_end);
    expect((await subscription(t, id)).last_payment.method).toBe("card");
  });

  it("a renewal link paid by card extends current_period_end by one cycle and emits order.paid", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const log = new EventLog(t);
    const before = await subscription(t, id);
    const link = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { price_cents: 3000 });
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.text).toContain("Renove sua assinatura");
    expect(page.text).toContain(formatMoney(3000));

    const paid = await payJson(token, { method: "card", ...CARD(CARDS.ok) });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("paid");
    const end = new Date(before.current_period_end);
    const expected = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, end.getUTCDate(), end.getUTCHours(), end.getUTCMinutes(), end.getUTCSeconds(), end.getUTCMilliseconds()));
    const sub = await subscription(t, id);
    if (end.getUTCDate() <= 28) expect(sub.current_period_end).toBe(expected.toISOString());
    expect(new Date(sub.current_period_end).getTime()).toBeGreaterThan(end.getTime() + 27 * 86_400_000);
    await log.collect();
    const orderPaid = log.seen.find((e) => e.type === "order.paid");
    expect(orderPaid?.data).toMatchObject({ status: "paid", target_subscription_id: id, amount_cents: 3000, payment: { status: "paid", method: "card" } });
    expect(log.of(id)).toContain("subscription.updated:active");
    for (const e of log.seen) expect(validator.validateWebhook(e.type, e).errors, e.type).toEqual([]);
    expect((await payPage(token)).status).toBe(410);

    // The old period end passes without a charge; the next renewal is at the new end.
    const charged = (await gatewayEvents(t, id)).length;
    await advanceClock(t, plusDays(before.current_period_end, 1));
    expect((await gatewayEvents(t, id)).length).toBe(charged);
    expect((await subscription(t, id)).status).toBe("active");
  });

  it("a renewal link paid by Pix extends the period when the QR is paid", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const before = await subscription(t, id);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey)).body.url);
    const pending = await payJson(token, { method: "pix" });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: "pending", pix: { copy_paste: expect.any(String) } });
    expect((await subscription(t, id)).current_period_end).toBe(before.current_period_end);
    await payPix(pending.body.pix.copy_paste);
    const after = await subscription(t, id);
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(before.current_period_end).getTime() + 27 * 86_400_000);
    expect((await payPage(token)).status).toBe(410);
  });

  it("paying the open invoice reactivates a suspended subscription (subscription.activated + invoice.paid)", async () => {
    const offer = await (async () => {
      const t = await newTenant();
      return { t, offerId: await makeOffer(t, { methods: ["CARD_AUTO"] }) };
    })();
    const { t, offerId } = offer;
    const { subscription_id: id } = await subscribe(offerId, { card_number: CARDS.laterDeclines });
    const log = new EventLog(t);
    const first = await subscription(t, id);
    await log.advance(plusDays(first.current_period_end, 10));
    expect((await subscription(t, id)).status).toBe("suspended");

    const link = await get(`/v1/subscriptions/${id}/payment-link`, t.readKey);
    expect(link.status).toBe(200);
    const token = tokenOf(link.body.url);
    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Pague sua fatura em aberto");
    const paid = await payJson(token, CARD(CARDS.ok));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", subscription_status: "active" });
    await log.collect();
    expect(log.of(id).slice(-2)).toEqual(["subscription.activated:active", "invoice.paid:active"]);
    const sub = await subscription(t, id);
    expect(sub).toMatchObject({ status: "active", payment_method: { last4: "4242" } });
    expect((await payPage(token)).status).toBe(410);
  });

  it("a declined manual attempt on /pay does not count toward the retry schedule", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { methods: ["CARD_AUTO"] });
    const { subscription_id: id } = await subscribe(offerId, { card_number: CARDS.laterDeclines });
    const log = new EventLog(t);
    const due = (await subscription(t, id)).current_period_end;
    await log.advance(plusDays(due, 0));
    expect((await subscription(t, id)).status).toBe("past_due");
    const token = tokenOf((await get(`/v1/subscriptions/${id}/payment-link`, t.readKey)).body.url);
    for (let i = 0; i < 3; i++) {
      const refused = await payJson(token, CARD(CARDS.insufficient));
      expect(refused.status).toBe(422);
      expect(refused.body.error).toBe("pagamento não aprovado; verifique os dados ou use outro cartão");
    }
    await log.collect();
    expect(log.of(id).filter((e) => e.startsWith("invoice.payment_failed"))).toHaveLength(1);
    // Had the three manual attempts counted, the D+1 retry would have been the last one.
    await log.advance(plusDays(due, 8));
    expect((await subscription(t, id)).status).toBe("past_due");
    expect(log.of(id).filter((e) => e.startsWith("invoice.payment_failed"))).toHaveLength(4);
    await log.advance(plusDays(due, 9.5));
    expect((await subscription(t, id)).status).toBe("suspended");
  });
});
