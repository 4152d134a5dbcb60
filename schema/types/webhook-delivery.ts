// The delivery log on GraphQL: deliveries, their attempts, and the alarm list of exhausted ones.
import { eventEnvelope } from "../../core/events/event-envelope.ts";
import { DELIVERY_ERRORS, deliveryErrorFor } from "../../core/webhooks/delivery-error.ts";
import { listDeliveries } from "../../core/webhooks/list-deliveries.ts";
import { eventTenantId, redeliverEvent } from "../../core/webhooks/redeliver-event.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { forwardOnly, pageToConnection } from "./page.ts";

const DeliveryStatusEnum = builder.enumType("WebhookDeliveryStatus", {
  description: "Where a delivery stands.",
  values: {
    PENDING: { description: "Not confirmed yet: the next attempt is scheduled (next_attempt_at)." },
    DELIVERED: { description: "The endpoint answered 2xx." },
    EXHAUSTED: { description: "All 7 attempts failed (alarm raised). redeliverEvent starts a new series." },
    FAILED: { description: "Fatal: the endpoint URL is malformed; not retried." },
  } as const,
});

const ERROR_LIST = DELIVERY_ERRORS.map((e) => `\`${e}\``).join(", ");

builder.prismaObject("WebhookAttempt", {
  description: "One HTTP attempt of a delivery.",
  fields: (t) => ({
    attemptNo: t.exposeInt("attemptNo", { description: "1-based, over the delivery's whole life (redeliveries continue the count)." }),
    scheduledAt: t.expose("scheduledAt", { type: "DateTime", description: "When it fell due on the tenant's clock." }),
    startedAt: t.expose("startedAt", { type: "DateTime", description: "Wall-clock start of the request." }),
    statusCode: t.exposeInt("statusCode", { nullable: true, description: "HTTP status answered; null on timeout or connection error." }),
    latencyMs: t.exposeInt("latencyMs", { nullable: true, description: "Time to the response's status line, in milliseconds." }),
    error: t.string({
      nullable: true,
      description: `Why it failed, as a category: ${ERROR_LIST}. Null when delivered. Never the socket's own message.`,
      // Rows stored before categories hold raw messages: shown as their category too.
      resolve: (a) => deliveryErrorFor(a.error, a.statusCode),
    }),
  }),
});

export const WebhookDeliveryRef = builder.prismaObject("WebhookDelivery", {
  description: "One event on its way to one endpoint.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "dlv_ id." }),
    event: t.relation("event", { description: "The event delivered." }),
    endpoint: t.relation("endpoint", { description: "The receiving endpoint." }),
    status: t.expose("status", { type: DeliveryStatusEnum, description: "Where the delivery stands." }),
    attemptCount: t.exposeInt("attemptCount", { description: "Attempts made so far." }),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime", nullable: true, description: "Next attempt (tenant clock) while pending." }),
    lastStatusCode: t.exposeInt("lastStatusCode", { nullable: true, description: "Status code of the last attempt." }),
    lastError: t.string({
      nullable: true,
      description: "Category of the last failed attempt's error (see WebhookAttempt.error).",
      resolve: (d) => deliveryErrorFor(d.lastError, d.lastStatusCode),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Wall-clock time the delivery was queued." }),
    payload: t.string({
      description: "The body as sent: the event envelope, byte for byte what the X-Billing-Signature HMAC covers (signed again at each attempt's ts).",
      select: { eventId: true, tenantId: true, event: { select: { type: true, data: true, createdAt: true } } },
      resolve: (d) => JSON.stringify(eventEnvelope({ id: d.eventId, tenantId: d.tenantId, type: d.event.type, data: d.event.data, createdAt: d.event.createdAt })),
    }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true, description: "Wall-clock time of the 2xx." }),
    attempts: t.relation("attempts", { query: { orderBy: { attemptNo: "asc" } }, description: "Every attempt, in order." }),
  }),
});

const deliveriesConnection = { name: "WebhookDeliveriesConnection", description: "A page of deliveries." } as const;
const deliveriesEdge = { name: "WebhookDeliveriesEdge", description: "One delivery of the page." } as const;

builder.queryFields((t) => ({
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryRef,
      description: "The delivery log: attempts, status codes, latency and the next attempt, in event order.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        eventId: t.arg.id({ required: false, description: "Only the deliveries of this event." }),
        endpointId: t.arg.id({ required: false, description: "Only the deliveries to this endpoint." }),
        status: t.arg({ type: DeliveryStatusEnum, required: false, description: "Only deliveries in this status." }),
        newestFirst: t.arg.boolean({ required: false, description: "Newest first (after then pages towards older ones). Default: event order." }),
      },
      resolve: async (_root, args, ctx) => {
        forwardOnly(args);
        const tenantId = tenantIdFor(ctx, args.tenantId);
        const page = await listDeliveries(ctx.db.prisma, {
          tenantId,
          eventId: args.eventId ? String(args.eventId) : null,
          endpointId: args.endpointId ? String(args.endpointId) : null,
          status: args.status,
          newestFirst: args.newestFirst,
          limit: args.first,
          after: args.after,
        });
        return pageToConnection(page);
      },
    },
    deliveriesConnection,
    deliveriesEdge,
  ),
  exhaustedWebhookDeliveries: t.connection(
    {
      type: WebhookDeliveryRef,
      description: "The alarm list: deliveries whose 7 attempts all failed. The operator sees every tenant unless tenantId is given.",
      authScopes: { tenant: true, operator: true },
      args: { tenantId: t.arg.id({ required: false, description: "Operator: restrict to one tenant." }) },
      resolve: async (_root, args, ctx) => {
        forwardOnly(args);
        const tenantId = ctx.actor.kind === "operator" && !args.tenantId ? null : tenantIdFor(ctx, args.tenantId);
        return pageToConnection(await listDeliveries(ctx.db.prisma, { tenantId, status: "EXHAUSTED", limit: args.first, after: args.after }));
      },
    },
    { name: "ExhaustedWebhookDeliveriesConnection", description: "A page of exhausted deliveries." },
    { name: "ExhaustedWebhookDeliveriesEdge", description: "One exhausted delivery." },
  ),
  webhookEndpoints: t.prismaField({
    type: ["WebhookEndpoint"],
    description: "The tenant's webhook endpoints (deleted ones are left out).",
    authScopes: { tenant: true, operator: true },
    args: { tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.prisma.webhookEndpoint.findMany({ ...query, where: { tenantId: tenantIdFor(ctx, args.tenantId), deletedAt: null }, orderBy: { id: "asc" } }),
  }),
}));

builder.mutationFields((t) => ({
  redeliverEvent: t.prismaField({
    type: ["WebhookDelivery"],
    description: "Send an event again, now, to every active endpoint subscribed to its type; each delivery starts a new series of 7 attempts.",
    authScopes: { $any: { write: true, operator: true } },
    args: {
      eventId: t.arg.id({ required: true, description: "evt_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the event's tenant." }),
    },
    resolve: async (_query, _root, args, ctx) => {
      // The operator may name just the event: its tenant is the event's own.
      const tenantId =
        ctx.actor.kind === "operator" && !args.tenantId ? await eventTenantId(ctx.db.prisma, String(args.eventId)) : tenantIdFor(ctx, args.tenantId);
      return redeliverEvent(ctx.db, await clockFor(ctx, tenantId), { tenantId, eventId: String(args.eventId) });
    },
  }),
}));
