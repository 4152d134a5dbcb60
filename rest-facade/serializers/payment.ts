// Payment bodies of /v1 from the typed Payment selection: the row (customer payments), the detail
// (GET /v1/payments/{id}) and last_payment. The shapes are the core's pure builders (payment-body.ts),
// the same ones the webhook data uses.
import { lastPaymentBody, paymentDetailBody, paymentRowBody, type LastPaymentFields, type PaymentFields, type PaymentItemFields } from "../../core/payloads/payment-body.ts";

export type PaymentRowSelection = Omit<PaymentFields, "paidAmountCents">;
export type PaymentDetailSelection = PaymentRowSelection & { items: PaymentItemFields[] };
export type LastPaymentSelection = LastPaymentFields;

export const toPaymentRow = (p: PaymentRowSelection) => paymentRowBody(p);
export const toPaymentDetail = (p: PaymentDetailSelection) => paymentDetailBody(p);
export const toLastPayment = (p: LastPaymentSelection) => lastPaymentBody(p);

/** POST /v1/payments/{id}/refund. */
export const toRefundAnswer = (r: { level: string; message: string }) => ({ level: r.level, message: r.message });
