// A Pix the payer paid at the provider after we had given its attempt up (FAILED: its QR expired on our
// clock, or the checkout or subscription it belonged to ended) — the provider took the money, so it is
// recorded, never dropped. The failed attempt stays as it was (that attempt did fail, for us); the money
// is a new attempt of the same invoice or order carrying the provider's charge, settled approved through
// settlePayment like every verdict: it pays the invoice or order if that is still open, otherwise it is a
// surplus, recorded and refunded in full at once (refund-surplus-payment.ts), as the sandbox does with a
// renewal QR paid after the invoice was settled. One late attempt per failed one (its key is derived).
import type { Payment } from "../../generated/prisma/client.ts";
import type { Tx } from "../shared/tx.ts";
import type { Runtime } from "../runtime.ts";
import { newId } from "../shared/ids.ts";
import { settlePayment, type SettleResult } from "./settle-payment.ts";

/** The idempotency key of the attempt that records a late payment of `failed`. */
export const latePixKey = (failed: Pick<Payment, "idempotencyKey">) => `${failed.idempotencyKey}:paid-late`;

export async function recordLatePixPayment(
  runtime: Runtime,
  input: {
    failed: Payment;
    chargeId: string;
    /** What the gateway says it received (null: the amount charged): a surplus is refunded of exactly that. */
    amountCents?: number | null;
    now: Date;
    record?: (tx: Tx) => Promise<void>;
    beforeSettling?: (late: Payment) => Promise<void>;
  },
): Promise<SettleResult | "already_recorded"> {
  const { failed, now } = input;
  if (failed.method !== "PIX" || failed.status !== "FAILED") throw new Error(`payment ${failed.id} is not a failed Pix attempt`);
  const prisma = runtime.db.prisma;
  const key = latePixKey(failed);
  if (await prisma.payment.findUnique({ where: { idempotencyKey: key }, select: { id: true } })) return "already_recorded";
  const id = newId("payment");
  const parent = failed.invoiceId ? { invoiceId: failed.invoiceId } : failed.orderId ? { orderId: failed.orderId } : { id: failed.id };
  const attemptNo = (await prisma.payment.count({ where: { tenantId: failed.tenantId, ...parent } })) + 1;
  // Scalars only (the caller's row may carry relations): the failed attempt's payer, parent and account.
  const late: Payment = {
    id,
    tenantId: failed.tenantId,
    customerId: failed.customerId,
    subscriptionId: failed.subscriptionId,
    invoiceId: failed.invoiceId,
    orderId: failed.orderId,
    paidInvoiceId: null,
    paidOrderId: null,
    kind: failed.kind,
    method: "PIX",
    methodKind: failed.methodKind,
    amountCents: failed.amountCents,
    amountReceivedCents: null,
    currency: failed.currency,
    status: "PROCESSING",
    attemptNo,
    idempotencyKey: key,
    refundedAmountCents: 0,
    refundInFlight: false,
    refundReason: "",
    failureCode: "",
    gatewayAccountId: failed.gatewayAccountId,
    provider: failed.provider,
    gatewayChargeId: input.chargeId,
    paymentMethodId: null,
    cardBrand: null,
    cardLast4: null,
    pixCopyPaste: null,
    pixExpiresAt: null,
    paidAt: null,
    createdAt: now,
  };
  // The gateway's notice is logged first (the log keeps what the gateway said), then the money settles.
  await input.beforeSettling?.(late);
  return settlePayment(
    runtime,
    { tenantId: failed.tenantId, paymentId: id, verdict: { outcome: "approved", chargeId: input.chargeId, detailCode: "", amountCents: input.amountCents }, now },
    {
      // Written in the settlement's own transaction: the attempt never exists without its verdict, and a
      // second recording of the same late payment collides on the key and rolls back.
      record: async (tx) => {
        await input.record?.(tx);
        const { createdAt: _dbTime, ...row } = late;
        await tx.payment.create({ data: row });
      },
    },
  );
}
