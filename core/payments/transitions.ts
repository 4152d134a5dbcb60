// Named sets of payment statuses; the payment transition table itself is PAYMENT in prisma/status-machines.ts.
import type { PaymentStatus } from "../../generated/prisma/client.ts";
import { PAYMENT } from "../../prisma/status-machines.ts";
import { canMove } from "../shared/transition.ts";

/** Money was taken (and maybe given back since): paid_invoice_id / paid_order_id may be set (a CHECK in race_guards). */
export const MONEY_TAKEN = ["PAID", "REFUNDED", "CHARGEDBACK"] as const satisfies readonly PaymentStatus[];

/** Waiting for the gateway's verdict: the only statuses a verdict can settle. */
export const UNSETTLED = ["PROCESSING", "UNKNOWN"] as const satisfies readonly PaymentStatus[];

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return canMove(PAYMENT, from, to);
}
