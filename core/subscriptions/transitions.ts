// The subscription state machine as data (billing-api.md "Subscription transitions"). A move not in
// the table is refused, by moveStatus (core/shared/transition.ts) and by the database's trigger.
import type { SubscriptionStatus } from "../../generated/prisma/client.ts";
import { assertMove, canMove, type StatusMachine } from "../shared/transition.ts";

export const SUBSCRIPTION_TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  // Paid (Pix QR, /pay) or never paid (the QR expired, a cancel). Born trialing/active at checkout instead.
  PENDING_FIRST_PAYMENT: ["ACTIVE", "CANCELED"],
  // Trial end paid (or a migration link), declined, canceled.
  TRIALING: ["ACTIVE", "PAST_DUE", "CANCELED"],
  // ACTIVE -> ACTIVE is a renewal (a new period is written with the status).
  ACTIVE: ["ACTIVE", "PAST_DUE", "CANCELED"],
  // PAST_DUE -> PAST_DUE is a retry scheduled; suspension only after past_due (never straight from active).
  PAST_DUE: ["ACTIVE", "PAST_DUE", "SUSPENDED", "CANCELED"],
  SUSPENDED: ["ACTIVE", "CANCELED"],
  // Terminal: a canceled subscription never comes back.
  CANCELED: [],
};

export const SUBSCRIPTION: StatusMachine<"subscription"> = {
  model: "subscription",
  table: "subscriptions",
  enumType: "SubscriptionStatus",
  transitions: SUBSCRIPTION_TRANSITIONS,
};

/** Renewing states: a cancellation can be scheduled, charge-now and dunning apply, a referrer is rewarded. */
export const LIVING = ["ACTIVE", "TRIALING", "PAST_DUE"] as const satisfies readonly SubscriptionStatus[];
/** In good standing: the plan can change, the date can move, a migration link can be paid. */
export const IN_GOOD_STANDING = ["ACTIVE", "TRIALING"] as const satisfies readonly SubscriptionStatus[];
/** Started and not ended: every state with a period (or trial), suspended included. */
export const STARTED = ["TRIALING", "ACTIVE", "PAST_DUE", "SUSPENDED"] as const satisfies readonly SubscriptionStatus[];

export function isIn<S extends string>(set: readonly S[], status: string): status is S {
  return (set as readonly string[]).includes(status);
}

export function canTransition(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return canMove(SUBSCRIPTION, from, to);
}

export function assertTransition(from: SubscriptionStatus, to: SubscriptionStatus): void {
  assertMove(SUBSCRIPTION, from, to);
}
