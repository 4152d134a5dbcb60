// What a failed attempt on an invoice does to its subscription: past_due with the retry schedule
// (D+1, D+3, D+5, D+9 from the due date), then suspended when the D+9 attempt fails.
import type { Invoice, Subscription } from "../../generated/prisma/client.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";
import type { EventType } from "../events/event-types.ts";
import type { Tx } from "../shared/tx.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { nextRetryAt } from "../shared/periods.ts";
import { isIn, LIVING } from "../shared/status-sets.ts";
import { moveRefused, moveStatusRows } from "../shared/transition.ts";

export type FailureEffect = "past_due" | "retry_scheduled" | "suspended" | "none";

export async function applyInvoiceFailed(
  tx: Tx,
  input: { subscription: Pick<Subscription, "id" | "tenantId" | "status">; invoice: Pick<Invoice, "dueAt">; attemptsMade: number; now: Date; /** Stamps updated_at. */ wallNow: Date },
): Promise<FailureEffect> {
  const { subscription: sub, invoice, now } = input;
  // Failed attempts made from a payment page on a suspended or canceled subscription change nothing.
  if (!isIn(LIVING, sub.status)) return "none";
  const retryAt = nextRetryAt(invoice.dueAt, input.attemptsMade);
  let effect: FailureEffect;
  let types: EventType[];
  if (sub.status !== "PAST_DUE") [effect, types] = ["past_due", ["invoice.payment_failed", "subscription.past_due"]];
  else if (retryAt) [effect, types] = ["retry_scheduled", ["invoice.payment_failed"]];
  else [effect, types] = ["suspended", ["invoice.payment_failed", "subscription.suspended"]];
  // One statement under the transition table's guard (moveStatusRows), without Prisma's compiler: every dunning step runs it.
  const to = effect === "suspended" ? "SUSPENDED" : "PAST_DUE";
  const moved = await moveStatusRows(tx, SUBSCRIPTION, {
    to,
    columns: { next_billing_at: "timestamp", updated_at: "timestamp" },
    rows: [{ id: sub.id, tenantId: sub.tenantId, values: { next_billing_at: effect === "suspended" ? null : retryAt, updated_at: input.wallNow } }],
  });
  if (moved.length !== 1) throw moveRefused("subscription", to);
  await emitSubscriptionEvents(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, types, at: now });
  return effect;
}
