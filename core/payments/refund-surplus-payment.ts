// Money the gateway took for an invoice that was already settled or voided (its Pix QR paid after a
// card payment on /pay, or after the subscription was canceled): recorded as paid, then refunded in
// full at once through the refund machinery (payment.refunded, revoke none), so a customer is never
// charged twice and no payment is lost. A refund the gateway does not confirm stays in flight and the
// reconcile job finishes it.
import type { Runtime } from "../runtime.ts";
import { finishRefund } from "../refunds/finish-refund.ts";
import { callGatewayRefund } from "../refunds/gateway-refund.ts";
import { reserveRefund } from "../refunds/reserve-refund.ts";

export const SURPLUS_REFUND_REASON = "pagamento em duplicidade: a fatura já estava quitada ou cancelada";

export async function refundSurplusPayment(runtime: Runtime, input: { tenantId: string; paymentId: string; now: Date }): Promise<void> {
  const reserved = await reserveRefund(runtime, {
    tenantId: input.tenantId,
    paymentId: input.paymentId,
    amountCents: (await runtime.db.prisma.payment.findFirstOrThrow({ where: { id: input.paymentId, tenantId: input.tenantId } })).amountCents,
    confirmRunway: true,
    now: input.now,
    decide: () => ({ reason: SURPLUS_REFUND_REASON, revoke: "none", completes: true }),
  });
  const result = await callGatewayRefund(runtime, reserved, input.now);
  runtime.faults?.("after-gateway-refund");
  const state = await finishRefund(runtime, { tenantId: input.tenantId, refundId: reserved.refundId, result, now: input.now });
  if (state !== "succeeded") runtime.logger.error({ payment_id: input.paymentId, tenant_id: input.tenantId, state }, "surplus payment not refunded by the gateway yet");
}
