// GET /v1/renewal-campaigns/{id}/links: the links already generated, keyset paged by the
// campaign-link id (cl_ ULID, creation order). Each element is the campaign link object (same
// derived token as GET …/link) plus external_id and created_at. Inactive campaigns still list.
import type { Runtime } from "../runtime.ts";
import { notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { keyset, toPage, type Page, type PageArgs } from "../shared/pagination.ts";
import { linkUrl } from "../links/link-rules.ts";
import { campaignLinkObject, campaignLinkToken, type CampaignLinkObject } from "./campaign-rules.ts";

export type CampaignLinksElement = { id: string; link: CampaignLinkObject; externalId: string; createdAt: Date };

export async function listCampaignLinks(runtime: Runtime, input: PageArgs & { tenantId: string; campaignId: string }): Promise<Page<CampaignLinksElement>> {
  const prisma = runtime.db.prisma;
  const k = keyset(input, "campaignLink");
  const campaign = isId("renewalCampaign", input.campaignId)
    ? await prisma.renewalCampaign.findFirst({ where: { id: input.campaignId, tenantId: input.tenantId } })
    : null;
  if (!campaign) throw notFound("campaign");
  const offer = await prisma.offer.findFirstOrThrow({ where: { id: campaign.offerId, tenantId: input.tenantId }, include: { plan: { select: { productId: true } } } });
  const rows = await prisma.campaignLink.findMany({
    where: { tenantId: input.tenantId, campaignId: campaign.id, ...(k.afterId ? { id: { gt: k.afterId } } : {}) },
    orderBy: { id: "asc" },
    take: k.take,
  });
  const links = new Map((await prisma.link.findMany({ where: { id: { in: rows.map((r) => r.linkId) } } })).map((l) => [l.id, l]));
  const customers = new Map(
    (await prisma.customer.findMany({ where: { id: { in: rows.map((r) => r.customerId) } }, select: { id: true, externalId: true } })).map((c) => [c.id, c]),
  );
  const elements = rows.map((r) => {
    const token = campaignLinkToken(runtime.secrets.campaignLinkKey, r.linkId);
    const link = links.get(r.linkId)!;
    return {
      id: r.id,
      link: campaignLinkObject(campaign, offer, { token, url: linkUrl(runtime, `/pay/${token}`), status: link.status }),
      externalId: customers.get(r.customerId)!.externalId,
      createdAt: r.createdAt,
    };
  });
  return toPage(elements, k);
}
