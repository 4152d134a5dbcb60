// Plan: a set of entitlements (a capability map, kept as JSON: it is one), with its offers.
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection } from "./page.ts";

export const PlanRef = builder.prismaObject("Plan", {
  description: "A plan: a set of entitlements. Identified by id; the name is for display.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "plan_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    productId: t.exposeString("productId", { description: "prod_ id." }),
    product: t.relation("product", { description: "The product the plan belongs to." }),
    entitlements: t.expose("entitlements", { type: "JSON", description: "Capability map (e.g. {\"seats\": 5, \"reports\": true}); read live by every payload." }),
    offers: t.relation("offers", { query: { orderBy: { id: "asc" } }, description: "Prices of the plan (recurring and one-time), in id order." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "Last change (entitlements edits included)." }),
  }),
});

builder.queryFields((t) => ({
  plans: t.connection(
    {
      type: PlanRef,
      description: "The tenant's plans in id order (keyset).",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        productId: t.arg.string({ required: false, description: "Only the plans of this prod_ id." }),
      },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("plan", args, (id, take) =>
          ctx.db.prisma.plan.findMany({
            where: { tenantId, ...(args.productId ? { productId: args.productId } : {}), ...(id ? { id } : {}) },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "PlansConnection", description: "A page of plans." },
    { name: "PlansEdge", description: "One plan of the page." },
  ),
}));
