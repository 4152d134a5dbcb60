// Moves a subscription to another offer inside the caller's transaction (immediate change, a
// scheduled change coming due, a paid migration link). Any scheduled change is cleared; the active
// coupon follows the subscription only when keep_coupon asked for it.
import type { Tx } from "../shared/tx.ts";
import { pixIssueAt } from "../shared/periods.ts";

export interface NewPeriod {
  start: Date;
  end: Date;
  anchorDay: number;
}

export async function applyOfferChange(
  tx: Tx,
  input: {
    tenantId: string;
    subscriptionId: string;
    collectionMethod: "CARD_AUTO" | "PIX_MANUAL";
    offer: { id: string; planId: string };
    keepCoupon: boolean;
    /** A new cycle starting now (interval change, migration); omitted: the current period stands. */
    period?: NewPeriod;
    extra?: { paymentMethodId?: string | null; collectionMethod?: "CARD_AUTO" | "PIX_MANUAL"; lastPaymentId?: string };
  },
): Promise<void> {
  const method = input.extra?.collectionMethod ?? input.collectionMethod;
  await tx.subscription.update({
    where: { id: input.subscriptionId },
    data: {
      offerId: input.offer.id,
      planId: input.offer.planId,
      pendingOfferId: null,
      pendingOfferEffectiveAt: null,
      pendingKeepCoupon: false,
      ...(input.period
        ? {
            currentPeriodStart: input.period.start,
            currentPeriodEnd: input.period.end,
            anchorDay: input.period.anchorDay,
            nextBillingAt: method === "CARD_AUTO" ? input.period.end : pixIssueAt(input.period.end),
          }
        : {}),
      ...(input.extra ?? {}),
    },
  });
  if (!input.keepCoupon) {
    await tx.couponRedemption.updateMany({ where: { tenantId: input.tenantId, subscriptionId: input.subscriptionId, active: true }, data: { active: false } });
  }
}
