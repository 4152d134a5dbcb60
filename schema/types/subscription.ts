import { queryFromInfo } from "@pothos/plugin-prisma";
import { getSubscription } from "../../core/subscriptions/get-subscription.ts";
import { listSubscriptions } from "../../core/subscriptions/list-subscriptions.ts";
import { listSubscriptionGatewayEvents } from "../../core/subscriptions/list-subscription-gateway-events.ts";
import {
  subscriptionDetailInclude,
  subscriptionListItem,
  subscriptionPayload,
  subscriptionPayloadInclude,
  type SubscriptionForDetail,
  type SubscriptionForPayload,
} from "../../core/subscriptions/subscription-payload.ts";
import { gatewayEventRow } from "../../core/gateways/gateway-event-payload.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { CollectionMethodEnum, SubscriptionStatusEnum } from "./enums.ts";
import { forwardOnly, pageToConnection } from "./page.ts";

export const SubscriptionRef = builder.prismaObject("Subscription", {
  description: "A customer's subscription to an offer.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "sub_ id." }),
    status: t.expose("status", { type: SubscriptionStatusEnum, description: "Current status." }),
    collectionMethod: t.expose("collectionMethod", { type: CollectionMethodEnum, description: "How renewals are collected." }),
    currentPeriodEnd: t.expose("currentPeriodEnd", { type: "DateTime", nullable: true, description: "End of the paid period; null in a trial." }),
    nextBillingAt: t.expose("nextBillingAt", { type: "DateTime", nullable: true, description: "Next instant the billing run acts." }),
    cancelAtPeriodEnd: t.exposeBoolean("cancelAtPeriodEnd", { description: "Cancellation scheduled for the period end." }),
    planId: t.exposeString("planId", { description: "Current plan_ id." }),
    offerId: t.exposeString("offerId", { description: "Current offer_ id." }),
    customer: t.relation("customer", { description: "The subscriber." }),
    plan: t.relation("plan", { description: "The current plan." }),
    listItem: t.field({
      type: "JSON",
      description: "The contract's subscription payload without last_payment and tracking (list shape).",
      select: { ...subscriptionPayloadInclude },
      resolve: (s) => subscriptionListItem(s as unknown as SubscriptionForPayload),
    }),
    payload: t.field({
      type: "JSON",
      description: "The contract's full subscription payload, as in webhooks and GET /v1/subscriptions/{id}.",
      select: { ...subscriptionDetailInclude },
      resolve: (s) => subscriptionPayload(s as unknown as SubscriptionForDetail),
    }),
    gatewayEvents: t.field({
      type: ["JSON"],
      description: "Gateway event rows of this subscription's charges (at most 200).",
      resolve: async (s, _a, ctx) => (await listSubscriptionGatewayEvents(ctx.db.prisma, s)).map(gatewayEventRow),
    }),
  }),
});

builder.queryFields((t) => ({
  subscriptions: t.connection(
    {
      type: SubscriptionRef,
      description: "The tenant's subscriptions in id order (keyset). `status` takes one or several comma-separated values.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        status: t.arg.string({ required: false, description: "Filter: status values joined by commas." }),
        offerId: t.arg.string({ required: false, description: "Filter: offer_ id." }),
      },
      resolve: async (_root, args, ctx, info) => {
        forwardOnly(args);
        const page = await listSubscriptions(
          ctx.db.prisma,
          { tenantId: tenantIdFor(ctx, args.tenantId), limit: args.first, after: args.after, status: args.status, offerId: args.offerId },
          queryFromInfo({ context: ctx, info, path: ["edges", "node"] }),
        );
        return pageToConnection(page);
      },
    },
    { description: "A page of subscriptions." },
    { description: "One subscription of the page." },
  ),
  subscription: t.prismaField({
    type: "Subscription",
    description: "One subscription of the tenant. Unknown and foreign ids are the same not_found error.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (query, _root, args, ctx) =>
      getSubscription(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), subscriptionId: args.id }, query),
  }),
}));
