// Renewal campaigns: the campaign record (operator), the campaign link object and the page of
// links already generated (GET /v1/renewal-campaigns/{id}/links).
import type { CampaignLinkObject } from "../../core/campaigns/campaign-rules.ts";
import { listCampaignLinks, type CampaignLinksElement } from "../../core/campaigns/list-campaign-links.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { forwardOnly, pageToConnection } from "./page.ts";

builder.prismaObject("RenewalCampaign", {
  description: "A renewal campaign: an early renewal of one cycle at a campaign price, plus a bonus, for an audience of customers.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cmp_ id." }),
    offerId: t.exposeString("offerId", { description: "offer_ id of the recurring offer the campaign sells (its methods and gateway)." }),
    priceCents: t.exposeInt("priceCents", { description: "Price of the early cycle in cents." }),
    bonusCycles: t.exposeInt("bonusCycles", { description: "Bonus added on top of the cycle, in bonusUnit (0 = none)." }),
    bonusUnit: t.exposeString("bonusUnit", { description: "day, month or year." }),
    startsAt: t.expose("startsAt", { type: "DateTime", nullable: true, description: "No link before this instant of the tenant clock; null = at once." }),
    audience: t.expose("audience", { type: "JSON", description: "{statuses, planIds, customerExternalIds}; an empty list does not filter; all filters must hold." }),
    active: t.exposeBoolean("active", { description: "False after setRenewalCampaignActive(active: false): no new link, no payment." }),
  }),
});

export const CampaignLinkRef = builder.objectRef<CampaignLinkObject>("CampaignLink").implement({
  description: "The renewal-campaign link of one customer (the same token on every get).",
  fields: (t) => ({
    token: t.exposeString("token", { description: "Opaque token: an HMAC of the link id under a random 32-byte key kept in the database, never derived from the operator token (only its hash is stored)." }),
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    status: t.exposeString("status", { description: "Link status: open, then paid." }),
    payload: t.field({ type: "JSON", description: "REST body: the campaign link object.", resolve: (r) => r }),
  }),
});

const CampaignLinksElementRef = builder.objectRef<CampaignLinksElement>("CampaignLinksElement").implement({
  description: "A generated link of a campaign: the campaign link object plus external_id and created_at.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cl_ id (the page cursor)." }),
    externalId: t.exposeString("external_id", { description: "The customer's key in the tenant's system." }),
    payload: t.field({
      type: "JSON",
      description: "REST element: campaign link object, external_id, created_at.",
      resolve: ({ id: _id, ...rest }) => rest,
    }),
  }),
});

builder.queryFields((t) => ({
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
