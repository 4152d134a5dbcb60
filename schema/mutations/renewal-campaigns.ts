// Renewal campaigns: the operator creates and deactivates them; a tenant (write) gets a customer's link.
import { createRenewalCampaign } from "../../core/campaigns/create-renewal-campaign.ts";
import { getCampaignLink } from "../../core/campaigns/get-campaign-link.ts";
import { setRenewalCampaignActive } from "../../core/campaigns/set-renewal-campaign-active.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { SubscriptionStatusEnum } from "../types/enums.ts";
import { CampaignLinkRef } from "../types/renewal-campaign.ts";

const operator = { operator: true } as const;

const AudienceInput = builder.inputType("RenewalCampaignAudience", {
  description: "Who may get a link. Every non-empty list must hold (AND); an empty or absent list does not filter.",
  fields: (t) => ({
    statuses: t.field({
      type: [SubscriptionStatusEnum],
      required: false,
      description: "The customer's subscription is in one of these statuses (TRIALING, ACTIVE, PAST_DUE, SUSPENDED; the others have no period to extend).",
    }),
    planIds: t.idList({ required: false, description: "The customer's subscription is on one of these plans (plan_ ids of the tenant)." }),
    customerExternalIds: t.stringList({ required: false, description: "Only these customers (the tenant's external_id)." }),
  }),
});

builder.mutationFields((t) => ({
  createRenewalCampaign: t.prismaField({
    type: "RenewalCampaign",
    description:
      "Create a renewal campaign: paying its link extends the customer's subscription by one cycle plus bonusCycles of bonusUnit, for priceCents, with the offer's methods.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      offerId: t.arg.id({ required: true, description: "offer_ id of a recurring offer of the tenant (not_found otherwise)." }),
      priceCents: t.arg.int({ required: true, description: "Price of the early cycle in cents, at least 1." }),
      bonusCycles: t.arg.int({ required: true, description: "Bonus on top of the cycle, 0 to 1000." }),
      bonusUnit: t.arg.string({ required: true, description: "day, month or year." }),
      startsAt: t.arg({ type: "DateTime", required: false, description: "No link before this instant of the tenant clock; absent = at once." }),
      audience: t.arg({ type: AudienceInput, required: false, description: "Who may get a link; absent = every customer with a subscription to extend." }),
    },
    resolve: (_q, _r, args, ctx) =>
      createRenewalCampaign(ctx.db.prisma, {
        tenantId: String(args.tenantId),
        offerId: String(args.offerId),
        priceCents: args.priceCents,
        bonusCycles: args.bonusCycles,
        bonusUnit: args.bonusUnit,
        startsAt: args.startsAt ?? null,
        audience: args.audience
          ? {
              statuses: args.audience.statuses ?? [],
              planIds: (args.audience.planIds ?? []).map(String),
              customerExternalIds: args.audience.customerExternalIds ?? [],
            }
          : null,
      }),
  }),
  setRenewalCampaignActive: t.prismaField({
    type: "RenewalCampaign",
    description: "Deactivate (or reactivate) a campaign. Inactive: GET …/link is 404 and its open links take no payment; paid links stay paid.",
    authScopes: operator,
    args: {
      id: t.arg.id({ required: true, description: "cmp_ id." }),
      active: t.arg.boolean({ required: true, description: "False to deactivate." }),
    },
    resolve: (_q, _r, args, ctx) => setRenewalCampaignActive(ctx.db.prisma, { id: String(args.id), active: args.active }),
  }),
  getCampaignLink: t.field({
    type: CampaignLinkRef,
    description:
      "Get or create (idempotent) the customer's link in the campaign. 400 without externalId; 404 for an unknown, foreign, inactive or not yet started campaign, an unknown customer, or one outside the audience.",
    authScopes: { write: true },
    args: {
      campaignId: t.arg.string({ required: true, description: "cmp_ id." }),
      externalId: t.arg.string({ required: false, description: "The customer's key in the tenant's system (required; absent = 400)." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return getCampaignLink(ctx.runtime, { tenantId, campaignId: args.campaignId, externalId: args.externalId, now: clock.now() });
    },
  }),
}));
