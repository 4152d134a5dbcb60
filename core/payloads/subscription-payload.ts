// A subscription row read as the GraphQL Subscription fields, for the core's own bodies (the data of
// every subscription.* and invoice.* event, plan-change and reschedule answers). The GraphQL type's
// resolvers use the same helpers; the snake_case shape lives in subscription-body.ts.
import type { Prisma } from "../../generated/prisma/client.ts";
import { nextChargeAmountCents } from "../shared/next-charge.ts";
import { paymentFields } from "./payment-payload.ts";
import { cents, type Cents } from "../shared/money.ts";
import { subscriptionBody, type PendingOfferFields, type SubscriptionFields, type TrackingFields } from "./subscription-body.ts";

export const subscriptionPayloadInclude = {
  customer: true,
  plan: { select: { id: true, name: true, entitlements: true } },
  offer: { select: { id: true, interval: true, priceCents: true } },
  pendingOffer: { select: { id: true, planId: true, interval: true, priceCents: true, plan: { select: { name: true } } } },
  paymentMethod: { select: { brand: true, last4: true } },
  redemptions: {
    where: { active: true },
    select: { cyclesRemaining: true, coupon: { select: { percentOff: true, amountOffCents: true } } },
    orderBy: { id: "asc" },
    take: 1,
  },
} satisfies Prisma.SubscriptionInclude;

export const subscriptionDetailInclude = {
  ...subscriptionPayloadInclude,
  lastPayment: true,
} satisfies Prisma.SubscriptionInclude;

export type SubscriptionForPayload = Prisma.SubscriptionGetPayload<{ include: typeof subscriptionPayloadInclude }>;
export type SubscriptionForDetail = Prisma.SubscriptionGetPayload<{ include: typeof subscriptionDetailInclude }>;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

type PaymentMethodPart = Pick<SubscriptionForPayload, "collectionMethod" | "paymentMethod">;
type NextChargePart = { offer: { priceCents: number }; pendingOffer: { priceCents: number } | null; redemptions: SubscriptionForPayload["redemptions"] };
type PendingOfferPart = Pick<SubscriptionForPayload, "pendingOffer" | "pendingOfferEffectiveAt" | "currentPeriodEnd">;

/** The card renewals charge; null for Pix collection or without a saved card. */
export const subscriptionCard = (s: PaymentMethodPart) =>
  s.collectionMethod === "CARD_AUTO" && s.paymentMethod ? { brand: s.paymentMethod.brand, last4: s.paymentMethod.last4 } : null;

/** The next cycle is billed at the pending offer's price when a change is scheduled before it, less the active coupon. */
export function subscriptionNextCharge(s: NextChargePart): Cents {
  const redemption = s.redemptions[0];
  const nextPrice = cents(s.pendingOffer ? s.pendingOffer.priceCents : s.offer.priceCents);
  return nextChargeAmountCents(
    nextPrice,
    redemption ? { percentOff: redemption.coupon.percentOff, amountOffCents: redemption.coupon.amountOffCents, cyclesRemaining: redemption.cyclesRemaining } : null,
  );
}

export function pendingOfferFields(s: PendingOfferPart): PendingOfferFields | null {
  const p = s.pendingOffer;
  if (!p) return null;
  const at = s.pendingOfferEffectiveAt ?? s.currentPeriodEnd;
  return { offerId: p.id, planId: p.planId, planName: p.plan.name, interval: p.interval ?? "MONTH", amountCents: p.priceCents, effectiveAt: iso(at) };
}

/** The stored tracking object (snake_case JSON) as Tracking fields. */
export function trackingFields(json: Prisma.JsonValue | null | undefined): TrackingFields | null {
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const t = json as Record<string, unknown>;
  const s = (k: string) => (typeof t[k] === "string" ? (t[k] as string) : null);
  return {
    utmSource: s("utm_source"),
    utmMedium: s("utm_medium"),
    utmCampaign: s("utm_campaign"),
    utmTerm: s("utm_term"),
    utmContent: s("utm_content"),
    gclid: s("gclid"),
    fbclid: s("fbclid"),
    fbc: s("fbc"),
    fbp: s("fbp"),
    referrer: s("referrer"),
    landingUrl: s("landing_url"),
    params: t.params ?? {},
    capturedAt: s("captured_at"),
    inherited: typeof t.inherited === "boolean" ? t.inherited : null,
  };
}

export function subscriptionListFields(s: SubscriptionForPayload): Omit<SubscriptionFields, "lastPayment" | "tracking"> {
  return {
    id: s.id,
    status: s.status,
    customer: s.customer,
    planId: s.plan.id,
    planName: s.plan.name,
    interval: s.offer.interval ?? "MONTH",
    currentPeriodEnd: iso(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    collectionMethod: s.collectionMethod,
    paymentMethod: subscriptionCard(s),
    nextChargeAmountCents: subscriptionNextCharge(s),
    currency: s.currency,
    pendingOffer: pendingOfferFields(s),
    entitlements: s.plan.entitlements ?? {},
  };
}

/** Detail shape (and event data): the list shape plus last_payment and tracking. */
export function subscriptionPayload(s: SubscriptionForDetail) {
  return subscriptionBody({
    ...subscriptionListFields(s),
    lastPayment: s.lastPayment ? paymentFields(s.lastPayment) : null,
    tracking: trackingFields(s.tracking),
  });
}
