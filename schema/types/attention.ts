// What needs the vendor's attention (the panel's first page): core/tenants/list-attention-items.ts.
import { listAttentionItems, type FailingEndpoint } from "../../core/tenants/list-attention-items.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { WebhookEndpointRef } from "./webhook-endpoint.ts";

const FailingEndpointRef = builder.objectRef<FailingEndpoint>("FailingWebhookEndpoint").implement({
  description: "A webhook endpoint whose deliveries are failing.",
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: "The endpoint.", resolve: (f) => f.endpoint }),
    failingDeliveries: t.exposeInt("failingDeliveries", { description: "Deliveries of the last 7 days that failed for good or are being retried after a failed attempt." }),
    lastFailureAt: t.expose("lastFailureAt", { type: "DateTime", description: "Creation instant of the newest of those deliveries." }),
  }),
});

type Attention = Awaited<ReturnType<typeof listAttentionItems>>;

const RecentEventRef = builder.objectRef<Attention["recentEvents"][number]>("RecentEvent").implement({
  description: "An event as the panel's first page lists it.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "evt_ id." }),
    type: t.exposeString("type", { description: "Event type." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it happened." }),
  }),
});

const AttentionRef = builder.objectRef<Attention>("Attention").implement({
  description: "What needs the tenant's attention now.",
  fields: (t) => ({
    failingEndpoints: t.field({ type: [FailingEndpointRef], description: "Endpoints with failing deliveries, most failures first.", resolve: (a) => a.failingEndpoints }),
    refusedGateways: t.prismaField({ type: ["GatewayAccount"], description: "Gateway accounts whose credentials the provider refused, newest first.", resolve: (_q, a) => a.refusedGateways }),
    unusedKeys: t.prismaField({ type: ["ApiKey"], description: "Active API keys never used, newest first.", resolve: (_q, a) => a.unusedKeys }),
    recentEvents: t.field({ type: [RecentEventRef], description: "The last 10 events, newest first.", resolve: (a) => a.recentEvents }),
  }),
});

builder.queryFields((t) => ({
  attention: t.field({
    type: AttentionRef,
    description: "What needs the tenant's attention: failing webhook endpoints, refused gateway credentials, API keys never used. The operator names the tenant.",
    authScopes: { operator: true, tenant: true },
    args: { tenantId: t.arg.id({ required: false, description: "tn_ id (operator)." }) },
    resolve: (_r, args, ctx) => listAttentionItems(ctx.db.prisma, ctx.runtime.wallClock, { tenantId: tenantIdFor(ctx, args.tenantId == null ? null : String(args.tenantId)) }),
  }),
}));
