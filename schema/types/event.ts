import { eventEnvelope } from "../../core/events/event-envelope.ts";
import { listEvents } from "../../core/events/list-events.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { forwardOnly, pageToConnection } from "./page.ts";

const EventRef = builder.prismaObject("Event", {
  description: "A billing event (the outbox row behind every webhook).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "evt_ id." }),
    type: t.exposeString("type", { description: "One of the 19 event types." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Business time (tenant clock)." }),
    envelope: t.field({ type: "JSON", description: "The webhook envelope {id, type, created_at, tenant_id, data}.", resolve: (e) => eventEnvelope(e) }),
  }),
});

builder.queryFields((t) => ({
  events: t.connection(
    {
      type: EventRef,
      description: "The tenant's events of the last 30 days, in id order, for replay after an outage.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        type: t.arg.string({ required: false, description: "Filter by event type." }),
      },
      resolve: async (_root, args, ctx) => {
        forwardOnly(args);
        const tenantId = tenantIdFor(ctx, args.tenantId);
        const now = (await clockFor(ctx, tenantId)).now();
        return pageToConnection(await listEvents(ctx.db.prisma, { tenantId, type: args.type, limit: args.first, after: args.after, now }));
      },
    },
    { name: "EventsConnection", description: "A page of events." },
    { name: "EventsEdge", description: "One event of the page." },
  ),
}));
