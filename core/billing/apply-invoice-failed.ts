// What a failed attempt on an invoice does to its subscription: past_due with the retry schedule
// (D+1, D+3, D+5, D+9 from the due date), then suspended when the D+9 attempt fails.
import type { Invoice, Subscription } from "../../generated/prisma/client.ts";
import { SUBSCRIPTION } from "../../prisma/status-machines.ts";
import type { EventType } from "../events/event-types.ts";
import type { Tx } from "../shared/tx.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { nextRetryAt } from "../shared/periods.ts";
import { isIn, LIVING } from "../shared/status-sets.ts";
import { moveStatus } from "../shared/transition.ts";

export type FailureEffect = "past_due" | "retry_scheduled" | "suspended" | "none";

export async function applyInvoiceFailed(
  tx: Tx,
  input: { subscription: Pick<Subscription, "id" | "tenantId" | "status">; invoice: Invoice; attemptsMade: number; now: Date },
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
  await moveStatus(tx, SUBSCRIPTION, {
    id: sub.id,
    tenantId: sub.tenantId,
    to: effect === "suspended" ? "SUSPENDED" : "PAST_DUE",
    data: { nextBillingAt: effect === "suspended" ? null : retryAt },
  });
  await emitSubscriptionEvents(tx, { tenantId: sub.tenantId, subscriptionId: sub.id, types, at: now });
  return effect;
}
