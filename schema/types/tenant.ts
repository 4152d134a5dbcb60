import { builder } from "../builder.ts";
import { emailSettingsOf } from "../../core/tenants/update-tenant-email-settings.ts";
import { TenantModeEnum } from "./enums.ts";
import { TenantEmailSettingsRef } from "./tenant-email-settings.ts";

builder.prismaObject("Tenant", {
  description: "A vendor using the service. Operator view.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "tn_ id." }),
    name: t.exposeString("name", { description: "Display name." }),
    mode: t.expose("mode", { type: TenantModeEnum, description: "LIVE or SANDBOX." }),
    readOnly: t.exposeBoolean("readOnly", { description: "Read-only account mode (most write routes answer account_locked)." }),
    suspended: t.exposeBoolean("suspended", { description: "Suspended tenants' keys answer 401." }),
    renewalsPaused: t.exposeBoolean("renewalsPaused", { description: "The billing run skips charging this tenant." }),
    clockAt: t.expose("clockAt", { type: "DateTime", nullable: true, description: "SANDBOX clock; null until first moved." }),
    readRateLimit: t.exposeInt("readRateLimit", { nullable: true, description: "Read requests per second per key; null = default 100." }),
    writeRateLimit: t.exposeInt("writeRateLimit", { nullable: true, description: "Write requests per second per key; null = default 20." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
    emailSettings: t.field({ type: TenantEmailSettingsRef, description: "How the tenant's customer e-mails go out.", resolve: (tenant) => emailSettingsOf(tenant) }),
  }),
});

builder.prismaObject("ApiKey", {
  description: "An API key of a tenant. The clear key is shown once, at creation.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "key_ id." }),
    hint: t.exposeString("hint", { description: "First characters of the key, for recognition." }),
    scope: t.exposeString("scope", { description: "READ or WRITE." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When revoked, if revoked." }),
  }),
});

export const CreatedApiKey = builder.objectRef<{ id: string; key: string; scope: string }>("CreatedApiKey").implement({
  description: "A new API key with its clear text, returned once.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "key_ id." }),
    key: t.exposeString("key", { description: "The clear key (bk_live_… or bk_test_…). Store it now; it is not shown again." }),
    scope: t.exposeString("scope", { description: "READ or WRITE." }),
  }),
});

const Viewer = builder.objectRef<{ kind: string; tenantId: string | null; scope: string | null; readOnly: boolean }>("Viewer").implement({
  description: "Who is calling.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "operator or tenant." }),
    tenantId: t.exposeString("tenantId", { nullable: true, description: "tn_ id of a tenant key." }),
    scope: t.exposeString("scope", { nullable: true, description: "READ or WRITE for a tenant key." }),
    readOnly: t.exposeBoolean("readOnly", { description: "Whether the tenant account is read-only." }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: Viewer,
    description: "The caller: operator, or a tenant key with its scope.",
    resolve: (_r, _a, ctx) =>
      ctx.actor.kind === "tenant"
        ? { kind: "tenant", tenantId: ctx.actor.tenantId, scope: ctx.actor.scope, readOnly: ctx.actor.readOnly }
        : { kind: ctx.actor.kind, tenantId: null, scope: null, readOnly: false },
  }),
  tenant: t.prismaField({
    type: "Tenant",
    nullable: true,
    description: "A tenant by id (operator), or the caller's own tenant (tenant key, id ignored when equal).",
    args: { id: t.arg.id({ required: true, description: "tn_ id." }) },
    resolve: (query, _r, args, ctx) => {
      if (ctx.actor.kind === "panel" || (ctx.actor.kind === "tenant" && ctx.actor.tenantId !== String(args.id))) return null;
      return ctx.db.prisma.tenant.findUnique({ ...query, where: { id: String(args.id) } });
    },
  }),
  tenants: t.prismaField({
    type: ["Tenant"],
    description: "Every tenant, newest last (operator).",
    authScopes: { operator: true },
    args: { limit: t.arg.int({ required: false, defaultValue: 100, description: "At most this many." }) },
    resolve: (query, _r, args, ctx) => ctx.db.prisma.tenant.findMany({ ...query, orderBy: { id: "asc" }, take: Math.min(args.limit ?? 100, 500) }),
  }),
}));
