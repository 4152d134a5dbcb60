// The gateway call of a reserved refund, logged as a gateway event row. The idempotency key is the
// refund's own, so calling again (a retry, the reconcile job after a crash) never refunds twice.
import type { RefundResult } from "../gateways/adapter.ts";
import { refundCharge } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import type { Runtime } from "../runtime.ts";
import type { ReservedRefund } from "./reserve-refund.ts";

/** The gateway's answer, or null when it did not answer (timeout, transport error). */
export async function callGatewayRefund(runtime: Runtime, refund: ReservedRefund, now: Date): Promise<RefundResult | null> {
  const prisma = runtime.db.prisma;
  const payment = await prisma.payment.findFirstOrThrow({ where: { id: refund.paymentId, tenantId: refund.tenantId } });
  const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: payment.gatewayAccountId, tenantId: refund.tenantId } });
  const ctx = {
    prisma,
    adapter: runtime.gateways.adapter(account.provider),
    account: accountRef(account),
    subscriptionId: payment.subscriptionId,
    orderId: payment.orderId,
    paymentId: payment.id,
    now,
  };
  return refundCharge(ctx, payment.invoiceId ?? payment.orderId ?? payment.id, {
    chargeId: payment.gatewayChargeId,
    amountCents: refund.amountCents,
    idempotencyKey: refund.idempotencyKey,
  });
}
