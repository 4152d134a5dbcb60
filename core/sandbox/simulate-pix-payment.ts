// Sandbox: a payer's bank app pays the issued Pix charge whose BR Code payload is given. The
// gateway's ledger records the payment, then the payment settles as the gateway's notice would.
import type { Runtime } from "../runtime.ts";
import { paymentRowInclude } from "../payloads/payment-payload.ts";
import { settlePayment } from "../billing/settle-payment.ts";
import { logGatewayEvent, paymentNotice } from "../gateways/log-gateway-event.ts";
import { parseBrCode } from "../gateways/pix-br-code.ts";
import { tenantClock } from "../shared/clock.ts";
import { AppError, notFound } from "../shared/errors.ts";

export async function simulatePixPayment(runtime: Runtime, input: { copyPaste: string; tenantId?: string | null }) {
  const prisma = runtime.db.prisma;
  const copyPaste = input.copyPaste.trim();
  if (!parseBrCode(copyPaste)) throw new AppError("invalid_argument", { error: "copyPaste is not a valid BR Code (EMV fields with CRC16)" });
  const charge = await prisma.sandboxCharge.findFirst({ where: { copyPaste, kind: "pix", ...(input.tenantId ? { tenantId: input.tenantId } : {}) } });
  if (!charge) throw notFound("pix charge");
  const tenant = await prisma.tenant.findUniqueOrThrow({ where: { id: charge.tenantId }, select: { mode: true, clockAt: true } });
  if (tenant.mode !== "SANDBOX") throw new AppError("sandbox_only");
  const now = tenantClock(tenant, runtime.wallClock).now();
  const paid = await runtime.gateways.sandbox.payPix(copyPaste, now);
  if (!paid) throw new AppError("conflict", { error: "this Pix charge is expired or no longer payable" });
  const payment = await prisma.payment.findFirst({ where: { tenantId: charge.tenantId, idempotencyKey: charge.idempotencyKey } });
  if (!payment) throw notFound("payment");
  await logGatewayEvent(prisma, paymentNotice(payment, { kind: "pix_paid", outcome: "approved", gatewayId: charge.id, at: now }));
  await settlePayment(runtime, { tenantId: payment.tenantId, paymentId: payment.id, verdict: { outcome: "approved", chargeId: charge.id, detailCode: "" }, now });
  return prisma.payment.findUniqueOrThrow({ where: { id: payment.id }, include: paymentRowInclude });
}
