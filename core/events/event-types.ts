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
