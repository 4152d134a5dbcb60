// GET /v1/renewal-campaigns/{id}/link?external_id=: gets or creates the customer's link in the
// campaign. One link per customer and campaign (UNIQUE campaign_id + customer_id): a concurrent
// call that loses the insert reads the winner's row. The token is derived (campaignLinkToken), so
// every re-get returns the same token and URL; the status follows the link (open, then paid).
import type { Runtime } from "../runtime.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId, newId } from "../shared/ids.ts";
import { sha256Hex } from "../shared/secrets.ts";
import { linkUrl } from "../links/link-rules.ts";
import { audienceTarget, campaignLinkObject, campaignLinkToken, readAudience, type CampaignLinkObject } from "./campaign-rules.ts";

export interface GetCampaignLinkInput {
  tenantId: string;
  campaignId: string;
  externalId: string | null | undefined;
  now: Date;
}

export async function getCampaignLink(runtime: Runtime, input: GetCampaignLinkInput): Promise<CampaignLinkObject> {
  const prisma = runtime.db.prisma;
  const { tenantId, now } = input;
  const externalId = input.externalId?.trim();
  if (!externalId) throw new AppError("missing_customer_key", { error: "external_id is required" });
  const campaign = await findLiveCampaign(runtime, tenantId, input.campaignId, now);
  const customer = await prisma.customer.findUnique({ where: { tenantId_externalId: { tenantId, externalId } } });
  if (!customer) throw notFound("customer");
  const offer = await prisma.offer.findFirstOrThrow({ where: { id: campaign.offerId, tenantId }, include: { plan: { select: { productId: true } } } });

  let row = await prisma.campaignLink.findUnique({ where: { campaignId_customerId: { campaignId: campaign.id, customerId: customer.id } } });
  if (!row) {
    const subscriptions = await prisma.subscription.findMany({ where: { tenantId, customerId: customer.id }, select: { id: true, status: true, planId: true } });
    const target = audienceTarget(readAudience(campaign.audience), customer, subscriptions);
    if (!target) throw new AppError("not_found", { error: "customer is not in the campaign audience" });
    const linkId = newId("link");
    try {
      await prisma.$transaction([
        prisma.link.create({
          data: {
            id: linkId,
            tenantId,
            kind: "RENEWAL_CAMPAIGN",
            tokenHash: sha256Hex(campaignLinkToken(runtime.secrets.campaignLinkKey, linkId)),
            status: "OPEN",
            expiresAt: null,
            customerId: customer.id,
            subscriptionId: target.id,
            offerId: campaign.offerId,
            campaignId: campaign.id,
            priceCents: campaign.priceCents,
          },
        }),
        prisma.campaignLink.create({
          data: { id: newId("campaignLink"), tenantId, campaignId: campaign.id, customerId: customer.id, subscriptionId: target.id, linkId },
        }),
      ]);
    } catch (e) {
      if ((e as { code?: string }).code !== "P2002") throw e;
    }
    row = await prisma.campaignLink.findUniqueOrThrow({ where: { campaignId_customerId: { campaignId: campaign.id, customerId: customer.id } } });
  }
  const link = await prisma.link.findUniqueOrThrow({ where: { id: row.linkId } });
  const token = campaignLinkToken(runtime.secrets.campaignLinkKey, link.id);
  // Stored hashes follow the key (rekeyCampaignLinks when it is made); heal a row that does not anyway.
  if (link.tokenHash !== sha256Hex(token)) await prisma.link.update({ where: { id: link.id }, data: { tokenHash: sha256Hex(token) } });
  return campaignLinkObject(campaign, offer, { token, url: linkUrl(runtime, `/pay/${token}`), status: link.status });
}

/** The campaign of the tenant, active and started on the tenant clock; anything else is the same 404. */
async function findLiveCampaign(runtime: Runtime, tenantId: string, campaignId: string, now: Date) {
  const campaign = isId("renewalCampaign", campaignId) ? await runtime.db.prisma.renewalCampaign.findFirst({ where: { id: campaignId, tenantId } }) : null;
  if (!campaign || !campaign.active || (campaign.startsAt && campaign.startsAt.getTime() > now.getTime())) throw notFound("campaign");
  return campaign;
}
