// The public view of an offer for the hosted checkout page: a subscription offer, or a one-time offer
// (an order, with a quantity). Unknown and inactive offers are 404.
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
  kind: "recurring" | "one_time";
  /** Null for one-time offers. */
  interval: "month" | "year" | null;
  priceCents: number;
  currency: string;
  trialDays: number;
  /** One-time offers: days of access each purchase grants (0 when it only extends a subscription). */
  grantDays: number;
  /** One-time offers: paying extends the buyer's subscription of the plan (early renewal). */
  renewsSubscription: boolean;
  /** Payment methods the page offers, from the offer's collection methods and the gateway's capabilities. */
  methods: ("card" | "pix")[];
  /** The offer's gateway account: a real provider (stripe) takes the card in the browser (PCI SAQ A). */
  gatewayAccountId: string;
  provider: string;
}

export async function getCheckoutOffer(prisma: PrismaClient, offerId: string): Promise<CheckoutOffer> {
  if (!isId("offer", offerId)) throw notFound("offer");
  const offer = await prisma.offer.findUnique({
    where: { id: offerId },
    include: { plan: { select: { name: true } }, tenant: { select: { name: true, mode: true, clockAt: true, suspended: true } }, gatewayAccount: true },
  });
  if (!offer || !offer.active || offer.tenant.suspended) throw notFound("offer");
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
    kind: offer.kind === "ONE_TIME" ? "one_time" : "recurring",
    interval: offer.kind === "ONE_TIME" ? null : offer.interval === "YEAR" ? "year" : "month",
    priceCents: offer.priceCents,
    currency: offer.currency,
    trialDays: offer.kind === "ONE_TIME" ? 0 : offer.trialDays,
    grantDays: offer.grantDays ?? 0,
    renewsSubscription: offer.renewsSubscription,
    methods,
    gatewayAccountId: offer.gatewayAccount.id,
    provider: offer.gatewayAccount.provider,
  };
}
