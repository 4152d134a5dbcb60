import { getEntitlements } from "../../core/entitlements/get-entitlements.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";

type EntitlementsResult = Awaited<ReturnType<typeof getEntitlements>>;

const EntitlementsRef = builder.objectRef<EntitlementsResult>("Entitlements").implement({
  description: "A customer's live subscriptions with the current plan entitlements, and their union.",
  fields: (t) => ({
    customerId: t.string({ nullable: true, description: "cus_ id; null for an unknown customer.", resolve: (r) => r.customer_id }),
    mergedEntitlements: t.field({
      type: "JSON",
      description: "Union over active, trialing and past_due subscriptions.",
      resolve: (r) => r.merged_entitlements,
    }),
    payload: t.field({ type: "JSON", description: "The contract's response body.", resolve: (r) => r }),
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
      getEntitlements(ctx.db, { tenantId: tenantIdFor(ctx, args.tenantId), externalId: args.externalId, email: args.email }),
  }),
}));
