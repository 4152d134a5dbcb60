// POST /v1/payments/{id}/refund: reserve (rules, a PENDING refund under a row lock), call the
// gateway with the refund's idempotency key, record the answer. Never twice: one pending refund per
// payment in the database, the gateway key per refund, and the reconcile job for an unanswered call.
import type { Runtime } from "../runtime.ts";
import { notFound, refundRefused } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { finishRefund } from "./finish-refund.ts";
import { callGatewayRefund } from "./gateway-refund.ts";
import { decideRefund, refundable, type RefundDecision } from "./refund-rules.ts";
import { reserveRefund } from "./reserve-refund.ts";

export interface RefundPaymentInput {
  tenantId: string;
  paymentId: string;
  amountCents: number;
  reason: unknown;
  revoke: unknown;
  confirmRunway: boolean;
  now: Date;
}

export interface RefundAnswer {
  level: "success" | "warning";
  message: string;
}

const REVOKED: Record<RefundDecision["revoke"], string> = {
  subscription: "; a assinatura foi cancelada",
  grant: "; o acesso comprado pelo pedido foi revogado",
  none: "",
};

export async function refundPayment(runtime: Runtime, input: RefundPaymentInput): Promise<RefundAnswer> {
  if (!isId("payment", input.paymentId)) throw notFound("payment");
  let decision: RefundDecision | null = null;
  const reserved = await reserveRefund(runtime, {
    ...input,
    decide: (payment, gateway) => (decision = decideRefund(refundable(payment), { amountCents: input.amountCents, reason: input.reason, revoke: input.revoke }, gateway)),
  });
  runtime.faults?.("after-commit");
  const result = await callGatewayRefund(runtime, reserved, input.now);
  runtime.faults?.("after-gateway-refund");
  const state = await finishRefund(runtime, { tenantId: input.tenantId, refundId: reserved.refundId, result, now: input.now });
  runtime.faults?.("after-commit");
  if (state === "failed") throw refundRefused(`o gateway recusou o reembolso${result?.detailCode ? ` (${result.detailCode})` : ""}`);
  if (state === "pending") {
    return { level: "warning", message: "reembolso enviado ao gateway, sem confirmação ainda: refund_in_flight fica true até a confirmação" };
  }
  const d = decision as RefundDecision | null;
  return { level: "success", message: `reembolso de ${input.amountCents} centavos confirmado${d?.completes ? REVOKED[d.revoke] : ""}` };
}
