// Subscription status values as the contract spells them, and their database enum.
import type { SubscriptionStatus } from "../../generated/prisma/client.ts";

export const SUBSCRIPTION_STATUSES = ["trialing", "active", "past_due", "suspended", "canceled", "pending_first_payment"] as const;
export type ApiSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export function toDbStatus(status: string): SubscriptionStatus {
  return status.toUpperCase() as SubscriptionStatus;
}
