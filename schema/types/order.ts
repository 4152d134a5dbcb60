// Order: a one-time purchase (units of a one-time offer, a renewal advance or a campaign renewal).
import { trackingFields } from "../../core/subscriptions/subscription-payload.ts";
import { builder } from "../builder.ts";
import { PaymentRef } from "./payment.ts";
import { OrderStatusEnum } from "./enums.ts";
import { TrackingRef } from "./subscription.ts";

builder.prismaObject("Order", {
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
