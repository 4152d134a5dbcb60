// Coupon: a discount code applied at checkout.
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection } from "./page.ts";

export const CouponRef = builder.prismaObject("Coupon", {
  description: "A discount code applied at checkout.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cpn_ id." }),
    code: t.exposeString("code", { description: "Code typed by the customer." }),
    percentOff: t.exposeInt("percentOff", { nullable: true, description: "Percent discount (1-100)." }),
    amountOffCents: t.exposeInt("amountOffCents", { nullable: true, description: "Fixed discount in cents." }),
    cycles: t.exposeInt("cycles", { nullable: true, description: "Cycles discounted; null = forever." }),
    maxRedemptions: t.exposeInt("maxRedemptions", { nullable: true, description: "Redemption cap; null = unlimited." }),
    redeemedCount: t.exposeInt("redeemedCount", { description: "Redemptions so far." }),
    active: t.exposeBoolean("active", { description: "False once disabled: no new redemption." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "No redemption after this instant; null = never." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
  }),
});

builder.queryFields((t) => ({
  coupons: t.connection(
    {
      type: CouponRef,
      description: "The tenant's coupons in id order (keyset).",
      authScopes: { tenant: true, operator: true },
      args: { tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }) },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("coupon", args, (id, take) =>
          ctx.db.prisma.coupon.findMany({ where: { tenantId, ...(id ? { id } : {}) }, orderBy: { id: "asc" }, take }),
        );
      },
    },
    { name: "CouponsConnection", description: "A page of coupons." },
    { name: "CouponsEdge", description: "One coupon of the page." },
  ),
}));
