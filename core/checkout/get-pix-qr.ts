// GET /pix/{payment_id}/qr.png: the Pix "copia e cola" payload that the QR image encodes.
// Only an issued Pix charge has one; anything else (unknown, malformed, card payment) is the same 404.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export async function getPixCopyPaste(prisma: PrismaClient, paymentId: string): Promise<string> {
  if (!isId("payment", paymentId)) throw notFound("payment");
  const payment = await prisma.payment.findUnique({ where: { id: paymentId }, select: { method: true, pixCopyPaste: true } });
  if (!payment || payment.method !== "PIX" || !payment.pixCopyPaste) throw notFound("payment");
  return payment.pixCopyPaste;
}
