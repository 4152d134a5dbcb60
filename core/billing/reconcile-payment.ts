// Asks the gateway for the real outcome of a card attempt we never heard back from (timeout, crash
// between the charge and our commit) and settles it. Runs before any new attempt on that invoice.
import type { Payment } from "../../generated/prisma/client.ts";
import { askChargeOutcome } from "../gateways/ask-charge-outcome.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";
import { settlePayment, type SettleResult } from "./settle-payment.ts";


/** `retry`: the gateway never got the attempt, so a new one is safe. `unresolved`: ask again later. */
export type ReconcileResult = SettleResult | "retry" | "unresolved";

export async function reconcilePayment(runtime: Runtime, payment: Payment, now: Date): Promise<ReconcileResult> {
  const prisma = runtime.db.prisma;
  const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: payment.gatewayAccountId, tenantId: payment.tenantId } });
  const asked = await askChargeOutcome(
    { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: payment.subscriptionId, paymentId: payment.id, now },
    payment.invoiceId ?? payment.orderId ?? payment.id,
    payment.idempotencyKey,
    payment.gatewayChargeId,
  );
  if (!asked) return "unresolved";
  // Never received: failed, but no dunning attempt (a proration's invoice is void, an order's attempt gone).
  const settled = await settlePayment(runtime, { tenantId: payment.tenantId, paymentId: payment.id, verdict: asked.verdict, now, dunning: !asked.neverReceived });
  if (!asked.neverReceived) return settled;
  return settled === "already_settled" ? "already_settled" : "retry";
}
