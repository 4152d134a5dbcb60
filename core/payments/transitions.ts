// Payment status moves as data. UNKNOWN (gateway outcome not heard) only leaves through a verdict
// (reconciliation). PAID money leaves only by a refund or a chargeback; the others are terminal.
import type { PaymentStatus } from "../../generated/prisma/client.ts";
import { canMove, type StatusMachine } from "../shared/transition.ts";

export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PROCESSING: ["PAID", "FAILED", "UNKNOWN"],
  UNKNOWN: ["PAID", "FAILED"],
  PAID: ["REFUNDED", "CHARGEDBACK"],
  FAILED: [],
  REFUNDED: [],
  CHARGEDBACK: [],
};

export const PAYMENT: StatusMachine<"payment"> = {
  model: "payment",
  table: "payments",
  enumType: "PaymentStatus",
  transitions: PAYMENT_TRANSITIONS,
};

/** Money was taken (and maybe given back since): paid_invoice_id / paid_order_id may be set (a CHECK in race_guards). */
export const MONEY_TAKEN = ["PAID", "REFUNDED", "CHARGEDBACK"] as const satisfies readonly PaymentStatus[];

/** Waiting for the gateway's verdict: the only statuses a verdict can settle. */
export const UNSETTLED = ["PROCESSING", "UNKNOWN"] as const satisfies readonly PaymentStatus[];

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return canMove(PAYMENT, from, to);
}
