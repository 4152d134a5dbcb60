// A member's own company settings (the panel): every member reads them; owners and admins (`teamAdmin`)
// change the profile shown on the hosted pages, the customer e-mail settings and the alarm contacts. The
// tenant is the actor's. Same use cases and rules as the operator's mutations beside this file.
import { z } from "zod";
import { updateTenantContacts } from "../../../core/tenants/update-tenant-contacts.ts";
import { updateTenantEmailSettings } from "../../../core/tenants/update-tenant-email-settings.ts";
import { updateTenantProfile } from "../../../core/tenants/update-tenant-profile.ts";
import { builder } from "../../builder.ts";
import { tenantIdFor } from "../../tenant-scope.ts";
import { TenantEmailSettingsRef } from "../../types/tenant-email-settings.ts";
import { TenantEmailSettingsInput } from "./update-tenant-email-settings.ts";
import { TenantProfileInput } from "./update-tenant-profile.ts";

const teamAdmin = { teamAdmin: true } as const;

builder.queryField("ownTenant", (t) =>
  t.prismaField({
    type: "Tenant",
    description: "The signed-in member's tenant: its profile, e-mail settings, read-only mode and sandbox clock.",
    authScopes: { $all: { user: true, tenant: true } },
    resolve: (query, _r, _a, ctx) => ctx.db.prisma.tenant.findUniqueOrThrow({ ...query, where: { id: tenantIdFor(ctx) } }),
  }),
);

builder.mutationFields((t) => ({
  updateOwnTenantProfile: t.prismaField({
    type: "Tenant",
    description: "An owner or admin sets their tenant's seller identity on the hosted pages (the whole profile; a field left out or empty is cleared). A LIVE tenant must keep legalName and cnpj.",
    authScopes: teamAdmin,
    args: { input: t.arg({ type: TenantProfileInput, required: true, description: "The whole profile." }) },
    resolve: (_q, _r, args, ctx) => updateTenantProfile(ctx.runtime, { tenantId: tenantIdFor(ctx), profile: args.input }),
  }),
  updateOwnTenantEmailSettings: t.field({
    type: TenantEmailSettingsRef,
    description: "An owner or admin sets their tenant's sender name, reply-to and which customer e-mails are on. A bad address or an unknown template is invalid_argument.",
    authScopes: teamAdmin,
    args: { input: t.arg({ type: TenantEmailSettingsInput, required: true, description: "The settings to change; a field left out stays." }) },
    resolve: (_r, args, ctx) => updateTenantEmailSettings(ctx.runtime, { tenantId: tenantIdFor(ctx), ...args.input }),
  }),
  updateOwnTenantContacts: t.prismaField({
    type: "Tenant",
    description: "An owner or admin sets the addresses their team's alarms go to (at most 10; an empty list turns them off).",
    authScopes: teamAdmin,
    args: { emails: t.arg.stringList({ required: true, description: "E-mail addresses; replaces the current list.", validate: z.array(z.string().max(320)).max(50) }) },
    resolve: (_q, _r, args, ctx) => updateTenantContacts(ctx.runtime, { tenantId: tenantIdFor(ctx), emails: args.emails }),
  }),
}));
