// How a tenant's customer e-mails go out (Tenant.emailSettings, updateTenantEmailSettings).
import type { TenantEmailSettings } from "../../core/tenants/update-tenant-email-settings.ts";
import { builder } from "../builder.ts";

export const TenantEmailSettingsRef = builder.objectRef<TenantEmailSettings>("TenantEmailSettings").implement({
  description: "How the tenant's customer e-mails go out.",
  fields: (t) => ({
    senderName: t.exposeString("senderName", { description: "The sender's display name customers see (the tenant's name unless set)." }),
    senderNameIsDefault: t.exposeBoolean("senderNameIsDefault", { description: "True when no name was set and the tenant's name is used." }),
    replyTo: t.exposeString("replyTo", { nullable: true, description: "Where customers' replies go; null: no Reply-To header." }),
    customerEmailsOff: t.exposeStringList("customerEmailsOff", {
      description: "Customer templates turned off (receipt, pix_charge_issued, payment_declined, trial_ending, subscription_suspended, subscription_canceled, refund_issued).",
    }),
  }),
});
