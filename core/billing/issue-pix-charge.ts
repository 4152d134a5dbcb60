// The Pix QR of an open invoice: a payment row first (its idempotency key fixed), then the gateway
// call, then the copy-and-paste payload on the row. A rerun after a crash repeats the same call.
import { PAYMENT } from "../../prisma/status-machines.ts";
import type { Runtime } from "../runtime.ts";
import { createPixCharge } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { createInvoiceAttempt } from "./create-invoice-attempt.ts";
import { failExpiredPix } from "../payments/fail-expired-pix.ts";
import { cents } from "../shared/money.ts";
import { queuePixChargeEmail } from "../emails/queue-pix-charge-email.ts";

export interface IssuedPix {
  paymentId: string;
  copyPaste: string;
  expiresAt: Date;
}

export async function issuePixCharge(runtime: Runtime, input: { tenantId: string; invoiceId: string; expiresAt: Date; now: Date }): Promise<IssuedPix> {
  const prisma = runtime.db.prisma;
  const { tenantId, invoiceId, now } = input;
  const invoice = await prisma.invoice.findFirstOrThrow({
    where: { id: invoiceId, tenantId },
    include: { subscription: { include: { offer: { include: { gatewayAccount: true } } } } },
  });
  const account = invoice.subscription.offer.gatewayAccount;
  // An expired QR is dead at the gateway: its attempt failed, a fresh one replaces it.
  await failExpiredPix(prisma, { tenantId, attempts: { invoiceId }, expiredBy: now });
  const live = await prisma.payment.findFirst({ where: { tenantId, invoiceId, method: "PIX", status: "PROCESSING" }, orderBy: { id: "desc" } });
  if (live?.pixCopyPaste && live.pixExpiresAt && live.pixExpiresAt > now) {
    return { paymentId: live.id, copyPaste: live.pixCopyPaste, expiresAt: live.pixExpiresAt };
  }
  const payment = live && !live.pixCopyPaste ? live : await createInvoiceAttempt(prisma, { invoice, account, method: "PIX", at: runtime.wallClock.now() });
  const pix = await createPixCharge(
    { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: invoice.subscriptionId, paymentId: payment.id, now },
    { amountCents: cents(invoice.amountCents), currency: invoice.currency, idempotencyKey: payment.idempotencyKey, reference: invoiceId, expiresAt: input.expiresAt },
  );
  // The code and the customer's e-mail of it commit together.
  await prisma.$transaction(async (tx) => {
    await tx.payment.update({
      where: { id: payment.id },
      data: { gatewayChargeId: pix.chargeId, pixCopyPaste: pix.copyPaste, pixExpiresAt: pix.expiresAt },
    });
    await queuePixChargeEmail(tx, { tenantId, paymentId: payment.id, publicUrl: runtime.config.publicUrl, at: now });
  });
  return { paymentId: payment.id, copyPaste: pix.copyPaste, expiresAt: pix.expiresAt };
}
