import { builder } from "../builder.ts";
import { BillingIntervalEnum } from "./enums.ts";

builder.prismaObject("Product", {
  description: "A product of the tenant's catalogue.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "prod_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    plans: t.relation("plans", { description: "Plans of the product." }),
  }),
});

builder.prismaObject("Plan", {
  description: "A plan: a set of entitlements. Identified by id; the name is for display.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "plan_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    productId: t.exposeString("productId", { description: "prod_ id." }),
    entitlements: t.expose("entitlements", { type: "JSON", description: "Capability map; read live by every payload." }),
  }),
});

builder.prismaObject("Offer", {
  description: "A price for a plan: recurring or one-time, on one gateway account.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "offer_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    planId: t.exposeString("planId", { description: "plan_ id." }),
    kind: t.exposeString("kind", { description: "RECURRING or ONE_TIME." }),
    interval: t.expose("interval", { type: BillingIntervalEnum, nullable: true, description: "Cycle length (recurring offers)." }),
    priceCents: t.exposeInt("priceCents", { description: "Price of a cycle or of one unit, in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    collectionMethods: t.exposeStringList("collectionMethods", { description: "Allowed collection methods." }),
    trialDays: t.exposeInt("trialDays", { description: "Trial length in days (0 = none)." }),
    grantDays: t.exposeInt("grantDays", { nullable: true, description: "Days of access per unit (one-time offers)." }),
    renewsSubscription: t.exposeBoolean("renewsSubscription", { description: "Paying extends the buyer's subscription." }),
    gatewayAccountId: t.exposeString("gatewayAccountId", { description: "Gateway account charging this offer." }),
    checkoutUrl: t.string({
      description: "Hosted checkout page of the offer.",
      resolve: (o, _a, ctx) => `${ctx.runtime.config.publicUrl}/checkout/${o.id}`,
    }),
  }),
});

builder.prismaObject("Coupon", {
  description: "A discount code applied at checkout.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cpn_ id." }),
    code: t.exposeString("code", { description: "Code typed by the customer." }),
    percentOff: t.exposeInt("percentOff", { nullable: true, description: "Percent discount (1-100)." }),
    amountOffCents: t.exposeInt("amountOffCents", { nullable: true, description: "Fixed discount in cents." }),
    cycles: t.exposeInt("cycles", { nullable: true, description: "Cycles discounted; null = forever." }),
    maxRedemptions: t.exposeInt("maxRedemptions", { nullable: true, description: "Redemption cap; null = unlimited." }),
    redeemedCount: t.exposeInt("redeemedCount", { description: "Redemptions so far." }),
  }),
});

