import { builder } from "../builder.ts";
import { emailSettingsOf } from "../../core/tenants/update-tenant-email-settings.ts";
import { TenantModeEnum } from "./enums.ts";
import { tenantIdFor } from "../tenant-scope.ts";
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
    name: t.exposeString("name", { description: "What the team calls it; empty for keys made without a name." }),
    hint: t.exposeString("hint", { description: "First characters of the key, for recognition." }),
    scope: t.exposeString("scope", { description: "READ or WRITE." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant." }),
    createdByEmail: t.string({
      nullable: true,
      description: "E-mail of the panel member who made it; null: the operator.",
      select: { creator: { select: { email: true } } },
      resolve: (k) => k.creator?.email ?? null,
    }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true, description: "A recent authenticated use (written at most once a minute); null: never used." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "Set when rolled: refused from this instant." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When revoked, if revoked." }),
  }),
});

type Created = { id: string; key: string; scope: string; name: string; hint: string };

export const CreatedApiKey = builder.objectRef<Created>("CreatedApiKey").implement({
  description: "A new API key with its clear text, returned once.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "key_ id." }),
    key: t.exposeString("key", { description: "The clear key (bk_live_… or bk_test_…). Store it now; it is not shown again." }),
    scope: t.exposeString("scope", { description: "READ or WRITE." }),
    name: t.exposeString("name", { description: "The key's name." }),
    hint: t.exposeString("hint", { description: "First characters of the key, as lists show it." }),
  }),
});

export const RolledApiKey = builder.objectRef<Created & { rolled: { id: string; expiresAt: Date } }>("RolledApiKey").implement({
  description: "The successor of a rolled key, with its clear text (returned once), and when the old key stops working.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "key_ id of the new key." }),
    key: t.exposeString("key", { description: "The new clear key. Store it now; it is not shown again." }),
    scope: t.exposeString("scope", { description: "READ or WRITE (the old key's)." }),
    name: t.exposeString("name", { description: "The key's name (the old key's)." }),
    hint: t.exposeString("hint", { description: "First characters of the new key." }),
    rolledId: t.id({ description: "key_ id of the old key.", resolve: (r) => r.rolled.id }),
    rolledExpiresAt: t.field({ type: "DateTime", description: "When the old key stops working.", resolve: (r) => r.rolled.expiresAt }),
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

builder.queryFields((t) => ({
  apiKeys: t.prismaField({
    type: ["ApiKey"],
    description: "The tenant's API keys, newest first (revoked and rolled ones too). Tenant callers see their own; the operator names the tenant.",
    authScopes: { operator: true, tenant: true },
    args: { tenantId: t.arg.id({ required: false, description: "tn_ id (operator)." }) },
    resolve: (query, _r, args, ctx) =>
      ctx.db.prisma.apiKey.findMany({ ...query, where: { tenantId: tenantIdFor(ctx, args.tenantId == null ? null : String(args.tenantId)) }, orderBy: { id: "desc" }, take: 500 }),
  }),
}));
