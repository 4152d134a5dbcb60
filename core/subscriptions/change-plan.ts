// POST /v1/subscriptions/{id}/change-plan (changePlan). Guards, then one locked transaction that
// decides and applies (scheduled, free immediate change, migration link). A change that charges
// reserves a PRORATION invoice under the lock, charges the card outside any transaction, and applies
// the change in a second locked transaction only when the charge was approved.
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { cents } from "../shared/money.ts";
import type { Tx } from "../shared/tx.ts";
import type { Interval } from "../shared/periods.ts";
import { applyOfferChange } from "./apply-offer-change.ts";
import { assertNoProrationInFlight, chargePlanChange, reserveProration } from "./charge-plan-change.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { issueMigrationLink } from "./gateway-migration.ts";
import { decidePlanChange, minimumChargeOf, type PlanChangeDecision } from "./plan-change-decision.ts";
import { planChangeResult } from "./plan-change-result.ts";
import { IN_GOOD_STANDING, isIn } from "../shared/status-sets.ts";

export interface ChangePlanInput {
  tenantId: string;
  subscriptionId: string;
  offerId: string | null | undefined;
  keepCoupon: boolean;
  now: Date;
}

const invalid = (error: string) => new AppError("invalid_argument", { error });

export async function changePlan(runtime: Runtime, input: ChangePlanInput) {
  const { tenantId, now } = input;
  if (!input.offerId) throw new AppError("invalid_body", { error: "offer_id is required" });
  if (!isId("subscription", input.subscriptionId)) throw notFound("subscription");
  const prisma = runtime.db.prisma;
  if (!(await prisma.subscription.findFirst({ where: { id: input.subscriptionId, tenantId }, select: { id: true } }))) throw notFound("subscription");
  if (!isId("offer", input.offerId)) throw notFound("offer");
  const target = await prisma.offer.findFirst({ where: { id: input.offerId, tenantId }, include: { gatewayAccount: true } });
  if (!target) throw notFound("offer");

  const step = await prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, input.subscriptionId);
    const sub = await tx.subscription.findFirstOrThrow({
      where: { id: input.subscriptionId, tenantId },
      include: { offer: { include: { gatewayAccount: true } }, paymentMethod: true },
    });
    if (!isIn(IN_GOOD_STANDING, sub.status)) throw invalid(`a ${sub.status.toLowerCase()} subscription cannot change plan`);
    await assertNoProrationInFlight(tx, sub);
    if (target.kind !== "RECURRING" || !target.interval) throw invalid("the offer is not a recurring offer");
    if (!target.active) throw invalid("the offer is not active");
    if (target.id === sub.offerId) throw invalid("the subscription is already on this offer");
    if (target.currency.toLowerCase() !== sub.currency.toLowerCase()) throw invalid("the offer is in another currency");
    const decision = decidePlanChange(
      {
        status: sub.status,
        collectionMethod: sub.collectionMethod,
        hasCard: Boolean(sub.paymentMethod && !sub.paymentMethod.detachedAt),
        currentPeriodStart: sub.currentPeriodStart,
        currentPeriodEnd: sub.currentPeriodEnd,
        minimumChargeCents: minimumChargeOf(sub.offer.gatewayAccount.capabilities),
      },
      { id: sub.offerId, priceCents: cents(sub.offer.priceCents), interval: (sub.offer.interval ?? "MONTH") as Interval, gatewayAccountId: sub.offer.gatewayAccountId },
      { id: target.id, priceCents: cents(target.priceCents), interval: target.interval as Interval, gatewayAccountId: target.gatewayAccountId },
      now,
    );
    if (decision.effect !== "payment_link" && !target.collectionMethods.includes(sub.collectionMethod)) {
      throw invalid("the offer does not take the subscription's collection method");
    }
    const ctx = { tx, tenantId, subscriptionId: sub.id, now };
    if (decision.effect === "payment_link") {
      const link = await issueMigrationLink(runtime, tx, { tenantId, subscription: sub, offer: target, priceCents: decision.linkPriceCents!, keepCoupon: input.keepCoupon, now });
      return { decision, done: true as const, link };
    }
    if (decision.effect === "scheduled") {
      await tx.subscription.update({
        where: { id: sub.id },
        data: { pendingOfferId: target.id, pendingOfferEffectiveAt: decision.appliesAt, pendingKeepCoupon: input.keepCoupon },
      });
      await emitSubscriptionEvents(tx, { ...ctx, types: ["subscription.plan_change_scheduled"], at: now });
      return { decision, done: true as const };
    }
    if (decision.chargeCents === 0) {
      await applyImmediate(ctx, sub, target, decision, input.keepCoupon);
      return { decision, done: true as const };
    }
    const reservation = await reserveProration(tx, {
      subscription: sub,
      account: sub.offer.gatewayAccount,
      card: sub.paymentMethod!,
      amountCents: decision.chargeCents,
      periodEnd: decision.period?.end ?? sub.currentPeriodEnd!,
      now,
    });
    return { decision, done: false as const, reservation };
  });

  if (!step.done) {
    await chargePlanChange(runtime, {
      tenantId,
      subscriptionId: input.subscriptionId,
      reservation: step.reservation,
      now,
      apply: (tx, sub, paymentId) => applyImmediate({ tx, tenantId, subscriptionId: sub.id, now }, sub, target, step.decision, input.keepCoupon, paymentId),
      declined: (code) => invalid(`the proration charge was declined (${code}); the plan was not changed`),
    });
  }
  return planChangeResult(input.subscriptionId, { ...step.decision, ...("link" in step && step.link ? { paymentLink: step.link } : {}) });
}

/** An immediate change: new offer (and new cycle for an interval change); plan_changed, plus invoice.paid for a charged proration. */
async function applyImmediate(
  ctx: { tx: Tx; tenantId: string; subscriptionId: string; now: Date },
  sub: { status: string; collectionMethod: "CARD_AUTO" | "PIX_MANUAL" },
  target: { id: string; planId: string },
  decision: PlanChangeDecision,
  keepCoupon: boolean,
  paymentId?: string,
): Promise<void> {
  await applyOfferChange(ctx.tx, {
    tenantId: ctx.tenantId,
    subscriptionId: ctx.subscriptionId,
    collectionMethod: sub.collectionMethod,
    offer: target,
    keepCoupon,
    ...(decision.period ? { period: decision.period } : {}),
    ...(paymentId ? { extra: { lastPaymentId: paymentId } } : {}),
  });
  // plan_changed carries status active (contract); a trial's change is reported as subscription.updated.
  const types = sub.status === "TRIALING" ? (["subscription.updated"] as const) : paymentId ? (["subscription.plan_changed", "invoice.paid"] as const) : (["subscription.plan_changed"] as const);
  await emitSubscriptionEvents(ctx.tx, { tenantId: ctx.tenantId, subscriptionId: ctx.subscriptionId, types: [...types], at: ctx.now });
}
