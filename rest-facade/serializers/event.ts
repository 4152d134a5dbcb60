// GET /v1/events elements from the typed Event selection: the webhook envelope around the data of
// the event's shape. The envelope and the three data shapes are the core's pure builders, the same
// ones the webhook sender uses; the data's keys come back in the order of the stored jsonb column.
import { eventEnvelope } from "../../core/events/event-envelope.ts";
import { orderEventBody, type OrderEventFields } from "../../core/payloads/order-body.ts";
import { referralEventBody, type ReferralEventFields } from "../../core/payloads/referral-body.ts";
import { jsonbOrder } from "../../core/shared/jsonb-order.ts";
import { subscriptionBody, type SubscriptionFields } from "../../core/payloads/subscription-body.ts";

export type EventDataSelection =
  | (SubscriptionFields & { __typename: "SubscriptionEventData"; migrationLink: { url: string; offerId: string; expiresAt: string } | null })
  // The statuses of the three shapes are different enums: the document aliases two of them.
  | (Omit<OrderEventFields, "status"> & { __typename: "OrderEventData"; orderStatus: string })
  | (Omit<ReferralEventFields, "status"> & { __typename: "ReferralEventData"; referralStatus: string });

export interface EventSelection {
  id: string;
  type: string;
  tenantId: string;
  createdAt: string;
  data: EventDataSelection;
}

function eventData(d: EventDataSelection) {
  switch (d.__typename) {
    case "SubscriptionEventData": {
      const link = d.migrationLink;
      return { ...subscriptionBody(d), ...(link ? { migration_link: { url: link.url, offer_id: link.offerId, expires_at: link.expiresAt } } : {}) };
    }
    case "OrderEventData":
      return orderEventBody({ ...d, status: d.orderStatus });
    case "ReferralEventData":
      return referralEventBody({ ...d, status: d.referralStatus });
  }
}

export const toEventEnvelope = (e: EventSelection) => eventEnvelope({ ...e, data: jsonbOrder(eventData(e.data)) });
