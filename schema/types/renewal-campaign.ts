// Renewal campaigns: the campaign record (operator), the campaign link object and the page of
// links already generated (GET /v1/renewal-campaigns/{id}/links).
import type { CampaignLinkObject } from "../../core/campaigns/campaign-rules.ts";
import { listCampaignLinks, type CampaignLinksElement } from "../../core/campaigns/list-campaign-links.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { SubscriptionStatusEnum } from "./enums.ts";
import { forwardOnly, keysetConnection, pageToConnection } from "./page.ts";

type AudienceJson = { statuses?: string[]; planIds?: string[]; customerExternalIds?: string[] };

const CampaignAudienceRef = builder.objectRef<AudienceJson>("CampaignAudience").implement({
  description: "Who may get a campaign link. Every non-empty list must hold (AND); an empty list does not filter.",
  fields: (t) => ({
    statuses: t.field({ type: [SubscriptionStatusEnum], description: "Subscription statuses admitted.", resolve: (a) => (a.statuses ?? []).map((s) => s.toUpperCase()) as never }),
    planIds: t.stringList({ description: "plan_ ids admitted.", resolve: (a) => a.planIds ?? [] }),
    customerExternalIds: t.stringList({ description: "Only these customers (the tenant's external_id).", resolve: (a) => a.customerExternalIds ?? [] }),
  }),
});

export const RenewalCampaignRef = builder.prismaObject("RenewalCampaign", {
  description: "A renewal campaign: an early renewal of one cycle at a campaign price, plus a bonus, for an audience of customers.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cmp_ id." }),
    offerId: t.exposeString("offerId", { description: "offer_ id of the recurring offer the campaign sells (its methods and gateway)." }),
    priceCents: t.exposeInt("priceCents", { description: "Price of the early cycle in cents." }),
    bonusCycles: t.exposeInt("bonusCycles", { description: "Bonus added on top of the cycle, in bonusUnit (0 = none)." }),
    bonusUnit: t.exposeString("bonusUnit", { description: "day, month or year." }),
    startsAt: t.expose("startsAt", { type: "DateTime", nullable: true, description: "No link before this instant of the tenant clock; null = at once." }),
    audience: t.field({ type: CampaignAudienceRef, description: "Who may get a link.", resolve: (c) => (c.audience ?? {}) as AudienceJson }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
    active: t.exposeBoolean("active", { description: "False after setRenewalCampaignActive(active: false): no new link, no payment." }),
  }),
});

export const CampaignLinkRef = builder.objectRef<CampaignLinkObject>("CampaignLink").implement({
  description: "The renewal-campaign link of one customer (the same token on every get).",
  fields: (t) => ({
    token: t.exposeString("token", { description: "Opaque token: an HMAC of the link id under a random 32-byte key kept in the database, never derived from the operator token (only its hash is stored)." }),
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    priceCents: t.exposeInt("priceCents", { description: "Price of the early cycle in cents." }),
    bonusCycles: t.exposeInt("bonusCycles", { description: "Bonus added on top of the cycle, in bonusUnit." }),
    bonusUnit: t.exposeString("bonusUnit", { description: "day, month or year." }),
    status: t.exposeString("status", { description: "Link status: open, then paid." }),
    startsAt: t.expose("startsAt", { type: "DateTime", nullable: true, description: "When the campaign starts taking payments; null = at once." }),
    offerId: t.exposeString("offerId", { description: "offer_ id the campaign sells." }),
    planId: t.exposeString("planId", { description: "plan_ id of that offer." }),
    productId: t.exposeString("productId", { description: "prod_ id of that plan." }),
  }),
});

const CampaignLinksElementRef = builder.objectRef<CampaignLinksElement>("CampaignLinksElement").implement({
  description: "A generated link of a campaign: the customer's campaign link, its customer and when it was generated.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cl_ id (the page cursor)." }),
    link: t.field({ type: CampaignLinkRef, description: "The customer's campaign link.", resolve: (r) => r.link }),
    externalId: t.exposeString("externalId", { description: "The customer's key in the tenant's system." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the link was generated." }),
  }),
});

builder.queryFields((t) => ({
  renewalCampaigns: t.connection(
    {
      type: RenewalCampaignRef,
      description: "The tenant's renewal campaigns in id order (keyset).",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        active: t.arg.boolean({ required: false, description: "Only active (true) or deactivated (false) campaigns." }),
      },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("renewalCampaign", args, (id, take) =>
          ctx.db.prisma.renewalCampaign.findMany({
            where: { tenantId, ...(args.active != null ? { active: args.active } : {}), ...(id ? { id } : {}) },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "RenewalCampaignsConnection", description: "A page of renewal campaigns." },
    { name: "RenewalCampaignsEdge", description: "One campaign of the page." },
  ),
  campaignLinks: t.connection(
    {
      type: CampaignLinksElementRef,
      description: "The links already generated in a campaign, in creation order (keyset on the cl_ id). Unknown or foreign campaign: not_found.",
      authScopes: { tenant: true, operator: true },
      args: {
        campaignId: t.arg.string({ required: true, description: "cmp_ id." }),
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
      },
      resolve: async (_root, args, ctx) => {
        forwardOnly(args);
        const page = await listCampaignLinks(ctx.runtime, {
          tenantId: tenantIdFor(ctx, args.tenantId),
          campaignId: args.campaignId,
          limit: args.first,
          after: args.after,
        });
        return pageToConnection(page);
      },
    },
    { name: "CampaignLinksConnection", description: "A page of campaign links." },
    { name: "CampaignLinksEdge", description: "One campaign link of the page." },
  ),
}));
