// Money the gateway took for an invoice that was already settled or voided (its Pix QR paid after a
// card payment on /pay, or after the subscription was canceled): recorded as paid, then refunded in
// full at once, so a customer is never charged twice and no payment is lost. A refund the gateway
// does not confirm stays visible as refund_in_flight.
import type { Runtime } from "../runtime.ts";
import { refundCharge } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { newId } from "../shared/ids.ts";

export const SURPLUS_REFUND_REASON = "pagamento em duplicidade: a fatura já estava quitada ou cancelada";

export async function refundSurplusPayment(runtime: Runtime, input: { tenantId: string; paymentId: string; now: Date }): Promise<void> {
  const prisma = runtime.db.prisma;
  const payment = await prisma.payment.findFirstOrThrow({ where: { id: input.paymentId, tenantId: input.tenantId } });
  const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: payment.gatewayAccountId, tenantId: input.tenantId } });
  const ctx = { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: payment.subscriptionId, paymentId: payment.id, now: input.now };
  const result = await refundCharge(ctx, payment.invoiceId ?? payment.orderId ?? payment.id, {
    chargeId: payment.gatewayChargeId,
    amountCents: payment.amountCents,
    idempotencyKey: `${payment.id}:surplus`,
  });
  if (result?.outcome !== "refunded") {
    runtime.logger.error({ payment_id: payment.id, tenant_id: payment.tenantId }, "surplus payment not refunded by the gateway; refund_in_flight stays true");
    return;
  }
  await prisma.$transaction([
    prisma.refund.create({
      data: {
        id: newId("refund"),
        tenantId: payment.tenantId,
        paymentId: payment.id,
        amountCents: payment.amountCents,
        reason: SURPLUS_REFUND_REASON,
        revoke: "none",
        status: "SUCCEEDED",
        sequence: 1,
        gatewayRefundId: result.refundId,
        createdAt: input.now,
      },
    }),
    prisma.payment.update({
      where: { id: payment.id },
      data: { status: "REFUNDED", refundedAmountCents: payment.amountCents, refundInFlight: false },
    }),
  ]);
}
