// The 19 event types of the contract, in one place.
export const EVENT_TYPES = [
  "subscription.activated",
  "subscription.updated",
  "subscription.plan_changed",
  "subscription.plan_change_scheduled",
  "subscription.plan_change_canceled",
  "subscription.migration_link_issued",
  "subscription.trial_started",
  "subscription.past_due",
  "subscription.suspended",
  "subscription.canceled",
  "invoice.paid",
  "invoice.payment_failed",
  "order.paid",
  "order.refunded",
  "payment.refunded",
  "referral.created",
  "referral.qualified",
  "referral.rewarded",
  "referral.reverted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * The panel's "send a test event": not a billing event and not one of the contract's types. It goes to
 * the one endpoint asked for, signed like any other, and never appears in GET /v1/events.
 */
export const TEST_EVENT_TYPE = "webhook.test";
