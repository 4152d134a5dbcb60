// Grants: access of a plan for a period of its own, bought with a one-time order.
import { listCustomerGrants } from "../../core/orders/list-customer-grants.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";

builder.prismaObject("Grant", {
  description: "Access to a plan for grant_days from payment, bought with a one-time order of `quantity` units. A refund that revokes it, or a chargeback, sets revokedAt.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "grt_ id." }),
    orderId: t.exposeString("orderId", { description: "ord_ id of the order that bought it." }),
    order: t.relation("order", { description: "The order that bought it." }),
    planId: t.exposeString("planId", { description: "plan_ id whose entitlements it gives." }),
    quantity: t.exposeInt("quantity", { description: "Units bought (the order's quantity)." }),
    startsAt: t.expose("startsAt", { type: "DateTime", description: "Start (payment instant, tenant clock)." }),
    endsAt: t.expose("endsAt", { type: "DateTime", description: "End: startsAt plus the offer's grant_days." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When a refund or chargeback revoked it." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant (wall clock)." }),
  }),
});

builder.queryFields((t) => ({
  customerGrants: t.prismaField({
    type: ["Grant"],
    description: "A customer's grants, newest first (at most 500), revoked ones included. 404 for an unknown or foreign customer.",
    authScopes: { tenant: true, operator: true },
    args: {
      externalId: t.arg.string({ required: true, description: "The tenant's key for the customer." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (_q, _r, args, ctx) => listCustomerGrants(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), externalId: args.externalId }),
  }),
}));
