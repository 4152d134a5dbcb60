// The contract's refund rules (billing-api.md, Payments: refund) as one pure decision, one row per rule
// of decideRefund: what is accepted (and what it revokes), and every refusal with its message.
import { describe, expect, it } from "vitest";
import { decideRefund, REFUND_REASON_MAX, type RefundablePayment, type RefundAsk } from "../../../core/refunds/refund-rules.ts";
import { AppError } from "../../../core/shared/errors.ts";
import type { Cents } from "../../../core/shared/money.ts";

const c = (n: number) => n as Cents;

// A paid card payment of a subscription invoice, R$ 100.00, nothing refunded yet.
const subPayment: RefundablePayment = {
  status: "PAID",
  method: "CARD",
  amountCents: c(10_000),
  refundedAmountCents: c(0),
  refundInFlight: false,
  subscriptionId: "sub_1",
  orderId: null,
};
const orderPayment: RefundablePayment = { ...subPayment, subscriptionId: null, orderId: "ord_1" };
const pixPayment: RefundablePayment = { ...subPayment, method: "PIX" };
// 6000 of 10 000 already refunded: 4000 left.
const partlyRefunded: RefundablePayment = { ...subPayment, refundedAmountCents: c(6000) };

const ask = (amountCents: number, revoke?: unknown, reason: unknown = "duplicate charge"): RefundAsk => ({ amountCents: c(amountCents), reason, revoke });
const sums = { sumsPartialRefunds: true };
const noSums = { sumsPartialRefunds: false };

describe("decideRefund: accepted", () => {
  it.each([
    ["a total refund of a subscription payment revokes the subscription by default", subPayment, ask(10_000), sums,
      { reason: "duplicate charge", revoke: "subscription", completes: true }],
    ["a partial refund revokes nothing by default", subPayment, ask(4000), sums, { reason: "duplicate charge", revoke: "none", completes: false }],
    ["the smallest refund is 1 cent", subPayment, ask(1), sums, { reason: "duplicate charge", revoke: "none", completes: false }],
    ["a total refund with revoke none is a courtesy: access stays", subPayment, ask(10_000, "none"), sums,
      { reason: "duplicate charge", revoke: "none", completes: true }],
    ["a total refund may name revoke subscription", subPayment, ask(10_000, "subscription"), sums,
      { reason: "duplicate charge", revoke: "subscription", completes: true }],
    ["revoke null counts as omitted", subPayment, ask(10_000, null), sums, { reason: "duplicate charge", revoke: "subscription", completes: true }],
    ["a partial refund may name revoke none", subPayment, ask(4000, "none"), sums, { reason: "duplicate charge", revoke: "none", completes: false }],
    ["a total refund of an order payment revokes the grant by default", orderPayment, ask(10_000), sums,
      { reason: "duplicate charge", revoke: "grant", completes: true }],
    ["a total refund of an order payment may name revoke grant", orderPayment, ask(10_000, "grant"), sums,
      { reason: "duplicate charge", revoke: "grant", completes: true }],
    ["a partial refund of an order payment revokes nothing", orderPayment, ask(2500), sums, { reason: "duplicate charge", revoke: "none", completes: false }],
    // 10 000 − 6000 = 4000 left: refunding 4000 completes the payment
    ["a second refund of the whole balance completes the payment and revokes", partlyRefunded, ask(4000), sums,
      { reason: "duplicate charge", revoke: "subscription", completes: true }],
    ["a second partial refund under the balance completes nothing", partlyRefunded, ask(3999), sums,
      { reason: "duplicate charge", revoke: "none", completes: false }],
    ["Pix refunds the whole amount", pixPayment, ask(10_000), sums, { reason: "duplicate charge", revoke: "subscription", completes: true }],
    ["Pix, total, courtesy", pixPayment, ask(10_000, "none"), noSums, { reason: "duplicate charge", revoke: "none", completes: true }],
    ["a first partial refund is fine on a gateway that does not sum partial refunds", subPayment, ask(4000), noSums,
      { reason: "duplicate charge", revoke: "none", completes: false }],
    ["the reason is trimmed", subPayment, ask(4000, undefined, "  cobrança duplicada \n"), sums, { reason: "cobrança duplicada", revoke: "none", completes: false }],
    [`a reason of exactly ${REFUND_REASON_MAX} characters`, subPayment, ask(4000, undefined, "a".repeat(300)), sums,
      { reason: "a".repeat(300), revoke: "none", completes: false }],
    // 300 emoji are 600 UTF-16 units: the limit counts characters (code points)
    ["300 emoji count as 300 characters", subPayment, ask(4000, undefined, "😀".repeat(300)), sums,
      { reason: "😀".repeat(300), revoke: "none", completes: false }],
    ["blanks around a 300-character reason are not counted", subPayment, ask(4000, undefined, `  ${"a".repeat(300)}  `), sums,
      { reason: "a".repeat(300), revoke: "none", completes: false }],
  ])("%s", (_name, payment, refundAsk, gateway, expected) => {
    expect(decideRefund(payment, refundAsk, gateway)).toEqual(expected);
  });
});

function refusal(fn: () => unknown): { key: string; message: string } | "accepted" {
  try {
    fn();
    return "accepted";
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { key: e.key, message: e.message };
  }
}

const NO_REASON = "informe o motivo do reembolso (reason)";
const TOO_LONG = "o motivo deve ter no máximo 300 caracteres";
const BAD_REVOKE = "revoke deve ser subscription, grant ou none";
const AMOUNT_10000 = "o valor do reembolso deve ser de 1 a 10000 centavos";
const TOTAL_TO_REVOKE = "revogar o acesso exige o reembolso total; num reembolso parcial use revoke none";

