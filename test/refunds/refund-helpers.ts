// Refund helpers: POST /v1/payments/{id}/refund, a paid card subscription and its first payment.
import { CARDS, events, subscribe } from "../helpers/billing.ts";
import { get, post, type HttpResult } from "../helpers/http.ts";
import type { TestTenant } from "../helpers/tenant.ts";

export function refund(t: TestTenant, paymentId: string, body: unknown, key = t.writeKey, as?: "json" | "form" | "multipart"): Promise<HttpResult> {
  return post(`/v1/payments/${paymentId}/refund`, key, body, { as });
}

export async function payment(t: TestTenant, paymentId: string) {
  const res = await get(`/v1/payments/${paymentId}`, t.readKey);
  if (res.status !== 200) throw new Error(`GET payment ${res.status} ${res.text}`);
  return res.body;
}

/** A card subscription paid at checkout; returns it with its first payment id (4990 cents). */
export async function paidSubscription(t: TestTenant, card: string = CARDS.ok, offerId = t.monthlyOfferId) {
  const sub = await subscribe(offerId, { card_number: card });
  const activated = (await events(t, "subscription.activated")).find((e) => e.data.subscription_id === sub.subscription_id)!;
  return { subscriptionId: sub.subscription_id, paymentId: activated.data.last_payment.payment_id as string };
}
