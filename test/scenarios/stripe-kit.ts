// What the Stripe scenario tests (test/scenarios/stripe-*.test.ts) share: a tenant whose offer is at a
// Stripe account pointing at the fake, the hosted checkout's JSON post (payment_method_id or Pix),
// Stripe's signed deliveries to POST /gateways/{id}/webhooks, and reads of the fake's ledger.
import { expect } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { CPF } from "../helpers/billing.ts";
import { call } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { stripeOffer, type StripeOffer } from "../helpers/stripe.ts";
import { postNotice } from "../helpers/provider-notice.ts";

export { eventsOf, paymentsOf, subscriptionOf } from "../helpers/provider-reads.ts";

export type Obj = Record<string, any>;

/** The hosted checkout's JSON post: a Stripe.js payment method id (card) or Pix. */
export async function stripeCheckout(s: StripeOffer, pay: { pm: string } | "pix") {
  const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
  const body: Obj = { external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF };
  Object.assign(body, pay === "pix" ? { method: "pix" } : { method: "card", payment_method_id: pay.pm });
  return call("POST", `/checkout/${s.offerId}`, { body, as: "json", headers: { accept: "application/json" } });
}

/** A Stripe tenant with a subscription made on the hosted checkout; fails the test if refused. */
export async function stripeSubscription(fake: FakeStripe, pay: { pm: string } | "pix" = { pm: "pm_card_visa" }) {
  const s = await stripeOffer(fake);
  const r = await stripeCheckout(s, pay);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { ...s, subscriptionId: r.body.subscription_id as string, answer: r.body };
}

/** Delivers a Stripe event to the account's webhook address, signed as Stripe signs it. */
export async function deliver(fake: FakeStripe, accountId: string, event: Obj) {
  const { baseUrl } = await testService();
  const signed = fake.signed(event);
  return postNotice(`${baseUrl}/gateways/${accountId}/webhooks`, signed.headers, signed.rawBody) as Promise<{ status: number; body: Obj }>;
}

/** The newest event of `type` about the PaymentIntent `pi` (data.object.id, or its payment_intent). */
export function eventAbout(fake: FakeStripe, type: string, pi: string): Obj {
  const e = [...fake.events].reverse().find((x) => x.type === type && (x.data.object.id === pi || x.data.object.payment_intent === pi));
  if (!e) throw new Error(`no ${type} event for ${pi} at the fake`);
  return e;
}

/** The subscription's saved Stripe card: the cus_ and pm_ of its token. */
export async function savedCard(subscriptionId: string) {
  const sub = await (await testService()).runtime.db.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { paymentMethod: true } });
  const [customer, pm] = (sub.paymentMethod?.token ?? "").split("|");
  return { customer: customer!, pm: pm! };
}

/**
 * Stripe's side of one of our charge keys: exactly one PaymentIntent carries it (metadata) and the fake
 * counts how many successful charges were made under it.
 */
export function stripeSideOf(fake: FakeStripe, idempotencyKey: string) {
  const intents = fake.intentsFor(idempotencyKey);
  return { intents: intents.length, status: intents.map((pi) => pi.status), charges: fake.chargesFor(idempotencyKey) };
}
