// Named sets of subscription statuses; the subscription transition table itself is SUBSCRIPTION in
// prisma/status-machines.ts. A move not in the table is refused, by moveStatus
// (core/shared/transition.ts) and by the database's trigger.
import type { SubscriptionStatus } from "../../generated/prisma/client.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";
import { canMove } from "../shared/transition.ts";

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
