// The one way a subscription ends, inside the caller's transaction (it holds the subscription lock):
// an immediate cancel, a refund or chargeback that revokes access, a scheduled cancellation reaching
// the period end, a Pix checkout whose QR expired unpaid. The status moves through the transition
// table (a row already canceled, or moved meanwhile, is left alone), nothing is collected any more
// (open invoices void, expired Pix attempts failed), a pending referral is reverted. The returned
// announcement writes subscription.canceled (which queues the cancellation e-mail, carrying the stored
// reason), so a caller can write its own event first (payment.refunded) and every event still carries
// the state after the change.
import type { Subscription } from "../../generated/prisma/client.ts";
import { INVOICE, PAYMENT, SUBSCRIPTION } from "../../prisma/status-machines.ts";
import type { Tx } from "../shared/tx.ts";
import { failExpiredPix } from "../payments/fail-expired-pix.ts";
import { revertReferral } from "../referrals/revert-referral.ts";
import { moveStatuses, tryMoveStatus } from "../shared/transition.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { LIVING } from "../shared/status-sets.ts";

export type EndCause =
  /** POST …/cancel, or a total refund / chargeback revoking the subscription: ends now, whatever was scheduled. */
  | { kind: "now"; reason: string | null }
  /** cancel_at_period_end reached: the reason given when it was scheduled stays (the e-mail carries it). */
  | { kind: "period_end" }
  /** A Pix checkout never paid: the subscription that never started ends without an e-mail (its stored reason says so). */
  | { kind: "checkout_expired" };

export type Announce = () => Promise<void>;

/** The announcement of the end, or null when the subscription was not in a state this cause ends. */
export async function endSubscription(tx: Tx, sub: Subscription, input: { cause: EndCause; now: Date }): Promise<Announce | null> {
  const { cause, now } = input;
  const { tenantId, id } = sub;
  const reason = cause.kind === "now" ? cause.reason : cause.kind === "period_end" ? sub.cancelReason : "checkout_expired";
  const ended = await tryMoveStatus(tx, SUBSCRIPTION, {
    id,
    tenantId,
    to: "CANCELED",
    from: cause.kind === "checkout_expired" ? ["PENDING_FIRST_PAYMENT"] : cause.kind === "period_end" ? LIVING : undefined,
    data:
      cause.kind === "now"
        ? { canceledAt: now, nextBillingAt: null, cancelAtPeriodEnd: false, cancelReason: reason, pendingOfferId: null, pendingOfferEffectiveAt: null }
        : { canceledAt: now, nextBillingAt: null, cancelReason: reason ?? cause.kind },
  });
  if (!ended) return null;
  // Referral (core/referrals): churn before qualifying reverts the referral.
  await revertReferral(tx, { tenantId, subscriptionId: id, cause: "churn", now });
  // Nothing is collected any more: open invoices are void, dead Pix attempts are closed (a QR paid
  // later is still recorded, and refunded as a surplus payment).
  await moveStatuses(tx, INVOICE, { tenantId, where: { subscriptionId: id }, to: "VOID" });
  await failExpiredPix(tx, { tenantId, attempts: { subscriptionId: id }, expiredBy: cause.kind === "checkout_expired" ? null : now });
  return async () => {
    await emitSubscriptionEvents(tx, { tenantId, subscriptionId: id, types: ["subscription.canceled"], at: now });
  };
}
