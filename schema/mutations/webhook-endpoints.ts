// The panel's webhook endpoints, as a signed-in member manages them (scope `developer`: owner, admin,
// developer). The tenant is always the member's own; every rule is in core/webhooks/. The operator's
// createWebhookEndpoint and rotateWebhookSecret (webhooks.ts) keep their contract.
import { createWebhookEndpoint } from "../../core/webhooks/create-webhook-endpoint.ts";
import { deleteWebhookEndpoint } from "../../core/webhooks/delete-webhook-endpoint.ts";
import { resendFailedWebhookDeliveries } from "../../core/webhooks/resend-failed-webhook-deliveries.ts";
import { resendWebhookDelivery } from "../../core/webhooks/resend-webhook-delivery.ts";
import { revealWebhookSecret } from "../../core/webhooks/reveal-webhook-secret.ts";
import { rotateWebhookSecret } from "../../core/webhooks/rotate-webhook-secret.ts";
import { sendTestWebhookEvent } from "../../core/webhooks/send-test-webhook-event.ts";
import { setWebhookEndpointEnabled } from "../../core/webhooks/set-webhook-endpoint-enabled.ts";
import { updateWebhookEndpoint } from "../../core/webhooks/update-webhook-endpoint.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { RotatedWebhookSecret } from "../types/webhook-endpoint.ts";

const WebhookSecretRef = builder.objectRef<{ id: string; secret: string; previousSecretExpiresAt: Date | null }>("WebhookSecret").implement({
  description: "An endpoint's signing secret, as revealWebhookSecret shows it.",
  fields: (t) => ({
    endpointId: t.exposeID("id", { description: "we_ id." }),
    secret: t.exposeString("secret", { description: "The signing secret (whsec_…): the HMAC key of X-Billing-Signature." }),
    previousSecretExpiresAt: t.expose("previousSecretExpiresAt", {
      type: "DateTime",
      nullable: true,
      description: "While a rotation overlaps: when the previous secret stops signing; null otherwise.",
    }),
  }),
});

const DeletedWebhookEndpointRef = builder.objectRef<{ id: string; deleted: boolean }>("DeletedWebhookEndpoint").implement({
  description: "An endpoint removed from the panel (its delivery history is kept).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "we_ id." }),
    deleted: t.exposeBoolean("deleted", { description: "Always true." }),
  }),
});

const ResentDeliveriesRef = builder.objectRef<{ resent: number }>("ResentWebhookDeliveries").implement({
  description: "How many failed deliveries were sent again.",
  fields: (t) => ({ resent: t.exposeInt("resent", { description: "Deliveries put back in line, each in a new series of 7 attempts." }) }),
});

const TestWebhookEventRef = builder.objectRef<{ eventId: string; deliveryId: string }>("TestWebhookEvent").implement({
  description: "A webhook.test event on its way to one endpoint.",
  fields: (t) => ({
    eventId: t.exposeID("eventId", { description: "evt_ id of the test event (X-Billing-Event-Id)." }),
    deliveryId: t.exposeID("deliveryId", { description: "dlv_ id of its delivery, in the endpoint's log." }),
  }),
});

