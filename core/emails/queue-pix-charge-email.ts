// The customer's copy of a Pix charge just issued (checkout, renewal D-3, /pay, a reopened order QR):
// queued in the transaction that stores the BR Code, so the customer can close the tab and still pay.
// The e-mail links to a /pay page that shows this charge's QR; the link is minted here, with the row.
import { mintLink } from "../shared/mint-link.ts";
import type { Tx } from "../shared/tx.ts";
import { queueEmail } from "./queue-email.ts";

export interface PixChargeEmailInput {
  tenantId: string;
  /** The Pix payment, its BR Code and expiry already written in this transaction. */
  paymentId: string;
  /** runtime.config.publicUrl: where /pay pages are served. */
  publicUrl: string;
  /** Business time (the tenant's clock). */
  at: Date;
}

export async function queuePixChargeEmail(tx: Tx, input: PixChargeEmailInput): Promise<number> {
  const { tenantId, paymentId } = input;
  // A replayed issuance queues nothing and mints no second link.
  const queued = await tx.emailMessage.count({ where: { tenantId, kind: "pix_charge_issued", sourceKey: paymentId } });
  if (queued > 0) return 0;
  const payment = await tx.payment.findFirst({ where: { id: paymentId, tenantId, method: "PIX" }, include: { customer: { select: { email: true } } } });
  if (!payment?.pixCopyPaste || !payment.pixExpiresAt || !payment.customer.email) return 0;
  const expiresAt = payment.pixExpiresAt;
  const invoice = payment.invoiceId ? await tx.invoice.findFirst({ where: { id: payment.invoiceId, tenantId }, include: { subscription: { select: { planId: true } } } }) : null;
  const order = payment.orderId ? await tx.order.findFirst({ where: { id: payment.orderId, tenantId } }) : null;
  const planId = invoice?.subscription.planId ?? order?.planId ?? null;
  const plan = planId ? await tx.plan.findFirst({ where: { id: planId, tenantId }, include: { product: { select: { name: true } } } }) : null;
  // An invoice's QR is shown by its open-invoice page; an order's by the order's Pix page.
  const link = invoice
    ? await mintLink(tx, {
        tenantId,
        kind: "OPEN_INVOICE",
        expiresAt,
        fields: { customerId: payment.customerId, subscriptionId: invoice.subscriptionId, invoiceId: invoice.id },
      })
    : order
      ? await mintLink(tx, {
          tenantId,
          kind: "ORDER_PIX",
          expiresAt,
          fields: { customerId: payment.customerId, orderId: order.id, subscriptionId: order.targetSubscriptionId, priceCents: order.amountCents },
        })
      : null;
  if (!link) return 0;
  return queueEmail(tx, {
    tenantId,
    content: {
      template: "pix_charge_issued",
      params: {
        reference: payment.id,
        productName: plan?.product.name ?? plan?.name ?? "",
        planName: plan?.name ?? null,
        amountCents: payment.amountCents,
        currency: payment.currency,
        expiresAt: expiresAt.toISOString(),
        brCode: payment.pixCopyPaste,
        payUrl: `${input.publicUrl}${link.path}`,
      },
    },
    sourceKey: payment.id,
    to: payment.customer.email,
    customerId: payment.customerId,
    at: input.at,
  });
}
