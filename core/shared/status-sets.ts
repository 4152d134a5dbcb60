// Named sets of statuses that several domains ask about ("is this subscription still renewing?").
// The transition tables themselves are in prisma/status-machines.ts; these sets only name states.
import type { PaymentStatus, SubscriptionStatus } from "../../generated/prisma/client.ts";

/** Renewing states: a cancellation can be scheduled, charge-now and dunning apply, a referrer is rewarded. */
export const LIVING = ["ACTIVE", "TRIALING", "PAST_DUE"] as const satisfies readonly SubscriptionStatus[];
/** In good standing: the plan can change, the date can move, a migration link can be paid. */
export const IN_GOOD_STANDING = ["ACTIVE", "TRIALING"] as const satisfies readonly SubscriptionStatus[];
/** Started and not ended: every state with a period (or trial), suspended included. */
export const STARTED = ["TRIALING", "ACTIVE", "PAST_DUE", "SUSPENDED"] as const satisfies readonly SubscriptionStatus[];

/** Money was taken (and maybe given back since): paid_invoice_id / paid_order_id may be set (a CHECK in race_guards). */
export const MONEY_TAKEN = ["PAID", "REFUNDED", "CHARGEDBACK"] as const satisfies readonly PaymentStatus[];
/** Waiting for the gateway's verdict: the only statuses a verdict can settle. */
export const UNSETTLED = ["PROCESSING", "UNKNOWN"] as const satisfies readonly PaymentStatus[];

export function isIn<S extends string>(set: readonly S[], status: string): status is S {
  return (set as readonly string[]).includes(status);
}
