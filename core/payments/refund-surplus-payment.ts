// Money the gateway took that pays nothing: for an invoice that was already settled or voided (its Pix QR
// paid after a card payment on /pay, or after the subscription was canceled), less than the charge (a Pix
// paid short: nothing is bought with part of it), or the part over the charge (a Pix paid over). Recorded
// on the payment as received, then refunded at once, of exactly that money, through the refund machinery
// (payment.refunded, revoke none; the refund's gateway key is derived from the payment id), so a customer
// is never charged twice and no payment is lost. A refund the gateway does not confirm stays in flight and
// the reconcile job finishes it.
import type { Runtime } from "../runtime.ts";
import { finishRefund } from "../refunds/finish-refund.ts";
import { callGatewayRefund } from "../refunds/gateway-refund.ts";
import { reserveRefund } from "../refunds/reserve-refund.ts";

export const SURPLUS_REFUND_REASON = "pagamento em duplicidade: a fatura já estava quitada ou cancelada";

/** The reason a surplus refund gives (kept on the payment and the refund). */
export function surplusReason(why: "closed" | "underpaid" | "overpaid", receivedCents: number, chargedCents: number): string {
  if (why === "underpaid") return `valor recebido (${receivedCents} centavos) menor que o cobrado (${chargedCents} centavos): devolvido, a cobrança segue em aberto`;
  if (why === "overpaid") return `valor recebido (${receivedCents} centavos) maior que o cobrado (${chargedCents} centavos): o excedente foi devolvido`;
  return SURPLUS_REFUND_REASON;
}

export async function refundSurplusPayment(
  runtime: Runtime,
  input: { tenantId: string; paymentId: string; now: Date; amountCents: number; reason: string },
): Promise<void> {
  const reserved = await reserveRefund(runtime, {
    tenantId: input.tenantId,
    paymentId: input.paymentId,
    amountCents: input.amountCents,
    confirmRunway: true,
    now: input.now,
    decide: () => ({ reason: input.reason, revoke: "none", completes: true }),
  });
  const result = await callGatewayRefund(runtime, reserved, input.now);
  runtime.faults?.("after-gateway-refund");
  const state = await finishRefund(runtime, { tenantId: input.tenantId, refundId: reserved.refundId, result, now: input.now });
  if (state !== "succeeded") runtime.logger.error({ payment_id: input.paymentId, tenant_id: input.tenantId, state }, "surplus payment not refunded by the gateway yet");
}
