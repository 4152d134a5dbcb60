// POST /v1/subscriptions/{id}/cancel-plan-change (cancelPlanChange): drops the scheduled change
// (pending_offer) and any open migration link, under the subscription lock; plan_change_canceled.
import type { Runtime } from "../runtime.ts";
import type { Interval } from "../shared/periods.ts";
import { planChangeKind } from "../shared/proration.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { cents } from "../shared/money.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { cancelMigrationLinks } from "./gateway-migration.ts";
import { planChangeResult } from "./plan-change-result.ts";

export async function cancelPlanChange(runtime: Runtime, input: { tenantId: string; subscriptionId: string; now: Date }) {
  const { tenantId, subscriptionId, now } = input;
  if (!isId("subscription", subscriptionId)) throw notFound("subscription");
  const prisma = runtime.db.prisma;
  if (!(await prisma.subscription.findFirst({ where: { id: subscriptionId, tenantId }, select: { id: true } }))) throw notFound("subscription");
  const change = await prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, subscriptionId);
    const sub = await tx.subscription.findFirstOrThrow({ where: { id: subscriptionId, tenantId }, include: { offer: true, pendingOffer: true } });
    const links = await cancelMigrationLinks(tx, tenantId, subscriptionId);
    if (!sub.pendingOffer && links === 0) throw new AppError("invalid_argument", { error: "no plan change is scheduled" });
    const current = { priceCents: cents(sub.offer.priceCents), interval: (sub.offer.interval ?? "MONTH") as Interval, gatewayAccountId: sub.offer.gatewayAccountId };
    const target = sub.pendingOffer
      ? { priceCents: cents(sub.pendingOffer.priceCents), interval: (sub.pendingOffer.interval ?? "MONTH") as Interval, gatewayAccountId: sub.pendingOffer.gatewayAccountId }
      : { ...current, gatewayAccountId: "" };
    await tx.subscription.update({ where: { id: sub.id }, data: { pendingOfferId: null, pendingOfferEffectiveAt: null, pendingKeepCoupon: false } });
    // plan_change_canceled carries status active (contract); a trial has no scheduled change to cancel, only a link.
    const types = sub.status === "ACTIVE" ? (["subscription.plan_change_canceled"] as const) : (["subscription.updated"] as const);
    await emitSubscriptionEvents(tx, { tenantId, subscriptionId, types: [...types], at: now });
    return { kind: planChangeKind(current, target), appliesAt: sub.pendingOfferEffectiveAt };
  });
  // The canceled change, described like change-plan's answer; effect `scheduled` (or payment_link), nothing charged.
  return planChangeResult(subscriptionId, {
    kind: change.kind,
    effect: change.kind === "gateway_migration" ? "payment_link" : "scheduled",
    chargeCents: cents(0),
    appliesAt: change.appliesAt,
  });
}
