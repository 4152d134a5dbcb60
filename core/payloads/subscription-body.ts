// The contract's subscription payload, built from the camelCase fields of the GraphQL Subscription
// type. Pure: the REST facade's serializer (GET /v1/subscriptions…, plan-change and reschedule
// answers, GET /v1/events) and the core's webhook data (subscription.* and invoice.* events) both call
// it, so the snake_case shape is written once.
import { lastPaymentBody, type CardMaskFields, type LastPaymentFields } from "./payment-body.ts";
import { jsonbOrder } from "../shared/jsonb-order.ts";

export interface PendingOfferFields {
  offerId: string;
  planId: string;
  planName: string;
  interval: string;
  amountCents: number;
  effectiveAt: string | null;
}

export interface TrackingFields {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  gclid: string | null;
  fbclid: string | null;
  fbc: string | null;
  fbp: string | null;
  referrer: string | null;
  landingUrl: string | null;
  params: unknown;
  capturedAt: string | null;
  inherited: boolean | null;
}

/** The Subscription fields of the list shape; enum values as GraphQL prints them (ACTIVE, CARD_AUTO). */
export interface SubscriptionListFields {
  id: string;
  status: string;
  customer: { id: string; email: string; externalId: string };
  planId: string;
  planName: string;
  interval: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  collectionMethod: string;
  paymentMethod: CardMaskFields | null;
  nextChargeAmountCents: number;
  currency: string;
  pendingOffer: PendingOfferFields | null;
  entitlements: unknown;
}

export interface SubscriptionFields extends SubscriptionListFields {
  lastPayment: LastPaymentFields | null;
  tracking: TrackingFields | null;
}

const lower = (v: string) => v.toLowerCase();

/** The tracking object as stored (a jsonb column): its keys in the column's order. */
export function trackingBody(t: TrackingFields) {
  return jsonbOrder({
    utm_source: t.utmSource,
    utm_medium: t.utmMedium,
    utm_campaign: t.utmCampaign,
    utm_term: t.utmTerm,
    utm_content: t.utmContent,
    gclid: t.gclid,
    fbclid: t.fbclid,
    fbc: t.fbc,
    fbp: t.fbp,
    referrer: t.referrer,
    landing_url: t.landingUrl,
    params: t.params,
    captured_at: t.capturedAt,
    inherited: t.inherited,
  });
}

/** List shape: no last_payment, no tracking. */
export function subscriptionListBody(s: SubscriptionListFields) {
  const p = s.pendingOffer;
  return {
    subscription_id: s.id,
    status: lower(s.status),
    customer: { id: s.customer.id, email: s.customer.email, external_id: s.customer.externalId },
    plan_id: s.planId,
    plan_name: s.planName,
    interval: lower(s.interval),
    current_period_end: s.currentPeriodEnd,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    collection_method: lower(s.collectionMethod),
    payment_method: s.paymentMethod ? { brand: s.paymentMethod.brand, last4: s.paymentMethod.last4 } : null,
    next_charge_amount_cents: s.nextChargeAmountCents,
    currency: s.currency,
    pending_offer: p
      ? {
          offer_id: p.offerId,
          plan_id: p.planId,
          plan_name: p.planName,
          interval: lower(p.interval),
          amount_cents: p.amountCents,
          effective_at: p.effectiveAt,
        }
      : null,
    entitlements: (s.entitlements ?? {}) as Record<string, unknown>,
  };
}

/** Detail shape (and event data): the list shape plus last_payment and tracking. */
export function subscriptionBody(s: SubscriptionFields) {
  return {
    ...subscriptionListBody(s),
    last_payment: s.lastPayment ? lastPaymentBody(s.lastPayment) : null,
    tracking: s.tracking ? trackingBody(s.tracking) : null,
  };
}
