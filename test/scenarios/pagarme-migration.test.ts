// Issue 19 item 4 (gateway migration across real providers), toward Pagar.me: a plan change from a
// sandbox or a Stripe subscription to an offer at a Pagar.me account issues the /pay link (the
// contract's cross-gateway rule); the link's page loads Pagar.me's tokenizecard.js (the TARGET's
// tokenizer), a typed card number is refused, and the posted token is saved as a card of a Pagar.me
// customer; the first charge of the new offer is an order at Pagar.me, and the subscription moves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock, subscribe } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { pagarmeOffer, startPagarmeTestbed } from "../helpers/pagarme.ts";
import type { TestService } from "../helpers/service.ts";
import { SECRET_KEY as STRIPE_SECRET_KEY, stripeOffer, WEBHOOK_SECRET as STRIPE_WEBHOOK_SECRET } from "../helpers/stripe.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";
import { stripeCheckout } from "./stripe-kit.ts";

let fake: FakePagarme;
let stripe: FakeStripe;
let svc: TestService;
beforeAll(async () => {
  ({ fake, svc } = await startPagarmeTestbed());
  stripe = await startFakeStripe({ secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET });
});
afterAll(async () => {
  await fake?.close();
  await stripe?.close();
});

const START = "2027-03-01T00:00:00.000Z";
const MID = "2027-03-11T06:00:00.000Z";

/** Changes `subId` to a Pagar.me offer of the tenant, pays the /pay link with a tokenizecard.js token, and checks the move. */
async function migrateToPagarme(t: TestTenant, subId: string) {
  const target = await pagarmeOffer(fake, { t, priceCents: 5990 });
  const change = await changePlan(t, subId, { offer_id: target.offerId });
  expect(change.status).toBe(200);
  expect(change.body.plan_change).toMatchObject({ kind: "gateway_migration", effect: "payment_link", charge_cents: 0 });
  const token = tokenOf(change.body.plan_change.payment_link.url);

  // The link's page is the TARGET's: Pagar.me's script from the fake, no card fields of ours.
  const { baseUrl } = svc;
  const res = await fetch(`${baseUrl}/pay/${token}`);
  expect(res.status).toBe(200);
  const page = await res.text();
  expect(page).toContain(`${fake.url}/v1/tokenizecard.js`);
  expect(page).not.toContain('name="card_number"');
  expect(res.headers.get("content-security-policy")).toContain(`connect-src ${new URL(fake.url).origin}`);
  expect((await payPage(token)).status).toBe(200);

  const calls = fake.requests.length;
  const refused = await payJson(token, CARD("4000000000000010"));
  expect(refused.status).toBe(422);
  expect(fake.requests.length).toBe(calls);

  const paid = await payJson(token, { pagarme_token: fake.tokenFor("4000000000000010") });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body).toMatchObject({ status: "paid", subscription_status: "active", card: { last4: "0010" } });
  const sub = await svc.runtime.db.prisma.subscription.findUniqueOrThrow({ where: { id: subId }, include: { paymentMethod: true } });
  expect(sub.offerId).toBe(target.offerId);
  expect(sub.paymentMethod!.gatewayAccountId).toBe(target.accountId);
  const [customer, card] = sub.paymentMethod!.token.split("|");
  expect(fake.cards.get(card!)!.customer.id).toBe(customer);
  const last = (await get(`/v1/subscriptions/${subId}`, t.readKey)).body.last_payment;
  expect(last).toMatchObject({ status: "paid", gateway_provider: "pagarme" });
  expect(fake.charges.get(last.gateway_charge_id)).toMatchObject({ status: "paid", customer: { id: customer } });
  expect(fake.chargesFor(fake.charges.get(last.gateway_charge_id)!.code)).toBe(1);
  expect((await payJson(token, { pagarme_token: fake.tokenFor() })).status).toBe(410);
  return { target, customer };
}

describe("gateway migration to a Pagar.me account", () => {
  it("from a sandbox subscription: the /pay link takes a Pagar.me token and the card is saved at Pagar.me", async () => {
    const t = await newTenant();
    await advanceClock(t, START);
    const sub = await subscribe(t.monthlyOfferId);
    await advanceClock(t, MID);
    await migrateToPagarme(t, sub.subscription_id);
  });

  it("from a Stripe subscription: the link is Pagar.me's, nothing more is charged at Stripe", async () => {
    const t = await newTenant();
    await advanceClock(t, START);
    const s = await stripeOffer(stripe, undefined, t);
    const r = await stripeCheckout(s, { pm: "pm_card_visa" });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await advanceClock(t, MID);
    const stripeCharges = stripe.totalCharges;
    await migrateToPagarme(t, r.body.subscription_id);
    expect(stripe.totalCharges).toBe(stripeCharges);
  });
});
