// Reversal of a referral after refund or churn of the referred customer (referral.reverted), inside
// the transaction of that change:
//   refund: a total refund or a chargeback of a payment of the referred subscription reverts the
//           referral in any state; a rewarded one loses the reward's unused cycles (the referrer's
//           discounted renewals already paid stay as they were).
//   churn:  the referred subscription canceled (immediately, at period end, expired checkout)
//           reverts only a referral still pending; once qualified the referral stands.
import { REFERRAL } from "../../prisma/status-machines.ts";
import { emitEvents } from "../events/catalogue.ts";
import { tryMoveStatus } from "../shared/transition.ts";
import type { Tx } from "../shared/tx.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { rewardCouponCode } from "./reward-referrer.ts";

export type RevertCause = "refund" | "churn";

export async function revertReferral(tx: Tx, input: { tenantId: string; subscriptionId: string; cause: RevertCause; now: Date }): Promise<void> {
  const statuses = input.cause === "refund" ? (["PENDING", "QUALIFIED", "REWARDED"] as const) : (["PENDING"] as const);
  const referral = await tx.referral.findFirst({
    where: { tenantId: input.tenantId, referredSubscriptionId: input.subscriptionId, status: { in: [...statuses] } },
  });
  if (!referral) return;
  const moved = await tryMoveStatus(tx, REFERRAL, { id: referral.id, tenantId: input.tenantId, to: "REVERTED", from: [referral.status], data: { revertedAt: input.now } });
  if (!moved) return;
  await emitEvents(tx, { tenantId: input.tenantId, subject: { kind: "referral", referralId: referral.id }, types: ["referral.reverted"], at: input.now });
  if (referral.status === "REWARDED") await withdrawReward(tx, input.tenantId, referral.id, input.now);
}

/** The reward's unused discount cycles are withdrawn from the referrer's subscription. */
async function withdrawReward(tx: Tx, tenantId: string, referralId: string, now: Date): Promise<void> {
  const coupon = await tx.coupon.findUnique({ where: { tenantId_code: { tenantId, code: rewardCouponCode(referralId) } } });
  if (!coupon) return;
  const live = await tx.couponRedemption.findMany({ where: { tenantId, couponId: coupon.id, active: true } });
  if (live.length === 0) return;
  await tx.couponRedemption.updateMany({ where: { tenantId, couponId: coupon.id, active: true }, data: { active: false } });
  for (const r of live) {
    if (!r.subscriptionId) continue;
    const sub = await tx.subscription.findFirst({ where: { id: r.subscriptionId, tenantId }, select: { status: true } });
    if (sub && sub.status !== "CANCELED") await emitSubscriptionEvents(tx, { tenantId, subscriptionId: r.subscriptionId, types: ["subscription.updated"], at: now });
  }
}