builder.mutationFields((t) => ({
  addWebhookEndpoint: t.prismaField({
    type: "WebhookEndpoint",
    description: "A panel member registers a receiver URL for their tenant (all event types when events is empty). The secret is read with revealWebhookSecret.",
    authScopes: { developer: true },
    args: {
      url: t.arg.string({ required: true, description: "http(s) URL; never a private, link-local or metadata address (loopback only for SANDBOX tenants)." }),
      description: t.arg.string({ required: false, description: "Plain text, at most 500 characters." }),
      events: t.arg.stringList({ required: false, description: "Event types; empty or absent = all." }),
      enabled: t.arg.boolean({ required: false, description: "False: created disabled. Default true." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const tenantId = tenantIdFor(ctx);
      const created = await createWebhookEndpoint(ctx.db.prisma, { tenantId, url: args.url, events: args.events ?? [], description: args.description, active: args.enabled ?? true });
      return ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  updateWebhookEndpoint: t.prismaField({
    type: "WebhookEndpoint",
    description: "Change an endpoint's URL, description and subscribed types (the same rules as at creation).",
    authScopes: { developer: true },
    args: {
      id: t.arg.id({ required: true, description: "we_ id." }),
      url: t.arg.string({ required: true, description: "http(s) URL, as for addWebhookEndpoint." }),
      description: t.arg.string({ required: false, description: "Plain text, at most 500 characters; absent = empty." }),
      events: t.arg.stringList({ required: false, description: "Event types; empty or absent = all." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const tenantId = tenantIdFor(ctx);
      const row = await updateWebhookEndpoint(ctx.db.prisma, { tenantId, endpointId: String(args.id), url: args.url, description: args.description ?? null, events: args.events ?? [] });
      return ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: row.id } });
    },
  }),
  setWebhookEndpointEnabled: t.prismaField({
    type: "WebhookEndpoint",
    description: "Enable or disable an endpoint. Disabling holds its pending deliveries, skips it for new events and e-mails the vendor's contacts.",
    authScopes: { developer: true },
    args: {
      id: t.arg.id({ required: true, description: "we_ id." }),
      enabled: t.arg.boolean({ required: true, description: "True to enable, false to disable." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const row = await setWebhookEndpointEnabled(ctx.db, { tenantId: tenantIdFor(ctx), endpointId: String(args.id), enabled: args.enabled, at: ctx.clock.now() });
      return ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: row.id } });
    },
  }),
  deleteWebhookEndpoint: t.field({
    type: DeletedWebhookEndpointRef,
    description: "Remove an endpoint: nothing more is sent to it; its delivery history stays readable by event.",
    authScopes: { developer: true },
    args: { id: t.arg.id({ required: true, description: "we_ id." }) },
    resolve: (_root, args, ctx) => deleteWebhookEndpoint(ctx.db.prisma, { tenantId: tenantIdFor(ctx), endpointId: String(args.id), at: ctx.runtime.wallClock.now() }),
  }),
  revealWebhookSecret: t.field({
    type: WebhookSecretRef,
    description: "Show an endpoint's signing secret. A mutation so that the audit log records who saw it.",
    authScopes: { developer: true },
    args: { id: t.arg.id({ required: true, description: "we_ id." }) },
    resolve: (_root, args, ctx) => revealWebhookSecret(ctx.db.prisma, ctx.runtime.wallClock, { tenantId: tenantIdFor(ctx), endpointId: String(args.id) }),
  }),
  rollWebhookSecret: t.field({
    type: RotatedWebhookSecret,
    description: "The panel's rotateWebhookSecret: a new signing secret; the old one keeps signing for 24 h.",
    authScopes: { developer: true },
    args: { id: t.arg.id({ required: true, description: "we_ id." }) },
    resolve: (_root, args, ctx) => rotateWebhookSecret(ctx.db.prisma, ctx.runtime.wallClock, { tenantId: tenantIdFor(ctx), endpointId: String(args.id) }),
  }),
  resendWebhookDelivery: t.prismaField({
    type: "WebhookDelivery",
    description: "Send one delivery again, now, to its endpoint only (a new series of 7 attempts). Refused while the endpoint is disabled.",
    authScopes: { developer: true },
    args: { id: t.arg.id({ required: true, description: "dlv_ id." }) },
    resolve: async (query, _root, args, ctx) => {
      const tenantId = tenantIdFor(ctx);
      const row = await resendWebhookDelivery(ctx.db, { tenantId, deliveryId: String(args.id), now: ctx.clock.now() });
      return ctx.db.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: row.id } });
    },
  }),
  resendFailedWebhookDeliveries: t.field({
    type: ResentDeliveriesRef,
    description: "Send again every delivery to this endpoint that failed for good (EXHAUSTED or FAILED) of events since the date, at most 1000.",
    authScopes: { developer: true },
    args: {
      endpointId: t.arg.id({ required: true, description: "we_ id." }),
      since: t.arg({ type: "DateTime", required: true, description: "Events created at or after this instant (the tenant's clock)." }),
    },
    resolve: (_root, args, ctx) =>
      resendFailedWebhookDeliveries(ctx.db, { tenantId: tenantIdFor(ctx), endpointId: String(args.endpointId), since: args.since, now: ctx.clock.now() }),
  }),
  sendTestWebhookEvent: t.field({
    type: TestWebhookEventRef,
    description: "Send a signed webhook.test event to this endpoint only (not to the tenant's others, not in GET /v1/events).",
    authScopes: { developer: true },
    args: { endpointId: t.arg.id({ required: true, description: "we_ id." }) },
    resolve: (_root, args, ctx) => sendTestWebhookEvent(ctx.db.prisma, { tenantId: tenantIdFor(ctx), endpointId: String(args.endpointId), at: ctx.clock.now() }),
  }),
}));
