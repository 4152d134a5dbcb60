// GET /pix/{payment_id}/status?k=…: whether a Pix shown on a hosted page was paid, for the page's
// script (and its no-JavaScript "já paguei" link). Payment ids are sortable ULIDs, so the page also
// carries `k`, an HMAC of the id under a service secret: the id alone answers nothing. The answer
// holds no personal data: a status, the amount and the expiry.
import { createHmac } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { constantTimeEqual } from "../shared/secrets.ts";
import { ensureServiceSecret } from "../shared/service-secrets.ts";
import { tenantClock, type Clock } from "../shared/clock.ts";

export type PixStatus = "pending" | "paid" | "expired" | "failed";

export interface PixStatusView {
  status: PixStatus;
  amountCents: number;
  expiresAt: Date | null;
  tenantId: string;
}

const keys = new WeakMap<PrismaClient, Promise<Buffer>>();

/** The service secret, read once per client (made on first use). */
function statusKey(prisma: PrismaClient): Promise<Buffer> {
  let key = keys.get(prisma);
  if (!key) {
    key = ensureServiceSecret(prisma, "pix_status_key");
    key.catch(() => keys.delete(prisma));
    keys.set(prisma, key);
  }
  return key;
}

/** The `k` a page's status URL carries for this payment. */
export async function pixStatusKey(prisma: PrismaClient, paymentId: string): Promise<string> {
  return createHmac("sha256", await statusKey(prisma)).update(paymentId).digest("base64url").slice(0, 32);
}

export async function getPixStatus(prisma: PrismaClient, wallClock: Clock, paymentId: string, k: string): Promise<PixStatusView> {
  if (!isId("payment", paymentId) || !constantTimeEqual(k, await pixStatusKey(prisma, paymentId))) throw notFound("payment");
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: { tenantId: true, method: true, status: true, amountCents: true, pixExpiresAt: true },
  });
  if (!payment || payment.method !== "PIX") throw notFound("payment");
  const tenant = await prisma.tenant.findUniqueOrThrow({ where: { id: payment.tenantId }, select: { mode: true, clockAt: true } });
  const now = tenantClock(tenant, wallClock).now();
  const status: PixStatus =
    payment.status === "PAID" || payment.status === "REFUNDED" || payment.status === "CHARGEDBACK"
      ? "paid"
      : payment.status === "FAILED"
        ? "failed"
        : payment.pixExpiresAt && payment.pixExpiresAt <= now
          ? "expired"
          : "pending";
  return { status, amountCents: payment.amountCents, expiresAt: payment.pixExpiresAt, tenantId: payment.tenantId };
}
