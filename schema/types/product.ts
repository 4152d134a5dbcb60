// Product: a product of the tenant's catalogue, with its plans.
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection } from "./page.ts";

export const ProductRef = builder.prismaObject("Product", {
  description: "A product of the tenant's catalogue.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "prod_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    plans: t.relation("plans", { query: { orderBy: { id: "asc" } }, description: "Plans of the product, in id order." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
  }),
});

builder.queryFields((t) => ({
  products: t.connection(
    {
      type: ProductRef,
      description: "The tenant's products in id order (keyset).",
      authScopes: { tenant: true, operator: true },
      args: { tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }) },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("product", args, (id, take) =>
          ctx.db.prisma.product.findMany({ where: { tenantId, ...(id ? { id } : {}) }, orderBy: { id: "asc" }, take }),
        );
      },
    },
    { name: "ProductsConnection", description: "A page of products." },
    { name: "ProductsEdge", description: "One product of the page." },
  ),
}));
