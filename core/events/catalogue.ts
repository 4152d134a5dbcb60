// The 19 event types of the contract, each with the shape of its data and the builder that makes
// it, in one place. Every emitter goes through emitEvents, so a type can only carry its own shape.
import type { EventType } from "./event-types.ts";
import { migrationLinkEventData, orderEventData, referralEventData, refundEventData, subscriptionEventData, type EventData } from "./event-data.ts";
import { recordEvent } from "./record-event.ts";
import type { Tx } from "../shared/tx.ts";

/** What an event is about; its kind decides the data builder. */
export type EventSubject =
  | { kind: "subscription"; subscriptionId: string }
  | { kind: "migration_link"; subscriptionId: string; link: { url: string; offer_id: string; expires_at: string } }
  | { kind: "order"; orderId: string }
  | { kind: "refund"; refundId: string }
  | { kind: "referral"; referralId: string };

interface CatalogueEntry {
  subjects: readonly EventSubject["kind"][];
  /** Status values the contract lists for the type's data. */
  statuses: readonly string[];
}

const SUBSCRIPTION = ["subscription"] as const;

export const EVENT_CATALOGUE: Record<EventType, CatalogueEntry> = {
  "subscription.activated": { subjects: SUBSCRIPTION, statuses: ["active", "trialing"] },
  "subscription.updated": { subjects: SUBSCRIPTION, statuses: ["active", "past_due", "suspended", "canceled", "trialing"] },
  "subscription.plan_changed": { subjects: SUBSCRIPTION, statuses: ["active"] },
  "subscription.plan_change_scheduled": { subjects: SUBSCRIPTION, statuses: ["active"] },
  "subscription.plan_change_canceled": { subjects: SUBSCRIPTION, statuses: ["active"] },
  "subscription.migration_link_issued": { subjects: ["migration_link"], statuses: ["active", "trialing", "past_due"] },
  "subscription.trial_started": { subjects: SUBSCRIPTION, statuses: ["trialing"] },
  "subscription.past_due": { subjects: SUBSCRIPTION, statuses: ["past_due"] },
  "subscription.suspended": { subjects: SUBSCRIPTION, statuses: ["suspended"] },
  "subscription.canceled": { subjects: SUBSCRIPTION, statuses: ["canceled"] },
  "invoice.paid": { subjects: SUBSCRIPTION, statuses: ["active", "trialing"] },
  "invoice.payment_failed": { subjects: SUBSCRIPTION, statuses: ["past_due", "suspended"] },
  "order.paid": { subjects: ["order"], statuses: ["paid"] },
  "order.refunded": { subjects: ["order"], statuses: ["refunded"] },
  "payment.refunded": { subjects: ["refund"], statuses: ["active", "past_due", "canceled", "paid", "refunded"] },
  "referral.created": { subjects: ["referral"], statuses: ["pending"] },
  "referral.qualified": { subjects: ["referral"], statuses: ["qualified"] },
  "referral.rewarded": { subjects: ["referral"], statuses: ["rewarded"] },
  "referral.reverted": { subjects: ["referral"], statuses: ["reverted"] },
};

export function buildEventData(tx: Tx, tenantId: string, subject: EventSubject): Promise<EventData> {
  switch (subject.kind) {
    case "subscription":
      return subscriptionEventData(tx, tenantId, subject.subscriptionId);
    case "migration_link":
      return migrationLinkEventData(tx, tenantId, subject.subscriptionId, subject.link);
    case "order":
      return orderEventData(tx, tenantId, subject.orderId);
    case "refund":
      return refundEventData(tx, tenantId, subject.refundId);
    case "referral":
      return referralEventData(tx, tenantId, subject.referralId);
  }
}

/**
 * Writes events about one subject to the outbox inside the caller's transaction. The data is built
 * once, after the change, so every event of the batch carries the new state.
 */
export async function emitEvents(tx: Tx, input: { tenantId: string; subject: EventSubject; types: EventType[]; at: Date }): Promise<string[]> {
  if (input.types.length === 0) return [];
  for (const type of input.types) {
    if (!EVENT_CATALOGUE[type].subjects.includes(input.subject.kind)) throw new Error(`${type} cannot carry ${input.subject.kind} data`);
  }
  const data = await buildEventData(tx, input.tenantId, input.subject);
  const ids: string[] = [];
  for (const type of input.types) ids.push(await recordEvent(tx, { tenantId: input.tenantId, type, data, at: input.at }));
  return ids;
}
