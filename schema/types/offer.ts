// Offer: a price for a plan, recurring or one-time, charged on one gateway account.
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { BillingIntervalEnum, CollectionMethodEnum } from "./enums.ts";
import { keysetConnection } from "./page.ts";

const OfferKindEnum = builder.enumType("OfferKind", {
  description: "What buying an offer starts.",
  values: {
    RECURRING: { description: "A subscription renewed every interval." },
    ONE_TIME: { description: "A one-time order (a grant of grantDays, or a renewal advance)." },
  } as const,
});

export const OfferRef = builder.prismaObject("Offer", {
  description: "A price for a plan: recurring or one-time, on one gateway account.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "offer_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    planId: t.exposeString("planId", { description: "plan_ id." }),
    plan: t.relation("plan", { description: "The plan it sells." }),
    kind: t.expose("kind", { type: OfferKindEnum, description: "RECURRING or ONE_TIME." }),
    interval: t.expose("interval", { type: BillingIntervalEnum, nullable: true, description: "Cycle length (recurring offers)." }),
    priceCents: t.exposeInt("priceCents", { description: "Price of a cycle or of one unit, in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    collectionMethods: t.expose("collectionMethods", { type: [CollectionMethodEnum], description: "Allowed collection methods." }),
    trialDays: t.exposeInt("trialDays", { description: "Trial length in days (0 = none)." }),
    grantDays: t.exposeInt("grantDays", { nullable: true, description: "Days of access per unit (one-time offers)." }),
    renewsSubscription: t.exposeBoolean("renewsSubscription", { description: "Paying extends the buyer's subscription." }),
    active: t.exposeBoolean("active", { description: "False once retired: no new checkout." }),
    gatewayAccountId: t.exposeString("gatewayAccountId", { description: "Gateway account charging this offer." }),
    checkoutUrl: t.string({
      description: "Hosted checkout page of the offer.",
      resolve: (o, _a, ctx) => `${ctx.runtime.config.publicUrl}/checkout/${o.id}`,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
  }),
});

builder.queryFields((t) => ({
  offers: t.connection(
    {
      type: OfferRef,
      description: "The tenant's offers in id order (keyset).",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        planId: t.arg.string({ required: false, description: "Only the offers of this plan_ id." }),
        active: t.arg.boolean({ required: false, description: "Only active (true) or retired (false) offers." }),
      },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("offer", args, (id, take) =>
          ctx.db.prisma.offer.findMany({
            where: { tenantId, ...(args.planId ? { planId: args.planId } : {}), ...(args.active != null ? { active: args.active } : {}), ...(id ? { id } : {}) },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "OffersConnection", description: "A page of offers." },
    { name: "OffersEdge", description: "One offer of the page." },
  ),
}));
