// The reward of a qualified referral, applied to the referrer (kind percent_next): the referrer's
// live subscription gets `value` percent off its next `cycles` renewals. The discount rides the coupon
// machinery (a private, inactive coupon `referral:<rfr_ id>` and its redemption), so every renewal path
// (one-by-one, batch, Pix) and the payload's next_charge_amount_cents show it. One discount per
// cycle: a coupon the subscription already has goes first, the reward follows when it runs out.
// No live subscription: the referral stays qualified (nothing to discount).
import { REFERRAL } from "../../prisma/status-machines.ts";
import { emitEvents } from "../events/catalogue.ts";
import { newId } from "../shared/ids.ts";
import { moveStatus } from "../shared/transition.ts";
import type { Tx } from "../shared/tx.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";

export interface RewardSnapshot {
  kind: string;
  value: number;
  cycles: number;
}

/** The private coupon code that carries one referral's reward (outside the tenant's code alphabet). */
export const rewardCouponCode = (referralId: string) => `referral:${referralId}`;

export async function rewardReferrer(tx: Tx, input: { tenantId: string; referralId: string; now: Date }): Promise<boolean> {
  const referral = await tx.referral.findFirstOrThrow({ where: { id: input.referralId, tenantId: input.tenantId } });
  if (referral.status !== "QUALIFIED") return false;
  const reward = referral.reward as unknown as RewardSnapshot;
  if (reward.kind !== "percent_next") return false;
  // The referrer's oldest live subscription that will renew.
  const target = await tx.subscription.findFirst({
    where: { tenantId: input.tenantId, customerId: referral.referrerCustomerId, status: { in: ["ACTIVE", "TRIALING", "PAST_DUE"] }, cancelAtPeriodEnd: false },
    orderBy: { id: "asc" },
  });
  if (!target) return false;
  const coupon = await tx.coupon.create({
    data: {
      id: newId("coupon"),
      tenantId: input.tenantId,
      code: rewardCouponCode(referral.id),
      percentOff: reward.value,
      cycles: reward.cycles,
      maxRedemptions: 1,
      redeemedCount: 1,
      active: false, // never accepted at checkout
    },
  });
  await tx.couponRedemption.create({
    data: { id: newId("couponRedemption"), tenantId: input.tenantId, couponId: coupon.id, customerId: referral.referrerCustomerId, subscriptionId: target.id, cyclesRemaining: reward.cycles },
  });
  await moveStatus(tx, REFERRAL, { id: referral.id, tenantId: input.tenantId, to: "REWARDED", data: { rewardedAt: input.now } });
  await emitEvents(tx, { tenantId: input.tenantId, subject: { kind: "referral", referralId: referral.id }, types: ["referral.rewarded"], at: input.now });
  // The referrer's next charge changed: reread.
  await emitSubscriptionEvents(tx, { tenantId: input.tenantId, subscriptionId: target.id, types: ["subscription.updated"], at: input.now });
  return true;
}
