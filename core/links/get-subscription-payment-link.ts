// GET /v1/subscriptions/{id}/payment-link: a public link to pay the subscription's open invoice
// (card on the hosted page, or the Pix QR when the offer takes Pix). Never exposes an internal id.
// Each call mints a fresh link; earlier ones stay valid until they expire or the invoice is paid.
import type { Runtime } from "../runtime.ts";
import { issuePixCharge } from "../billing/issue-pix-charge.ts";
import { mintLink } from "../shared/mint-link.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

const LINK_TTL_MS = 7 * 86_400_000;

export async function getSubscriptionPaymentLink(runtime: Runtime, input: { tenantId: string; subscriptionId: string; now: Date }) {
  const prisma = runtime.db.prisma;
  const { tenantId, now } = input;
  if (!isId("subscription", input.subscriptionId)) throw notFound("subscription");
  const sub = await prisma.subscription.findFirst({
    where: { id: input.subscriptionId, tenantId },
    include: { offer: { include: { gatewayAccount: true } } },
  });
  if (!sub) throw notFound("subscription");
  const invoice = await prisma.invoice.findFirst({ where: { tenantId, subscriptionId: sub.id, status: "OPEN" }, orderBy: { dueAt: "desc" } });
  if (!invoice || sub.status === "CANCELED") throw new AppError("conflict", { error: "nenhuma fatura em aberto" });
  const caps = sub.offer.gatewayAccount.capabilities as { supportsPix?: boolean };
  const takesPix = sub.offer.collectionMethods.includes("PIX_MANUAL") && caps.supportsPix !== false;
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  const pix = takesPix ? await issuePixCharge(runtime, { tenantId, invoiceId: invoice.id, expiresAt, now }) : null;
  const link = await prisma.$transaction((tx) =>
    mintLink(tx, { tenantId, kind: "OPEN_INVOICE", expiresAt, fields: { customerId: sub.customerId, subscriptionId: sub.id, invoiceId: invoice.id } }),
  );
  return {
    url: `${runtime.config.publicUrl}${link.path}`,
    status: "open",
    amountCents: invoice.amountCents,
    currency: invoice.currency,
    method: sub.collectionMethod === "PIX_MANUAL" ? "pix" : "card",
    expiresAt,
    pix: pix ? { copyPaste: pix.copyPaste, qrPngUrl: `${runtime.config.publicUrl}/pix/${pix.paymentId}/qr.png`, expiresAt: pix.expiresAt } : null,
  };
}
