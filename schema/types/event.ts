// Event: a billing event (the outbox row behind every webhook), its data typed as a union of the
// three data shapes of the contract: subscription payload, order data and referral data.
import { listEvents } from "../../core/events/list-events.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { EventDataRef, eventDataOf } from "./event-data.ts";
import { forwardOnly, pageToConnection } from "./page.ts";

const EventRef = builder.prismaObject("Event", {
  description: "A billing event (the outbox row behind every webhook). Its data is the state right after the change, as sent.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "evt_ id." }),
    type: t.exposeString("type", { description: "One of the 19 event types (subscription.activated, invoice.paid, order.paid, ...), or webhook.test: a panel test event, seen only in its delivery." }),
    tenantId: t.exposeString("tenantId", { description: "tn_ id of the tenant." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Business time (tenant clock)." }),
    data: t.field({
      type: EventDataRef,
      description: "The event's data: SubscriptionEventData, OrderEventData or ReferralEventData (select with fragments).",
      select: { type: true, data: true },
      resolve: (e) => eventDataOf(e.type, e.data),
    }),
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
