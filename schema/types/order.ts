// Order: a one-time purchase (units of a one-time offer, a renewal advance or a campaign renewal).
import { trackingFields } from "../../core/payloads/subscription-payload.ts";
import { isId } from "../../core/shared/ids.ts";
import { notFound } from "../../core/shared/errors.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection } from "./page.ts";
import { PaymentRef } from "./payment.ts";
import { OrderStatusEnum } from "./enums.ts";
import { TrackingRef } from "./subscription.ts";

export const OrderRef = builder.prismaObject("Order", {
  description: "A one-time purchase: units of a one-time offer (a grant), or a renewal advance / campaign renewal of a subscription.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "ord_ id." }),
    status: t.expose("status", { type: OrderStatusEnum, description: "PENDING, PAID, REFUNDED, CANCELED or EXPIRED." }),
    customer: t.relation("customer", { description: "The buyer." }),
    offerId: t.exposeString("offerId", { description: "offer_ id bought." }),
    planId: t.exposeString("planId", { description: "plan_ id whose entitlements it gives." }),
    quantity: t.exposeInt("quantity", { description: "Units bought." }),
    unitAmountCents: t.exposeInt("unitAmountCents", { description: "Price of one unit in cents." }),
    amountCents: t.exposeInt("amountCents", { description: "Total in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    targetSubscriptionId: t.exposeString("targetSubscriptionId", { nullable: true, description: "The subscription a renewal or campaign order extends; null for grants." }),
    campaignId: t.exposeString("campaignId", { nullable: true, description: "cmp_ id of the renewal campaign it was bought in." }),
    paidAt: t.expose("paidAt", { type: "DateTime", nullable: true, description: "When it was paid (tenant clock)." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant (wall clock)." }),
    tracking: t.field({
      type: TrackingRef,
      nullable: true,
      description: "Attribution of the checkout link; null without context.",
      select: { tracking: true },
      resolve: (o) => trackingFields(o.tracking),
    }),
    grants: t.relation("grants", { description: "The access it bought (one-time offers)." }),
    payments: t.field({
      type: [PaymentRef],
      description: "Its payments (Pix or card attempts), in id order.",
      select: { tenantId: true },
      resolve: (o, _a, ctx) => ctx.db.prisma.payment.findMany({ where: { tenantId: o.tenantId, orderId: o.id }, orderBy: { id: "asc" } }),
    }),
  }),
});

builder.queryFields((t) => ({
  order: t.prismaField({
    type: "Order",
    description: "One order of the tenant. Unknown and foreign ids are the same not_found error.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "ord_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const order = isId("order", args.id)
        ? await ctx.db.prisma.order.findFirst({ ...query, where: { id: args.id, tenantId: tenantIdFor(ctx, args.tenantId) } })
        : null;
      if (!order) throw notFound("order");
      return order;
    },
  }),
  orders: t.connection(
    {
      type: OrderRef,
      description: "The tenant's one-time orders in id order (keyset), filtered by status.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        status: t.arg({ type: [OrderStatusEnum], required: false, description: "Only orders in one of these statuses." }),
      },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("order", args, (id, take) =>
          ctx.db.prisma.order.findMany({
            where: { tenantId, ...(args.status?.length ? { status: { in: args.status } } : {}), ...(id ? { id } : {}) },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "OrdersConnection", description: "A page of orders." },
    { name: "OrdersEdge", description: "One order of the page." },
  ),
}));
