// Payment and order routes of /v1: refund a payment, and the pending order's Pix link.
import { Router, type Request } from "express";
import { AppError } from "../../../core/shared/errors.ts";
import type { CoreClient } from "../../core-client.ts";
import { loadOperation } from "../../operations.ts";
import { booleanField, integerField, stringField } from "../../params.ts";
import { toPaymentLink, type PaymentLinkSelection } from "../../serializers/link.ts";
import { toRefundAnswer } from "../../serializers/payment.ts";

const refundPayment = loadOperation("refund-payment");
const getOrderPaymentLink = loadOperation("get-order-payment-link");

const INT32_MAX = 2 ** 31 - 1;

export function paymentAndOrderRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();

  r.post("/payments/:id/refund", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const amount = integerField(body, "amount_cents");
    if (amount === null) throw new AppError("invalid_body", { error: "amount_cents is required (an integer number of cents)" });
    const data = await core.request<{ refundPayment: { level: string; message: string } }>(
      refundPayment,
      {
        id: req.params.id,
        // Beyond GraphQL's Int, an integer is still an integer: the core refuses it as out of balance (422).
        amountCents: Math.max(-INT32_MAX, Math.min(INT32_MAX, amount)),
        reason: stringField(body, "reason"),
        revoke: stringField(body, "revoke"),
        confirmRunway: booleanField(body, "confirm_runway"),
      },
      headers(req),
    );
    res.json(toRefundAnswer(data.refundPayment));
  });

  r.get("/orders/:id/payment-link", async (req, res) => {
    const data = await core.request<{ orderPaymentLink: PaymentLinkSelection }>(getOrderPaymentLink, { id: req.params.id }, headers(req));
    res.json(toPaymentLink(data.orderPaymentLink));
  });

  return r;
}
