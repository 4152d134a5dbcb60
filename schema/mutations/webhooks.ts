// Operator mutations on webhook endpoints.
import { createWebhookEndpoint } from "../../core/webhooks/create-webhook-endpoint.ts";
import { rotateWebhookSecret } from "../../core/webhooks/rotate-webhook-secret.ts";
import { builder } from "../builder.ts";
import { CreatedWebhookEndpoint, RotatedWebhookSecret } from "../types/webhook-endpoint.ts";

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: CreatedWebhookEndpoint,
    description: "Register a receiver URL for all event types (events empty) or a subset. The secret is shown once.",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      url: t.arg.string({ required: true, description: "http(s) URL; never a private, link-local or metadata address (loopback only for SANDBOX tenants)." }),
      events: t.arg.stringList({ required: false, description: "Event types; empty or absent = all." }),
    },
    resolve: (_root, args, ctx) =>
      createWebhookEndpoint(ctx.db.prisma, { tenantId: String(args.tenantId), url: args.url, events: args.events ?? [] }),
  }),
  rotateWebhookSecret: t.field({
    type: RotatedWebhookSecret,
    description: "Issue a new signing secret; the old one keeps signing for 24 h.",
    authScopes: { operator: true },
    args: { endpointId: t.arg.id({ required: true, description: "we_ id." }) },
    resolve: (_root, args, ctx) => rotateWebhookSecret(ctx.db.prisma, ctx.runtime.wallClock, { endpointId: String(args.endpointId) }),
  }),
}));
