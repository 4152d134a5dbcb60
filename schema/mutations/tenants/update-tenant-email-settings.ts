// Operator: the tenant's e-mail settings (core/tenants/update-tenant-email-settings.ts), read on Tenant.emailSettings.
import { updateTenantEmailSettings } from "../../../core/tenants/update-tenant-email-settings.ts";
import { builder } from "../../builder.ts";
import { TenantEmailSettingsRef } from "../../types/tenant-email-settings.ts";

export const TenantEmailSettingsInput = builder.inputType("TenantEmailSettingsInput", {
  description: "A field left out stays as it is.",
  fields: (t) => ({
    senderName: t.string({ required: false, description: "Display name of the sender (at most 100 characters); empty: the tenant's name." }),
    replyTo: t.string({ required: false, description: "Reply-To address; empty: none." }),
    customerEmailsOff: t.stringList({ required: false, description: "Customer templates to turn off; replaces the list (empty: all on)." }),
  }),
});

builder.mutationField("updateTenantEmailSettings", (t) =>
  t.field({
    type: TenantEmailSettingsRef,
    description: "Set the sender name, reply-to and which customer e-mails are on, for one tenant (operator). A bad address or an unknown template is invalid_argument.",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      input: t.arg({ type: TenantEmailSettingsInput, required: true, description: "The settings to change." }),
    },
    resolve: (_root, args, ctx) => updateTenantEmailSettings(ctx.runtime, { tenantId: String(args.tenantId), ...args.input }),
  }),
);
