// Payment status moves as data. UNKNOWN (gateway outcome not heard) only leaves through reconciliation.
import type { PaymentStatus } from "../../generated/prisma/client.ts";

export const PAYMENT_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PROCESSING: ["PAID", "FAILED", "UNKNOWN"],
  UNKNOWN: ["PAID", "FAILED"],
  PAID: ["REFUNDED", "CHARGEDBACK"],
  FAILED: [],
  REFUNDED: [],
  CHARGEDBACK: [],
};

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to);
}
