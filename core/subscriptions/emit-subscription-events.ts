// Writes subscription.* / invoice.* events to the outbox inside the caller's transaction. The data is
// the subscription payload as it stands after the change, so each event's status is the new one.
import type { Tx } from "../events/record-event.ts";
import { recordEvent } from "../events/record-event.ts";
import type { EventType } from "../events/event-types.ts";
import { subscriptionDetailInclude, subscriptionPayload } from "./subscription-payload.ts";

export async function emitSubscriptionEvents(
  tx: Tx,
  input: { tenantId: string; subscriptionId: string; types: EventType[]; at: Date },
): Promise<void> {
  if (input.types.length === 0) return;
  const sub = await tx.subscription.findFirstOrThrow({
    where: { id: input.subscriptionId, tenantId: input.tenantId },
    include: subscriptionDetailInclude,
  });
  const data = subscriptionPayload(sub);
  for (const type of input.types) await recordEvent(tx, { tenantId: input.tenantId, type, data, at: input.at });
}

/** Row lock on the subscription for the rest of the transaction: settlements and duties never interleave. */
export async function lockSubscription(tx: Tx, tenantId: string, subscriptionId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${subscriptionId} AND tenant_id = ${tenantId} FOR UPDATE`;
}
