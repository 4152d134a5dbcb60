// A Pix QR past its expiry is dead at the gateway: its attempt fails ("expired"), through the payment
// transition table (only a PROCESSING attempt moves; one paid or settled meanwhile is left alone). A QR
// paid later all the same is still recorded as a late payment (record-late-pix-payment.ts).
import { moveStatuses } from "../shared/transition.ts";
import { PAYMENT } from "../../prisma/status-machines.ts";

/** Whose Pix attempts: an invoice's, a subscription's, or one attempt. */
export type PixAttempts = { invoiceId: string } | { subscriptionId: string } | { id: string };

export interface FailExpiredPixInput {
  tenantId: string;
  attempts: PixAttempts;
  /** The attempts whose QR expired by this instant; null: every one still waiting, whatever its expiry (the sale that waited for them is over). */
  expiredBy: Date | null;
}

/** How many attempts failed. */
export async function failExpiredPix(db: Parameters<typeof moveStatuses>[0], input: FailExpiredPixInput): Promise<number> {
  const expiry = input.expiredBy ? { pixExpiresAt: { lte: input.expiredBy } } : {};
  return moveStatuses(db, PAYMENT, {
    tenantId: input.tenantId,
    where: { ...input.attempts, method: "PIX", ...expiry },
    from: ["PROCESSING"],
    to: "FAILED",
    data: { failureCode: "expired" },
  });
}
