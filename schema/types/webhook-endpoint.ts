import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";

export const WebhookEndpointRef = builder.prismaObject("WebhookEndpoint", {
  description: "A URL receiving the tenant's signed events. Its signing secret is never a field: see revealWebhookSecret.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "we_ id." }),
    url: t.exposeString("url", { description: "Receiver URL." }),
    description: t.exposeString("description", { description: "What the vendor wrote about it (plain text; empty when none)." }),
    events: t.exposeStringList("events", { description: "Subscribed event types; empty = all." }),
    active: t.exposeBoolean("active", { description: "Whether deliveries are made. Disabled: new events skip it and its pending deliveries are held." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was registered." }),
    previousSecretExpiresAt: t.expose("previousSecretExpiresAt", {
      type: "DateTime",
      nullable: true,
      description: "After a rotation: until when the previous secret still signs too (it may lie in the past).",
    }),
  }),
});

export const CreatedWebhookEndpoint = builder
  .objectRef<{ id: string; secret: string; url: string; events: string[] }>("CreatedWebhookEndpoint")
  .implement({
    description: "A new endpoint with its signing secret, shown once.",
    fields: (t) => ({
      id: t.exposeID("id", { description: "we_ id." }),
      secret: t.exposeString("secret", { description: "Signing secret (whsec_…, 32 random bytes)." }),
      url: t.exposeString("url", { description: "Receiver URL." }),
      events: t.exposeStringList("events", { description: "Subscribed event types; empty = all." }),
    }),
  });

export const RotatedWebhookSecret = builder.objectRef<{ secret: string; previousSecretExpiresAt: Date }>("RotatedWebhookSecret").implement({
  description: "The new signing secret. The old one keeps signing for 24 h.",
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "New signing secret." }),
    previousSecretExpiresAt: t.expose("previousSecretExpiresAt", { type: "DateTime", description: "When the old secret stops signing." }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoint: t.prismaField({
    type: "WebhookEndpoint",
    nullable: true,
    description: "One of the tenant's endpoints; null when unknown, deleted or another tenant's.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.id({ required: true, description: "we_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.db.prisma.webhookEndpoint.findFirst({ ...query, where: { id: String(args.id), tenantId: tenantIdFor(ctx, args.tenantId), deletedAt: null } }),
  }),
}));
