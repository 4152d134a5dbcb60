// The subscription payload of the contract: GET /v1/subscriptions/{id}, the lists (without
// last_payment and tracking) and the data of every subscription.* and invoice.* event.
import type { Prisma } from "../../generated/prisma/client.ts";
import { nextChargeAmountCents } from "../billing/next-charge.ts";
import { lastPaymentPayload } from "../payments/payment-payload.ts";
import { cents } from "../shared/money.ts";

export const subscriptionPayloadInclude = {
  customer: { select: { id: true, email: true, externalId: true } },
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
const lower = <T extends string>(v: T) => v.toLowerCase();

/** List shape: no last_payment, no tracking. */
export function subscriptionListItem(s: SubscriptionForPayload) {
  const redemption = s.redemptions[0];
  // The next cycle is billed at the pending offer's price when a change is scheduled before it.
  const nextPrice = cents(s.pendingOffer ? s.pendingOffer.priceCents : s.offer.priceCents);
  return {
    subscription_id: s.id,
    status: lower(s.status),
    customer: { id: s.customer.id, email: s.customer.email, external_id: s.customer.externalId },
    plan_id: s.plan.id,
    plan_name: s.plan.name,
    interval: lower(s.offer.interval ?? "MONTH"),
    current_period_end: iso(s.currentPeriodEnd),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    collection_method: lower(s.collectionMethod),
    payment_method:
      s.collectionMethod === "CARD_AUTO" && s.paymentMethod ? { brand: s.paymentMethod.brand, last4: s.paymentMethod.last4 } : null,
    next_charge_amount_cents: nextChargeAmountCents(
      nextPrice,
      redemption
        ? { percentOff: redemption.coupon.percentOff, amountOffCents: redemption.coupon.amountOffCents, cyclesRemaining: redemption.cyclesRemaining }
        : null,
    ),
    currency: s.currency,
    pending_offer: s.pendingOffer
      ? {
          offer_id: s.pendingOffer.id,
          plan_id: s.pendingOffer.planId,
          plan_name: s.pendingOffer.plan.name,
          interval: lower(s.pendingOffer.interval ?? "MONTH"),
          amount_cents: s.pendingOffer.priceCents,
          effective_at: iso(s.pendingOfferEffectiveAt ?? s.currentPeriodEnd),
        }
      : null,
    entitlements: (s.plan.entitlements ?? {}) as Record<string, unknown>,
  };
}

/** Detail shape (and event data): the list shape plus last_payment and tracking. */
export function subscriptionPayload(s: SubscriptionForDetail) {
  return {
    ...subscriptionListItem(s),
    last_payment: s.lastPayment ? lastPaymentPayload(s.lastPayment) : null,
    tracking: (s.tracking ?? null) as Record<string, unknown> | null,
  };
}
