// POST /v1/subscriptions/{id}/remove-coupon: the subscription's active coupon redemptions stop
// discounting future cycles. The sale record stays (the redemption row is kept, inactive), and an
// invoice already issued keeps its amount; the next invoice is made without the discount.
import type { Runtime } from "../runtime.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";

export interface RemoveCouponInput {
  tenantId: string;
  subscriptionId: string;
  now: Date;
}

export interface RemoveCouponResult {
  removed: number;
}

export async function removeCoupon(runtime: Runtime, input: RemoveCouponInput): Promise<RemoveCouponResult> {
  const { tenantId, subscriptionId, now } = input;
  if (!isId("subscription", subscriptionId)) throw notFound("subscription");
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: subscriptionId, tenantId }, select: { id: true } });
    if (!sub) throw notFound("subscription");
    const { count } = await tx.couponRedemption.updateMany({ where: { tenantId, subscriptionId, active: true }, data: { active: false } });
    // Nothing removed means nothing changed: no event.
    if (count > 0) await emitSubscriptionEvents(tx, { tenantId, subscriptionId, types: ["subscription.updated"], at: now });
    return { removed: count };
  });
}
