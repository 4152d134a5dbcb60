// What the provider stories read: /v1 as the vendor reads it, and our payment rows (ids, keys, the
// provider's ids) straight from the database.
import { expect } from "vitest";
import { get } from "./http.ts";
import { testService } from "./service.ts";

/** Our payments of a subscription, oldest first. */
export async function paymentsOf(subscriptionId: string) {
  return (await testService()).runtime.db.prisma.payment.findMany({ where: { subscriptionId }, orderBy: { id: "asc" } });
}

/** The tenant's events of a subscription as `type:status`, oldest first (GET /v1/events). */
export async function eventsOf(readKey: string, subscriptionId: string): Promise<string[]> {
  const res = await get(`/v1/events?limit=500`, readKey);
  expect(res.status).toBe(200);
  return (res.body.results as Record<string, any>[]).filter((e) => e.data?.subscription_id === subscriptionId).map((e) => `${e.type}:${e.data.status}`);
}

export const subscriptionOf = async (readKey: string, id: string) => (await get(`/v1/subscriptions/${id}`, readKey)).body;
