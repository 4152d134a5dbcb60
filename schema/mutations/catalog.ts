// Operator mutations on the catalogue: products, plans, offers, coupons and gateway accounts.
import { z } from "zod";
import { createCoupon } from "../../core/catalog/create-coupon.ts";
import { createOffer } from "../../core/catalog/create-offer.ts";
import { createOneTimeOffer } from "../../core/catalog/create-one-time-offer.ts";
import { createPlan } from "../../core/catalog/create-plan.ts";
import { createProduct } from "../../core/catalog/create-product.ts";
import { updatePlanEntitlements } from "../../core/catalog/update-plan-entitlements.ts";
import { builder } from "../builder.ts";
import { BillingIntervalEnum, CollectionMethodEnum } from "../types/enums.ts";

const operator = { operator: true } as const;
const name = z.string().trim().min(1).max(200);

builder.mutationFields((t) => ({
  createProduct: t.prismaField({
    type: "Product",
    description: "Create a product.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      name: t.arg.string({ required: true, description: "Display name.", validate: name }),
    },
    resolve: (_q, _r, args, ctx) => createProduct(ctx.db.prisma, { tenantId: String(args.tenantId), name: args.name }),
  }),
  createPlan: t.prismaField({
    type: "Plan",
    description: "Create a plan with its entitlements (a flat key-to-value map).",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      productId: t.arg.id({ required: true, description: "prod_ id." }),
      name: t.arg.string({ required: true, description: "Display name.", validate: name }),
      entitlements: t.arg({ type: "JSON", required: true, description: "Capability map." }),
    },
    resolve: (_q, _r, args, ctx) =>
      createPlan(ctx.db.prisma, { tenantId: String(args.tenantId), productId: String(args.productId), name: args.name, entitlements: args.entitlements }),
  }),
  updatePlanEntitlements: t.prismaField({
    type: "Plan",
    description: "Replace a plan's entitlements. Shows at once everywhere; each living subscription of the plan emits subscription.updated.",
    authScopes: operator,
    args: {
      planId: t.arg.id({ required: true, description: "plan_ id." }),
      entitlements: t.arg({ type: "JSON", required: true, description: "New capability map." }),
    },
    resolve: (_q, _r, args, ctx) =>
      updatePlanEntitlements(ctx.db.prisma, ctx.runtime.wallClock, { planId: String(args.planId), entitlements: args.entitlements }),
  }),
  createOffer: t.prismaField({
    type: "Offer",
    description: "Create a recurring offer: price per cycle, gateway (gwa_ id or provider name) and collection methods.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      planId: t.arg.id({ required: true, description: "plan_ id." }),
      name: t.arg.string({ required: true, description: "Display name.", validate: name }),
      interval: t.arg({ type: BillingIntervalEnum, required: true, description: "MONTH or YEAR." }),
      priceCents: t.arg.int({ required: true, description: "Price of one cycle in cents." }),
      currency: t.arg.string({ required: true, description: "Three-letter currency, e.g. brl." }),
      gateway: t.arg.string({ required: true, description: "gwa_ id of the tenant, or a provider name (sandbox, stripe, ...): the tenant's default account of that provider; sandbox is made on first use." }),
      collectionMethods: t.arg({ type: [CollectionMethodEnum], required: true, description: "CARD_AUTO and/or PIX_MANUAL." }),
      trialDays: t.arg.int({ required: false, defaultValue: 0, description: "Trial length in days." }),
    },
    resolve: (_q, _r, args, ctx) =>
      createOffer(ctx.db.prisma, {
        ...args,
        tenantId: String(args.tenantId),
        planId: String(args.planId),
        trialDays: args.trialDays ?? 0,
      }),
  }),
  createOneTimeOffer: t.prismaField({
    type: "Offer",
    description: "Create a one-time offer: unit price, days of access per unit, or an early renewal of the buyer's subscription.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      planId: t.arg.id({ required: true, description: "plan_ id." }),
      name: t.arg.string({ required: true, description: "Display name.", validate: name }),
      unitPriceCents: t.arg.int({ required: true, description: "Price of one unit in cents." }),
      currency: t.arg.string({ required: true, description: "Three-letter currency." }),
      gateway: t.arg.string({ required: true, description: "gwa_ id of the tenant, or a provider name (sandbox, stripe, ...): the tenant's default account of that provider; sandbox is made on first use." }),
      grantDays: t.arg.int({ required: true, description: "Days of access per purchase." }),
      renewsSubscription: t.arg.boolean({ required: false, defaultValue: false, description: "Paying extends the buyer's subscription." }),
    },
    resolve: (_q, _r, args, ctx) =>
      createOneTimeOffer(ctx.db.prisma, {
        ...args,
        tenantId: String(args.tenantId),
        planId: String(args.planId),
        renewsSubscription: args.renewsSubscription ?? false,
      }),
  }),
  createCoupon: t.prismaField({
    type: "Coupon",
    description: "Create a coupon: exactly one of percentOff or amountOffCents, for N cycles (absent = forever).",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      code: t.arg.string({ required: true, description: "Code typed at checkout." }),
      percentOff: t.arg.int({ required: false, description: "Percent off (1-100)." }),
      amountOffCents: t.arg.int({ required: false, description: "Cents off per cycle." }),
      cycles: t.arg.int({ required: false, description: "Cycles discounted; absent = forever." }),
      maxRedemptions: t.arg.int({ required: false, description: "Redemption cap; absent = unlimited." }),
    },
    resolve: (_q, _r, args, ctx) => createCoupon(ctx.db.prisma, { ...args, tenantId: String(args.tenantId) }),
  }),
}));