describe("decideRefund: refused", () => {
  it.each([
    // reason
    ["no reason", subPayment, { amountCents: c(10_000), reason: undefined, revoke: undefined }, sums, NO_REASON],
    ["an empty reason", subPayment, ask(10_000, undefined, ""), sums, NO_REASON],
    ["a blank reason", subPayment, ask(10_000, undefined, "  \t\n "), sums, NO_REASON],
    ["a reason that is not text", subPayment, ask(10_000, undefined, 42), sums, NO_REASON],
    ["a reason of 301 characters", subPayment, ask(10_000, undefined, "a".repeat(301)), sums, TOO_LONG],
    ["a reason of 301 emoji", subPayment, ask(10_000, undefined, "😀".repeat(301)), sums, TOO_LONG],
    // revoke values
    ["an unknown revoke", subPayment, ask(10_000, "all"), sums, BAD_REVOKE],
    ["revoke is case-sensitive", subPayment, ask(10_000, "Subscription"), sums, BAD_REVOKE],
    ["an empty revoke is not an omitted one", subPayment, ask(10_000, ""), sums, BAD_REVOKE],
    ["a revoke that is not text", subPayment, ask(10_000, 1), sums, BAD_REVOKE],
    // payment status (UNKNOWN is shown as the contract's `processing`)
    ["a pending payment", { ...subPayment, status: "PENDING" }, ask(10_000), sums, "só um pagamento pago pode ser reembolsado (status: pending)"],
    ["a failed payment", { ...subPayment, status: "FAILED" }, ask(10_000), sums, "só um pagamento pago pode ser reembolsado (status: failed)"],
    ["a fully refunded payment", { ...subPayment, status: "REFUNDED", refundedAmountCents: c(10_000) }, ask(1), sums,
      "só um pagamento pago pode ser reembolsado (status: refunded)"],
    ["a payment whose outcome is unknown", { ...subPayment, status: "UNKNOWN" }, ask(10_000), sums,
      "só um pagamento pago pode ser reembolsado (status: processing)"],
    ["a refund already waiting for the gateway", { ...subPayment, refundInFlight: true }, ask(10_000), sums,
      "já há um reembolso deste pagamento aguardando a confirmação do gateway"],
    // amount: an integer from 1 to the balance
    ["zero cents", subPayment, ask(0), sums, AMOUNT_10000],
    ["negative cents", subPayment, ask(-1), sums, AMOUNT_10000],
    ["fractional cents", subPayment, ask(1.5), sums, AMOUNT_10000],
    ["NaN cents", subPayment, ask(Number.NaN), sums, AMOUNT_10000],
    ["infinite cents", subPayment, ask(Number.POSITIVE_INFINITY), sums, AMOUNT_10000],
    ["cents beyond the safe integers", subPayment, ask(2 ** 53), sums, AMOUNT_10000],
    ["more than the payment", subPayment, ask(10_001), sums, AMOUNT_10000],
    // 10 000 − 6000 = 4000 left
    ["more than the balance left after an earlier refund", partlyRefunded, ask(4001), sums, "o valor do reembolso deve ser de 1 a 4000 centavos"],
    // Pix
    ["a partial Pix refund", pixPayment, ask(9999), sums, "Pix aceita apenas o reembolso total"],
    // gateway that does not sum partial refunds
    ["a second refund on a gateway that does not sum partial refunds", partlyRefunded, ask(1000), noSums,
      "o gateway desta cobrança não soma reembolsos parciais: ela já teve um reembolso"],
    ["even a second refund of the whole balance on that gateway", partlyRefunded, ask(4000), noSums,
      "o gateway desta cobrança não soma reembolsos parciais: ela já teve um reembolso"],
    // what the payment can revoke
    ["a subscription payment cannot revoke a grant", subPayment, ask(10_000, "grant"), sums,
      "um pagamento de assinatura revoga subscription ou none, nunca grant"],
    ["an order payment cannot revoke a subscription", orderPayment, ask(10_000, "subscription"), sums,
      "um pagamento de pedido revoga grant ou none, nunca subscription"],
    ["a partial refund cannot revoke the subscription", subPayment, ask(9999, "subscription"), sums, TOTAL_TO_REVOKE],
    ["a partial refund cannot revoke the grant", orderPayment, ask(1, "grant"), sums, TOTAL_TO_REVOKE],
    ["a second partial refund under the balance cannot revoke", partlyRefunded, ask(3999, "subscription"), sums, TOTAL_TO_REVOKE],
    // order of the checks: the first failing rule is the one reported
    ["the reason is checked before the status", { ...subPayment, status: "FAILED" }, ask(0, "all", ""), sums, NO_REASON],
    ["revoke is checked before the status", { ...subPayment, status: "FAILED" }, ask(0, "all"), sums, BAD_REVOKE],
    ["the status is checked before the amount", { ...subPayment, status: "PENDING" }, ask(0), sums,
      "só um pagamento pago pode ser reembolsado (status: pending)"],
    ["the amount is checked before the Pix rule", pixPayment, ask(0), sums, AMOUNT_10000],
  ])("%s", (_name, payment, refundAsk, gateway, message) => {
    expect(refusal(() => decideRefund(payment, refundAsk, gateway))).toEqual({ key: "refund_refused", message });
  });

  it("answers with the contract's refusal body {level: 'error', message} and status 422", () => {
    try {
      decideRefund(subPayment, ask(10_001), sums);
      expect.unreachable("the refund should be refused");
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      const err = e as AppError;
      expect(err.status).toBe(422);
      expect(err.body).toEqual({ level: "error", message: AMOUNT_10000 });
    }
  });
});
