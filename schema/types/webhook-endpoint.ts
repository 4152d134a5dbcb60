import { builder } from "../builder.ts";

builder.prismaObject("WebhookEndpoint", {
  description: "A URL receiving the tenant's signed events.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "we_ id." }),
    url: t.exposeString("url", { description: "Receiver URL." }),
    events: t.exposeStringList("events", { description: "Subscribed event types; empty = all." }),
    active: t.exposeBoolean("active", { description: "Whether deliveries are made." }),
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
