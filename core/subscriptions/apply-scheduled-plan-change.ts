// A scheduled change (pending_offer) comes due with the renewal that opens the first period at or
// after its effective instant: the renewal invoice is priced at the pending offer (ensure-cycle-invoice)
// and, when that invoice is paid, the subscription moves to the offer inside the settling
// transaction (apply-invoice-paid), so subscription.plan_changed goes out with the renewal's events.
// A declined renewal leaves the change pending until the invoice is paid. The batch fast path skips
// subscriptions with a pending offer, so they always take this one-by-one path.
import type { Subscription } from "../../generated/prisma/client.ts";
import type { Tx } from "../shared/tx.ts";
import type { Interval } from "../shared/periods.ts";
import { applyOfferChange } from "./apply-offer-change.ts";

/** Whether the invoice of the period starting at `periodStart` is the one that carries the scheduled change. */
export function pendingChangeDueAt(sub: Pick<Subscription, "pendingOfferId" | "pendingOfferEffectiveAt">, periodStart: Date): boolean {
  return Boolean(sub.pendingOfferId && sub.pendingOfferEffectiveAt && sub.pendingOfferEffectiveAt.getTime() <= periodStart.getTime());
}

/** Moves the subscription to its pending offer; returns the new interval, or null when nothing was due. */
export async function applyScheduledPlanChange(
  tx: Tx,
  sub: Pick<Subscription, "id" | "tenantId" | "collectionMethod" | "pendingOfferId" | "pendingOfferEffectiveAt" | "pendingKeepCoupon">,
  periodStart: Date,
): Promise<Interval | null> {
  if (!pendingChangeDueAt(sub, periodStart)) return null;
  const offer = await tx.offer.findFirst({ where: { id: sub.pendingOfferId!, tenantId: sub.tenantId } });
  if (!offer) return null;
  await applyOfferChange(tx, {
    tenantId: sub.tenantId,
    subscriptionId: sub.id,
    collectionMethod: sub.collectionMethod,
    offer,
    keepCoupon: sub.pendingKeepCoupon,
  });
  return (offer.interval ?? "MONTH") as Interval;
}
