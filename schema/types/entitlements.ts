import { getEntitlements } from "../../core/entitlements/get-entitlements.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { BillingIntervalEnum, SubscriptionStatusEnum } from "./enums.ts";

type EntitlementsResult = Awaited<ReturnType<typeof getEntitlements>>;

const EntitlementSubscriptionRef = builder.objectRef<EntitlementsResult["subscriptions"][number]>("EntitlementSubscription").implement({
  description: "A subscription of the customer that is not canceled, with its current plan's entitlements.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "sub_ id." }),
    status: t.field({ type: SubscriptionStatusEnum, description: "Current status (SUSPENDED is listed but grants nothing).", resolve: (s) => s.status.toUpperCase() as never }),
    planId: t.exposeString("planId", { description: "Current plan_ id." }),
    interval: t.field({ type: BillingIntervalEnum, description: "Cycle length.", resolve: (s) => s.interval.toUpperCase() as never }),
    currentPeriodEnd: t.expose("currentPeriodEnd", { type: "DateTime", nullable: true, description: "End of the paid period." }),
    entitlements: t.field({ type: "JSON", description: "The plan's entitlements (a capability map), read live.", resolve: (s) => s.entitlements }),
  }),
});

const EntitlementsRef = builder.objectRef<EntitlementsResult>("Entitlements").implement({
  description: "A customer's live subscriptions with the current plan entitlements, and their union.",
  fields: (t) => ({
    customerId: t.string({ nullable: true, description: "cus_ id; null for an unknown customer.", resolve: (r) => r.customerId }),
    subscriptions: t.field({ type: [EntitlementSubscriptionRef], description: "Subscriptions that are not canceled, in id order.", resolve: (r) => r.subscriptions }),
    mergedEntitlements: t.field({
      type: "JSON",
      description: "Union over active, trialing and past_due subscriptions.",
      resolve: (r) => r.mergedEntitlements,
    }),
  }),
});

builder.queryFields((t) => ({
  entitlements: t.field({
    type: EntitlementsRef,
    description: "Entitlements of a customer by externalId (preferred) or email. An unknown customer is not an error.",
    authScopes: { tenant: true, operator: true },
    args: {
      externalId: t.arg.string({ required: false, description: "The tenant's key for the customer." }),
      email: t.arg.string({ required: false, description: "Alternative key (personal data in logs; discouraged)." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (_root, args, ctx) =>
      getEntitlements(ctx.db, { tenantId: tenantIdFor(ctx, args.tenantId), externalId: args.externalId, email: args.email }, { entries: ctx.runtime.entitlements, wallClock: ctx.runtime.wallClock }),
  }),
}));
