// subscription.* / invoice.* events through the catalogue, inside the caller's transaction. The data
// is the subscription payload as it stands after the change, so each event's status is the new one.
import { emitEvents } from "../events/catalogue.ts";
import type { EventType } from "../events/event-types.ts";
import type { Tx } from "../events/record-event.ts";

export async function emitSubscriptionEvents(
  tx: Tx,
  input: { tenantId: string; subscriptionId: string; types: EventType[]; at: Date },
): Promise<void> {
  await emitEvents(tx, { tenantId: input.tenantId, subject: { kind: "subscription", subscriptionId: input.subscriptionId }, types: input.types, at: input.at });
}

/** Row lock on the subscription for the rest of the transaction: settlements and duties never interleave. */
export async function lockSubscription(tx: Tx, tenantId: string, subscriptionId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${subscriptionId} AND tenant_id = ${tenantId} FOR UPDATE`;
}
