// The public view of an offer for the hosted checkout page: a subscription offer, or a one-time offer
// (an order, with a quantity). Unknown and inactive offers are 404.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { pickRow } from "../shared/row-columns.ts";
import { sellerColumns, sellerOf, type Seller, type SellerRow } from "../tenants/get-seller.ts";

export interface CheckoutOffer {
  id: string;
  tenantId: string;
  planId: string;
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
  /** The gateway account's capabilities as stored (accountRef parses them). */
  capabilities: unknown;
  /** Who sells (the page's footer, the LIVE gate), read with the offer. */
  seller: Seller;
}

// Read once per checkout post and page, with its seller: one statement without Prisma's compiler.
const OFFER = `
  SELECT o.id, o.tenant_id AS "tenantId", o.plan_id AS "planId", o.name, o.kind::text AS kind, o.interval::text AS interval,
         o.price_cents AS "priceCents", o.currency, o.collection_methods::text[] AS "collectionMethods", o.trial_days AS "trialDays",
         o.grant_days AS "grantDays", o.renews_subscription AS "renewsSubscription", o.active,
         p.name AS "planName", t.name AS "tenantName", t.mode::text AS "tenantMode", t.clock_at AS "clockAt", t.suspended,
         ga.id AS "gatewayAccountId", ga.provider, ga.capabilities, ${sellerColumns("seller_")}
    FROM offers o JOIN plans p ON p.id = o.plan_id JOIN tenants t ON t.id = o.tenant_id JOIN gateway_accounts ga ON ga.id = o.gateway_account_id
   WHERE o.id = $1`;
interface OfferRow {
  id: string;
  tenantId: string;
  planId: string;
  name: string;
  kind: "RECURRING" | "ONE_TIME";
  interval: "MONTH" | "YEAR" | null;
  priceCents: number;
  currency: string;
  collectionMethods: string[];
  trialDays: number;
  grantDays: number | null;
  renewsSubscription: boolean;
  active: boolean;
  planName: string;
  tenantName: string;
  tenantMode: "LIVE" | "SANDBOX";
  clockAt: Date | null;
  suspended: boolean;
  gatewayAccountId: string;
  provider: string;
  capabilities: unknown;
}

export async function getCheckoutOffer(prisma: PrismaClient, offerId: string): Promise<CheckoutOffer> {
  if (!isId("offer", offerId)) throw notFound("offer");
  const [offer] = await sqlQuery<OfferRow>(prisma, OFFER, [offerId]);
  if (!offer || !offer.active || offer.suspended) throw notFound("offer");
  const caps = (offer.capabilities ?? {}) as { supportsCard?: boolean; supportsPix?: boolean };
  const methods: ("card" | "pix")[] = [];
  if (offer.collectionMethods.includes("CARD_AUTO") && caps.supportsCard !== false) methods.push("card");
  if (offer.collectionMethods.includes("PIX_MANUAL") && caps.supportsPix !== false) methods.push("pix");
  return {
    id: offer.id,
    tenantId: offer.tenantId,
    planId: offer.planId,
    tenantName: offer.tenantName,
    tenantMode: offer.tenantMode,
    clockAt: offer.clockAt,
    name: offer.name,
    planName: offer.planName,
    kind: offer.kind === "ONE_TIME" ? "one_time" : "recurring",
    interval: offer.kind === "ONE_TIME" ? null : offer.interval === "YEAR" ? "year" : "month",
    priceCents: offer.priceCents,
    currency: offer.currency,
    trialDays: offer.kind === "ONE_TIME" ? 0 : offer.trialDays,
    grantDays: offer.grantDays ?? 0,
    renewsSubscription: offer.renewsSubscription,
    methods,
    gatewayAccountId: offer.gatewayAccountId,
    provider: offer.provider,
    capabilities: offer.capabilities,
    seller: sellerOf(pickRow<SellerRow>(offer as unknown as Record<string, unknown>, "seller_")!),
  };
}
