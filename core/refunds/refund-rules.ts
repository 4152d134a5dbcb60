// The contract's refund rules as one pure decision (billing-api.md, Payments). What a refund may do
// depends on the payment: an invoice payment revokes a subscription, an order payment its grant
// (or, for an early-renewal order, the time it added). Revoking access needs a total refund: a
// partial refund or a courtesy (`none`) leaves access as it is.
import { refundRefused } from "../shared/errors.ts";
import { cents, type Cents } from "../shared/money.ts";

export type Revoke = "subscription" | "grant" | "none";
export const REVOKE_VALUES: readonly Revoke[] = ["subscription", "grant", "none"];
export const REFUND_REASON_MAX = 300;

export interface RefundablePayment {
  status: string;
  method: "CARD" | "PIX";
  /** The money the payment took (what the gateway received), the most that can be refunded. */
  amountCents: Cents;
  refundedAmountCents: Cents;
  refundInFlight: boolean;
  subscriptionId: string | null;
  orderId: string | null;
}

export interface RefundAsk {
  /** As asked (not yet validated: decideRefund refuses anything but 1 to the balance). */
  amountCents: number;
  reason: unknown;
  revoke: unknown;
}

export interface RefundDecision {
  reason: string;
  revoke: Revoke;
  /** True when this refund returns everything still refundable: the payment ends `refunded`. */
  completes: boolean;
}

/** A payment row's money, branded: what the rules read (the amount received, when the gateway said it). */
export function refundable(
  p: Omit<RefundablePayment, "amountCents" | "refundedAmountCents"> & { amountCents: number; amountReceivedCents?: number | null; refundedAmountCents: number },
): RefundablePayment {
  const { amountReceivedCents, ...rest } = p;
  return { ...rest, amountCents: cents(amountReceivedCents ?? p.amountCents), refundedAmountCents: cents(p.refundedAmountCents) };
}

export function decideRefund(payment: RefundablePayment, ask: RefundAsk, gateway: { sumsPartialRefunds: boolean }): RefundDecision {
  const reason = typeof ask.reason === "string" ? ask.reason.trim() : "";
  if (!reason) throw refundRefused("informe o motivo do reembolso (reason)");
  if (Array.from(reason).length > REFUND_REASON_MAX) throw refundRefused(`o motivo deve ter no máximo ${REFUND_REASON_MAX} caracteres`);
  const asked = ask.revoke ?? null;
  if (asked !== null && !REVOKE_VALUES.includes(asked as Revoke)) throw refundRefused("revoke deve ser subscription, grant ou none");
  if (payment.status !== "PAID") throw refundRefused(`só um pagamento pago pode ser reembolsado (status: ${payment.status === "UNKNOWN" ? "processing" : payment.status.toLowerCase()})`);
  if (payment.refundInFlight) throw refundRefused("já há um reembolso deste pagamento aguardando a confirmação do gateway");
  const balance = payment.amountCents - payment.refundedAmountCents;
  if (!Number.isSafeInteger(ask.amountCents) || ask.amountCents < 1 || ask.amountCents > balance) {
    throw refundRefused(`o valor do reembolso deve ser de 1 a ${balance} centavos`);
  }
  // Total: all that is left (a Pix paid over had its excess given back at once).
  if (payment.method === "PIX" && ask.amountCents !== balance) throw refundRefused("Pix aceita apenas o reembolso total");
  if (payment.refundedAmountCents > 0 && !gateway.sumsPartialRefunds) {
    throw refundRefused("o gateway desta cobrança não soma reembolsos parciais: ela já teve um reembolso");
  }
  const completes = ask.amountCents === balance;
  const access: Revoke = payment.orderId ? "grant" : "subscription";
  const revoke = (asked as Revoke | null) ?? (completes ? access : "none");
  if (revoke !== "none" && revoke !== access) {
    throw refundRefused(payment.orderId ? "um pagamento de pedido revoga grant ou none, nunca subscription" : "um pagamento de assinatura revoga subscription ou none, nunca grant");
  }
  if (revoke !== "none" && !completes) throw refundRefused("revogar o acesso exige o reembolso total; num reembolso parcial use revoke none");
  return { reason, revoke, completes };
}
