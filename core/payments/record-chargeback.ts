// A chargeback filed by the gateway: the paid payment reads `chargedback` and the gateway event is
// logged. Access goes as a total refund with the default revoke would take it (docs/reference/orders-refunds-chargebacks.md):
// an invoice payment ends its subscription (subscription.canceled), an order payment revokes what the
// order delivered (order.refunded; its grant, or the time an early-renewal order added). With
// nothing left to revoke (already canceled or refunded), subscription.updated asks to reread.
import { PAYMENT } from "../../prisma/status-machines.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "../shared/tx.ts";
import { logGatewayEvent, paymentNotice } from "../gateways/log-gateway-event.ts";
import { revokeAccess } from "../refunds/revoke-access.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";

import { canMove, tryMoveStatus } from "../shared/transition.ts";

const CHARGEBACK_REASON = "chargeback";

/** `record`: written first in the same transaction (an inbound gateway notice's row: a replay aborts it all). */
export async function recordChargeback(
  runtime: Runtime,
  input: { tenantId: string; paymentId: string; now: Date; record?: (tx: Tx) => Promise<void> },
): Promise<boolean> {
  const prisma = runtime.db.prisma;
  const moved = await prisma.$transaction(async (tx) => {
    await input.record?.(tx);
    const payment = await tx.payment.findFirst({ where: { id: input.paymentId, tenantId: input.tenantId } });
    if (!payment || !canMove(PAYMENT, payment.status, "CHARGEDBACK")) return null;
    if (payment.subscriptionId) await lockSubscription(tx, input.tenantId, payment.subscriptionId);
    // Read before the lock: a refund that completed meanwhile makes this a no-op, never refunded -> chargedback.
    if (!(await tryMoveStatus(tx, PAYMENT, { id: payment.id, tenantId: payment.tenantId, to: "CHARGEDBACK", data: { refundInFlight: false } }))) return null;
    const updated = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
    const revoke = payment.orderId ? ("grant" as const) : ("subscription" as const);
    const announce = await revokeAccess(tx, { payment: updated, revoke, reason: CHARGEBACK_REASON, now: input.now });
    if (announce) await announce();
    else if (payment.subscriptionId) {
      await emitSubscriptionEvents(tx, { tenantId: input.tenantId, subscriptionId: payment.subscriptionId, types: ["subscription.updated"], at: input.now });
    }
    return payment;
  });
  if (!moved) return false;
  await logGatewayEvent(prisma, paymentNotice(moved, { kind: "chargeback", outcome: "refunded", gatewayId: moved.gatewayChargeId, at: input.now }));
  return true;
}
