// charge-now scenarios: it never advances a retry, and a due renewal is charged exactly once under two
// concurrent calls. Also the gateway that captures a card only with a payment (payment-method link).
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, EventLog, gatewayEvents, subscribe, subscription } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, plusDays, tokenOf } from "./pay-helpers.ts";

const pause = (tenantId: string, paused: boolean) =>
  op(`mutation($t: ID!, $p: Boolean!) { setRenewalsPaused(tenantId: $t, paused: $p) { id } }`, { t: tenantId, p: paused });

describe("POST .../charge-now", () => {
  it("on a past_due subscription whose next retry is in the future, charges nothing", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    const due = (await subscription(t, id)).current_period_end;
    await advanceClock(t, plusDays(due, 0.5));
    expect((await subscription(t, id)).status).toBe("past_due");
    const before = (await gatewayEvents(t, id)).length;
    const res = await post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true, message: expect.stringContaining("next retry") });
    expect((await gatewayEvents(t, id)).length).toBe(before);
    expect((await subscription(t, id)).status).toBe("past_due");
  });

  it("on a trial, never ends it early", async () => {
    const t = await newTenant();
    const offer = (
      await op(
        `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Trial", interval: MONTH, priceCents: 1000, currency: "brl", gateway: "sandbox", collectionMethods: [CARD_AUTO], trialDays: 7) { id } }`,
        { t: t.tenantId, p: t.planId },
      )
    ).createOffer.id;
    const { subscription_id: id } = await subscribe(offer);
    const res = await post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    expect(res.status).toBe(202);
    expect(res.body.message).toContain("trial ends");
    expect((await subscription(t, id)).status).toBe("trialing");
  });

  it("a due renewal is charged exactly once under two concurrent calls", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const log = new EventLog(t);
    const due = (await subscription(t, id)).current_period_end;
    await log.collect();
    // Renewals paused: the clock passes the due date without the run charging; then charge-now is the one to do it.
    await pause(t.tenantId, true);
    await advanceClock(t, plusDays(due, 0.25));
    await pause(t.tenantId, false);
    const [a, b] = await Promise.all([post(`/v1/subscriptions/${id}/charge-now`, t.writeKey), post(`/v1/subscriptions/${id}/charge-now`, t.writeKey)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const charges = (await gatewayEvents(t, id)).filter((e) => e.kind === "charge_card");
    expect(charges).toHaveLength(2); // checkout + this renewal
    const sub = await subscription(t, id);
    expect(new Date(sub.current_period_end).getTime()).toBeGreaterThan(new Date(due).getTime());
    await log.collect();
    expect(log.of(id).filter((e) => e.startsWith("invoice.paid"))).toHaveLength(2);
    const third = await post(`/v1/subscriptions/${id}/charge-now`, t.writeKey);
    expect(third.body.message).toContain("nothing is due");
  });
});

describe("payment-method link on a gateway that captures a card only with a payment", () => {
  it("saves no card on its own; with an open invoice it charges it with the new card", async () => {
    const t = await newTenant();
    const { createGatewayAccount: gw } = await op(
      `mutation($t: ID!) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "page-only", capabilities: {capturesCardOnlyOnPaymentPage: true}) { id } }`,
      { t: t.tenantId },
    );
    const offerId = (
      await op(
        `mutation($t: ID!, $p: ID!, $g: String!) { createOffer(tenantId: $t, planId: $p, name: "P", interval: MONTH, priceCents: 2000, currency: "brl", gateway: $g, collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
        { t: t.tenantId, p: t.planId, g: gw.id },
      )
    ).createOffer.id;
    const { subscription_id: id } = await subscribe(offerId, { card_number: CARDS.laterDeclines });
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    const page = await payPage(token);
    expect(page.text).toContain("só é registrado junto com um pagamento");
    expect(page.text).not.toContain('name="card_number"');
    const refused = await payJson(token, CARD("5555555555554444"));
    expect(refused.status).toBe(409);
    expect((await subscription(t, id)).payment_method.last4).toBe("0341");

    await advanceClock(t, (await subscription(t, id)).current_period_end);
    expect((await subscription(t, id)).status).toBe("past_due");
    const fresh = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    expect((await payPage(fresh)).text).toContain('name="card_number"');
    const paid = await payJson(fresh, CARD("5555555555554444"));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", subscription_status: "active", card: { last4: "4444" } });
    expect((await subscription(t, id)).payment_method.last4).toBe("4444");
    expect((await payPage(fresh)).status).toBe(410);
  });
});
