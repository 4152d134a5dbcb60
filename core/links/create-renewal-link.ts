// POST /v1/subscriptions/{id}/renewal-link: a /pay link (7 days) that renews the subscription one
// cycle ahead when paid. offer_id may only name the current offer (change-plan changes plans);
// price_cents defaults to the next cycle with the active coupon (the payload's next_charge_amount_cents).
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { subscriptionNextCharge, subscriptionPayloadInclude } from "../payloads/subscription-payload.ts";
import { linkUrl, SUBSCRIPTION_LINK_TTL_MS } from "./link-rules.ts";
import { mintLink } from "../shared/mint-link.ts";

export interface RenewalLink {
  token: string;
  url: string;
  priceCents: number;
  expiresAt: Date;
  status: "active";
}

/** Only a subscription in good standing is renewed ahead; past_due/suspended pay their open invoice first. */
const RENEWABLE = ["ACTIVE"];

export async function createRenewalLink(
  runtime: Runtime,
  input: { tenantId: string; subscriptionId: string; offerId?: string | null; priceCents?: number | null; now: Date },
): Promise<RenewalLink> {
  const prisma = runtime.db.prisma;
  const { tenantId, now } = input;
  if (!isId("subscription", input.subscriptionId)) throw notFound("subscription");
  const sub = await prisma.subscription.findFirst({ where: { id: input.subscriptionId, tenantId }, include: subscriptionPayloadInclude });
  if (!sub) throw notFound("subscription");
  if (input.priceCents != null && (!Number.isSafeInteger(input.priceCents) || input.priceCents < 1)) {
    throw new AppError("invalid_body", { error: "price_cents must be an integer of at least 1" });
  }
  if (input.offerId != null) {
    const offer = isId("offer", input.offerId) ? await prisma.offer.findFirst({ where: { id: input.offerId, tenantId }, select: { id: true } }) : null;
    if (!offer) throw new AppError("invalid_id", { error: "offer_id names no offer of this account" });
    if (offer.id !== sub.offerId) throw new AppError("invalid_argument", { error: "offer_id is not the subscription's current offer; use change-plan to change plans" });
  }
  if (!RENEWABLE.includes(sub.status)) {
    throw new AppError("invalid_argument", { error: `a ${sub.status.toLowerCase()} subscription cannot be renewed by link`, extra: { status: sub.status.toLowerCase() } });
  }
  const open = await prisma.invoice.count({ where: { tenantId, subscriptionId: sub.id, status: "OPEN" } });
  if (open > 0) throw new AppError("invalid_argument", { error: "the subscription has an open invoice; send its payment-link instead" });
  const priceCents = input.priceCents ?? subscriptionNextCharge(sub);
  if (priceCents < 1) throw new AppError("invalid_argument", { error: "the next cycle costs nothing; give price_cents (a free renewal is not supported)" });
  const expiresAt = new Date(now.getTime() + SUBSCRIPTION_LINK_TTL_MS);
  const link = await prisma.$transaction(async (tx) => {
    const minted = await mintLink(tx, {
      tenantId,
      kind: "SUBSCRIPTION_RENEWAL",
      expiresAt,
      status: "ACTIVE",
      fields: { customerId: sub.customerId, subscriptionId: sub.id, offerId: sub.offerId, priceCents },
    });
    return minted;
  });
  return { token: link.token, url: linkUrl(runtime, link.path), priceCents, expiresAt, status: "active" };
}
