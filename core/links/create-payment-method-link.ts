// POST /v1/subscriptions/{id}/payment-method-link: a single-use /pay link (7 days) where the customer
// enters a new card (or moves from Pix to card when the offer takes card). Nothing is charged.
// Only the token's SHA-256 is stored (mintLink); the clear token is in this answer only.
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { linkUrl, offerPayMethods, SUBSCRIPTION_LINK_TTL_MS } from "./link-rules.ts";
import { mintLink } from "../shared/mint-link.ts";
import { isIn, STARTED } from "../shared/status-sets.ts";

export interface PaymentMethodLink {
  token: string;
  url: string;
  expiresAt: Date;
  status: "open";
}

export async function createPaymentMethodLink(runtime: Runtime, input: { tenantId: string; subscriptionId: string; now: Date }): Promise<PaymentMethodLink> {
  const prisma = runtime.db.prisma;
  const { tenantId, now } = input;
  if (!isId("subscription", input.subscriptionId)) throw notFound("subscription");
  const sub = await prisma.subscription.findFirst({
    where: { id: input.subscriptionId, tenantId },
    include: { offer: { include: { gatewayAccount: true } } },
  });
  if (!sub) throw notFound("subscription");
  const status = sub.status.toLowerCase();
  if (!isIn(STARTED, sub.status)) {
    throw new AppError("conflict", { error: `a ${status} subscription has no payment method to change`, extra: { status } });
  }
  if (sub.status === "TRIALING" && !sub.paymentMethodId) {
    throw new AppError("conflict", { error: "a trial without card has no payment method to change", extra: { status } });
  }
  if (!offerPayMethods(sub.offer).card) {
    throw new AppError("conflict", { error: "the subscription's offer does not take cards", extra: { status } });
  }
  const expiresAt = new Date(now.getTime() + SUBSCRIPTION_LINK_TTL_MS);
  const link = await prisma.$transaction((tx) =>
    mintLink(tx, { tenantId, kind: "PAYMENT_METHOD", expiresAt, fields: { customerId: sub.customerId, subscriptionId: sub.id, offerId: sub.offerId } }),
  );
  return { token: link.token, url: linkUrl(runtime, link.path), expiresAt, status: "open" };
}
