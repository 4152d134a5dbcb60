// The public view of an offer for the hosted checkout page. Unknown, inactive and one-time offers are 404.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";

export interface CheckoutOffer {
  id: string;
  tenantId: string;
  tenantName: string;
  tenantMode: "LIVE" | "SANDBOX";
  clockAt: Date | null;
  name: string;
  planName: string;
  interval: "month" | "year";
  priceCents: number;
  currency: string;
  trialDays: number;
  /** Payment methods the page offers, from the offer's collection methods and the gateway's capabilities. */
  methods: ("card" | "pix")[];
}

export async function getCheckoutOffer(prisma: PrismaClient, offerId: string): Promise<CheckoutOffer> {
  if (!isId("offer", offerId)) throw notFound("offer");
  const offer = await prisma.offer.findUnique({
    where: { id: offerId },
    include: { plan: { select: { name: true } }, tenant: { select: { name: true, mode: true, clockAt: true, suspended: true } }, gatewayAccount: true },
  });
  if (!offer || !offer.active || offer.kind !== "RECURRING" || offer.tenant.suspended) throw notFound("offer");
  const caps = offer.gatewayAccount.capabilities as { supportsCard?: boolean; supportsPix?: boolean };
  const methods: ("card" | "pix")[] = [];
  if (offer.collectionMethods.includes("CARD_AUTO") && caps.supportsCard !== false) methods.push("card");
  if (offer.collectionMethods.includes("PIX_MANUAL") && caps.supportsPix !== false) methods.push("pix");
  return {
    id: offer.id,
    tenantId: offer.tenantId,
    tenantName: offer.tenant.name,
    tenantMode: offer.tenant.mode,
    clockAt: offer.tenant.clockAt,
    name: offer.name,
    planName: offer.plan.name,
    interval: offer.interval === "YEAR" ? "year" : "month",
    priceCents: offer.priceCents,
    currency: offer.currency,
    trialDays: offer.trialDays,
    methods,
  };
}
