// A chargeback filed by the gateway: the paid payment reads `chargedback`, the gateway event is
// logged, and a subscription payment is announced with subscription.updated (reread and decide).
// What a chargeback does to access is the tenant's call; refunds and revocation live with refunds.
import type { Runtime } from "../runtime.ts";
import { logGatewayEvent, paymentNotice } from "../gateways/log-gateway-event.ts";
import { emitSubscriptionEvents, lockSubscription } from "../subscriptions/emit-subscription-events.ts";
import { canMovePayment } from "./transitions.ts";

export async function recordChargeback(runtime: Runtime, input: { tenantId: string; paymentId: string; now: Date }): Promise<boolean> {
  const prisma = runtime.db.prisma;
  const moved = await prisma.$transaction(async (tx) => {
    const payment = await tx.payment.findFirst({ where: { id: input.paymentId, tenantId: input.tenantId } });
    if (!payment || !canMovePayment(payment.status, "CHARGEDBACK")) return null;
    if (payment.subscriptionId) await lockSubscription(tx, input.tenantId, payment.subscriptionId);
    await tx.payment.update({ where: { id: payment.id }, data: { status: "CHARGEDBACK" } });
    if (payment.subscriptionId) {
      await emitSubscriptionEvents(tx, { tenantId: input.tenantId, subscriptionId: payment.subscriptionId, types: ["subscription.updated"], at: input.now });
    }
    return payment;
  });
  if (!moved) return false;
  await logGatewayEvent(prisma, paymentNotice(moved, { kind: "chargeback", outcome: "refunded", gatewayId: moved.gatewayChargeId, at: input.now }));
  return true;
}
