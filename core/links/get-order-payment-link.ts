// GET /v1/orders/{id}/payment-link: a second copy of a pending order's Pix (one-off purchase or
// renewal advance) to resend to the customer: a /pay link showing the QR, never the order id. A QR
// that expired is reopened as the order's next Pix attempt; the order stays the same.
import type { Order, Payment } from "../../generated/prisma/client.ts";
import { PAYMENT } from "../../prisma/status-machines.ts";
import { createPixCharge } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { mintLink } from "../shared/mint-link.ts";
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId, newId } from "../shared/ids.ts";
import { failExpiredPix } from "../payments/fail-expired-pix.ts";
import { cents } from "../shared/money.ts";
import { queuePixChargeEmail } from "../emails/queue-pix-charge-email.ts";

/** A reopened order QR is payable for one day, like the checkout's. */
const REOPENED_PIX_TTL_MS = 86_400_000;

export async function getOrderPaymentLink(runtime: Runtime, input: { tenantId: string; orderId: string; now: Date }) {
  const prisma = runtime.db.prisma;
  const { tenantId, now } = input;
  if (!isId("order", input.orderId)) throw notFound("order");
  const order = await prisma.order.findFirst({ where: { id: input.orderId, tenantId } });
  if (!order) throw notFound("order");
  const pending = await prisma.payment.findFirst({ where: { tenantId, orderId: order.id, method: "PIX", status: "PROCESSING" }, orderBy: { id: "desc" } });
  if (order.status !== "PENDING" || !pending) throw new AppError("no_pending_order_pix");
  const live = pending.pixExpiresAt && pending.pixExpiresAt.getTime() > now.getTime() && pending.pixCopyPaste ? pending : await reopenPix(runtime, order, pending, now);
  const link = await prisma.$transaction((tx) =>
    mintLink(tx, {
      tenantId,
      kind: "ORDER_PIX",
      expiresAt: live.pixExpiresAt!,
      fields: { customerId: order.customerId, orderId: order.id, subscriptionId: order.targetSubscriptionId, priceCents: order.amountCents },
    }),
  );
  return {
    url: `${runtime.config.publicUrl}${link.path}`,
    status: "open",
    amountCents: order.amountCents,
    currency: order.currency,
    method: "pix",
    expiresAt: live.pixExpiresAt!,
    pix: { copyPaste: live.pixCopyPaste!, qrPngUrl: `${runtime.config.publicUrl}/pix/${live.id}/qr.png`, expiresAt: live.pixExpiresAt! },
  };
}

/** The order's next Pix attempt; concurrent reopenings share it (same gateway key, same row). */
async function reopenPix(runtime: Runtime, order: Order, expired: Payment, now: Date): Promise<Payment> {
  const prisma = runtime.db.prisma;
  const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: expired.gatewayAccountId, tenantId: order.tenantId } });
  const attemptNo = expired.attemptNo + 1;
  const idempotencyKey = `${order.id}:${attemptNo}`;
  const paymentId = newId("payment");
  const gw = { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), orderId: order.id, paymentId, now };
  const pix = await createPixCharge(gw, {
    amountCents: cents(order.amountCents),
    currency: order.currency,
    idempotencyKey,
    reference: order.id,
    expiresAt: new Date(now.getTime() + REOPENED_PIX_TTL_MS),
  });
  await prisma.$transaction(async (tx) => {
    // Replaced (expired, or never given a QR): the attempt fails whatever its expiry.
    await failExpiredPix(tx, { tenantId: order.tenantId, attempts: { id: expired.id }, expiredBy: null });
    await tx.payment.createMany({
      data: [
        {
          id: paymentId,
          tenantId: order.tenantId,
          customerId: order.customerId,
          orderId: order.id,
          kind: "ONE_TIME",
          method: "PIX",
          methodKind: "pix",
          amountCents: order.amountCents,
          currency: order.currency,
          status: "PROCESSING",
          attemptNo,
          idempotencyKey,
          gatewayAccountId: account.id,
          provider: account.provider,
          gatewayChargeId: pix.chargeId,
          pixCopyPaste: pix.copyPaste,
          pixExpiresAt: pix.expiresAt,
        },
      ],
      skipDuplicates: true,
    });
    await queuePixChargeEmail(tx, { tenantId: order.tenantId, paymentId, publicUrl: runtime.config.publicUrl, at: now });
  });
  return prisma.payment.findFirstOrThrow({ where: { tenantId: order.tenantId, idempotencyKey } });
}
