// The subscription state machine as data (billing-api.md "Subscription transitions"). A move not in
// the table is refused, whatever the caller.
import type { SubscriptionStatus } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";

export const SUBSCRIPTION_TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  PENDING_FIRST_PAYMENT: ["ACTIVE", "CANCELED"],
  TRIALING: ["ACTIVE", "PAST_DUE", "CANCELED"],
  ACTIVE: ["ACTIVE", "PAST_DUE", "CANCELED"],
  PAST_DUE: ["ACTIVE", "PAST_DUE", "SUSPENDED", "CANCELED"],
  SUSPENDED: ["ACTIVE", "CANCELED"],
  CANCELED: [],
};

export function canTransition(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return SUBSCRIPTION_TRANSITIONS[from].includes(to);
}

export function assertTransition(from: SubscriptionStatus, to: SubscriptionStatus): void {
  if (!canTransition(from, to)) {
    throw new AppError("conflict", { error: `a ${from.toLowerCase()} subscription cannot become ${to.toLowerCase()}` });
  }
}
