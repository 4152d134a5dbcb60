// Operator mutations on tenants and their keys (service-contract §2; names are fixed). The key
// mutations are also the panel's: a member who manages keys acts on their own tenant.
import { createApiKey } from "../../core/tenants/create-api-key.ts";
import { createTenant } from "../../core/tenants/create-tenant.ts";
import { revokeApiKey } from "../../core/tenants/revoke-api-key.ts";
import { rollApiKey } from "../../core/tenants/roll-api-key.ts";
import { setTenantFlag, type TenantFlag } from "../../core/tenants/set-tenant-flag.ts";
import { setTenantRateLimits } from "../../core/tenants/set-tenant-rate-limits.ts";
import { z } from "zod";
import { builder } from "../builder.ts";
import { KeyScopeEnum, TenantModeEnum } from "../types/enums.ts";
import { CreatedApiKey, RolledApiKey } from "../types/tenant.ts";
import type { Context } from "../context.ts";
import { tenantIdFor } from "../tenant-scope.ts";

const operator = { operator: true } as const;
/** Key management: the operator for any tenant, a panel member whose role manages keys for their own. */
const operatorOrDeveloper = { operator: true, developer: true } as const;

/** The panel member making the call, if one is. */
const memberId = (ctx: Context): string | null => (ctx.actor.kind === "tenant" ? (ctx.actor.user?.id ?? null) : null);
/** A member acts on their own tenant's keys; the operator on any. */
const ownTenant = (ctx: Context): string | null => (ctx.actor.kind === "tenant" ? ctx.actor.tenantId : null);

builder.mutationFields((t) => ({
  createTenant: t.prismaField({
    type: "Tenant",
    description: "Create a tenant. SANDBOX tenants get their own clock, starting now.",
    authScopes: operator,
    args: {
      name: t.arg.string({ required: true, description: "Display name.", validate: z.string().trim().min(1).max(200) }),
      mode: t.arg({ type: TenantModeEnum, required: true, description: "LIVE or SANDBOX." }),
    },
    resolve: (_q, _root, args, ctx) => createTenant(ctx.db.prisma, ctx.runtime.wallClock, args),
  }),
  createApiKey: t.field({
    type: CreatedApiKey,
    description: "Create an API key; its clear text is returned once. The operator names the tenant; a panel member (owner, admin, developer) makes one for their own tenant and names it.",
    authScopes: operatorOrDeveloper,
    args: {
      tenantId: t.arg.id({ required: false, description: "tn_ id (required of the operator; a member's own tenant otherwise)." }),
      scope: t.arg({ type: KeyScopeEnum, required: true, description: "READ or WRITE." }),
      name: t.arg.string({ required: false, description: "What the team calls the key (up to 100 characters; required of a member).", validate: z.string().max(1000).nullish() }),
    },
    resolve: (_root, args, ctx) =>
      createApiKey(ctx.db.prisma, {
        tenantId: tenantIdFor(ctx, args.tenantId == null ? null : String(args.tenantId)),
        scope: args.scope,
        name: args.name,
        createdBy: memberId(ctx),
      }),
  }),
  revokeApiKey: t.prismaField({
    type: "ApiKey",
    description: "Revoke an API key; it answers 401 from now on. A panel member revokes only their own tenant's keys.",
    authScopes: operatorOrDeveloper,
    args: { id: t.arg.id({ required: true, description: "key_ id." }) },
    resolve: (_q, _root, args, ctx) => revokeApiKey(ctx.runtime, ctx.runtime.wallClock, { id: String(args.id), tenantId: ownTenant(ctx) }),
  }),
  rollApiKey: t.field({
    type: RolledApiKey,
    description: "Roll an API key: a new key with the same name and scope (clear text returned once); the old key keeps working for overlapHours (0 to 168) and answers 401 after.",
    authScopes: operatorOrDeveloper,
    args: {
      id: t.arg.id({ required: true, description: "key_ id of the key to replace." }),
      overlapHours: t.arg.int({ required: true, description: "Hours the old key keeps working, 0 to 168 (7 days)." }),
    },
    resolve: (_root, args, ctx) => rollApiKey(ctx.runtime, { id: String(args.id), tenantId: ownTenant(ctx), overlapHours: args.overlapHours, createdBy: memberId(ctx) }),
  }),
  ...flagMutation(t, "setTenantReadOnly", "readOnly", "readOnly", "Put the account in read-only mode (write routes answer account_locked, except refund, cancel and customer edits)."),
  ...flagMutation(t, "setTenantSuspended", "suspended", "suspended", "Suspend the tenant: its keys answer 401."),
  ...flagMutation(t, "setRenewalsPaused", "renewalsPaused", "paused", "Pause renewals: the billing run skips charging this tenant."),
  setTenantRateLimits: t.prismaField({
    type: "Tenant",
    description: "Per-key request limits of a tenant, per second (burst 2x). Null restores the default (100 reads, 20 writes).",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      readPerSecond: t.arg.int({ required: false, description: "Reads per second per key.", validate: z.number().int().min(1).max(100_000).nullish() }),
      writePerSecond: t.arg.int({ required: false, description: "Writes per second per key.", validate: z.number().int().min(1).max(100_000).nullish() }),
    },
    resolve: (_q, _root, args, ctx) =>
      setTenantRateLimits(ctx.runtime, {
        tenantId: String(args.tenantId),
        readPerSecond: args.readPerSecond ?? null,
        writePerSecond: args.writePerSecond ?? null,
      }),
  }),
}));

// The three flag mutations differ only in the flag and argument names.
function flagMutation(
  t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0],
  name: string,
  flag: TenantFlag,
  argName: string,
  description: string,
) {
  return {
    [name]: t.prismaField({
      type: "Tenant",
      description,
      authScopes: operator,
      args: {
        tenantId: t.arg.id({ required: true, description: "tn_ id." }),
        [argName]: t.arg.boolean({ required: true, description: "New value." }),
      },
      resolve: (_q, _root, args, ctx) =>
        setTenantFlag(ctx.runtime, { tenantId: String(args.tenantId), flag, value: Boolean((args as Record<string, unknown>)[argName]) }),
    }),
  };
}
