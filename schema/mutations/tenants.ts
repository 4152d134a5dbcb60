// Operator mutations on tenants and their keys (service-contract §2; names are fixed).
import { createApiKey } from "../../core/tenants/create-api-key.ts";
import { createTenant } from "../../core/tenants/create-tenant.ts";
import { revokeApiKey } from "../../core/tenants/revoke-api-key.ts";
import { setTenantFlag, type TenantFlag } from "../../core/tenants/set-tenant-flag.ts";
import { setTenantRateLimits } from "../../core/tenants/set-tenant-rate-limits.ts";
import { z } from "zod";
import { builder } from "../builder.ts";
import { KeyScopeEnum, TenantModeEnum } from "../types/enums.ts";
import { CreatedApiKey } from "../types/tenant.ts";

const operator = { operator: true } as const;

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
    description: "Create an API key; its clear text is returned once.",
    authScopes: operator,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      scope: t.arg({ type: KeyScopeEnum, required: true, description: "READ or WRITE." }),
    },
    resolve: (_root, args, ctx) => createApiKey(ctx.db.prisma, { tenantId: String(args.tenantId), scope: args.scope }),
  }),
  revokeApiKey: t.prismaField({
    type: "ApiKey",
    description: "Revoke an API key; it answers 401 from now on.",
    authScopes: operator,
    args: { id: t.arg.id({ required: true, description: "key_ id." }) },
    resolve: (_q, _root, args, ctx) => revokeApiKey(ctx.runtime, ctx.runtime.wallClock, { id: String(args.id) }),
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
