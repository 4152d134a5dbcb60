// Subscription bodies of /v1 from the typed Subscription selection: the list shape (lists) and the
// full payload (GET /v1/subscriptions/{id}, plan-change and reschedule answers). The shapes are the
// core's pure builders (subscription-body.ts), the same ones the webhook data uses.
import { subscriptionBody, subscriptionListBody, type SubscriptionFields, type SubscriptionListFields } from "../../core/payloads/subscription-body.ts";

export type SubscriptionListSelection = SubscriptionListFields;
export type SubscriptionSelection = SubscriptionFields;

export const toSubscriptionListItem = (s: SubscriptionListSelection) => subscriptionListBody(s);
export const toSubscription = (s: SubscriptionSelection) => subscriptionBody(s);
