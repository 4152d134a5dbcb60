// Gateway migration across real providers (issue 19 item 4): a Stripe subscription changing plan to an offer
// of the tenant's Mercado Pago account is the contract's cross-gateway rule: the change is a /pay link on
// the NEW provider, whose page loads MercadoPago.js (the fake's stand-in), takes no card number, and saves
// the card MercadoPago.js tokenized to a Mercado Pago customer, paid there; Stripe is not charged again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock } from "../helpers/billing.ts";
import { ACCESS_TOKEN, mercadopagoCardOf, mercadopagoOffer, mercadopagoSideOf, PUBLIC_KEY, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import type { TestService } from "../helpers/service.ts";
import { SECRET_KEY, stripeOffer, WEBHOOK_SECRET } from "../helpers/stripe.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";
import { stripeCheckout } from "./stripe-kit.ts";

let mp: FakeMercadoPago;
let stripe: FakeStripe;
let svc: TestService;
beforeAll(async () => {
  ({ fake: mp, svc } = await startMercadoPagoTestbed());
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await mp?.close();
  await stripe?.close();
});

describe("gateway migration: Stripe -> Mercado Pago", () => {
  it("the plan change is a /pay link on Mercado Pago; the page loads MercadoPago.js, refuses a card number, and the token it posts is saved and paid at Mercado Pago", async () => {
    const from = await stripeOffer(stripe);
    const bought = await stripeCheckout(from, { pm: "pm_card_visa" });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const subscriptionId = bought.body.subscription_id as string;
    const sub = await subscriptionOf(from.t.readKey, subscriptionId);
    await advanceClock(from.t, new Date(new Date(sub.current_period_end).getTime() - 15 * 86_400_000).toISOString());
    const to = await mercadopagoOffer(mp, { tenant: from.t, priceCents: 5990 });

    const change = await changePlan(from.t, subscriptionId, { offer_id: to.offerId });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(change.body.plan_change).toMatchObject({ kind: "gateway_migration", effect: "payment_link" });
    const token = tokenOf(change.body.plan_change.payment_link.url);
    const page = await payPage(token);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<script src="${mp.url}/js/v2"></script>`);
    expect(page.text).toContain(`data-public-key="${PUBLIC_KEY}"`);
    expect(page.text).toContain('name="mercadopago_token"');
    expect(page.text).not.toContain('name="card_number"');
    expect(page.text).not.toContain("js.stripe.com");
    expect(page.text).not.toContain(ACCESS_TOKEN);

    const calls = mp.requests.length;
    expect((await payJson(token, CARD("5031433215406351"))).body.field).toBe("card_number");
    expect(mp.requests.length).toBe(calls);

    const stripeCharges = stripe.totalCharges;
    const r = await payJson(token, { mercadopago_token: mp.browserToken({ holder: "APRO" }) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const prisma = svc.runtime.db.prisma;
    const moved = await prisma.subscription.findFirstOrThrow({ where: { id: subscriptionId }, include: { paymentMethod: true } });
    expect(moved.offerId).toBe(to.offerId);
    expect(moved.paymentMethod).toMatchObject({ gatewayAccountId: to.accountId, brand: "master", last4: "6351" });
    const [customer] = moved.paymentMethod!.token!.split("|");
    expect(mercadopagoCardOf(mp, moved.paymentMethod!.token!)).toMatchObject({ customer_id: customer, last_four_digits: "6351" });
    const last = await prisma.payment.findFirstOrThrow({ where: { subscriptionId }, orderBy: { id: "desc" } });
    expect(last).toMatchObject({ status: "PAID", provider: "mercadopago", gatewayAccountId: to.accountId });
    expect(mercadopagoSideOf(mp, last.idempotencyKey)).toEqual({ payments: 1, status: ["approved"], charges: 1 });
    expect(stripe.totalCharges).toBe(stripeCharges);
  });
});
