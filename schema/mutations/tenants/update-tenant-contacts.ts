// Operator: the vendor team's alarm addresses (core/tenants/update-tenant-contacts.ts).
import { updateTenantContacts } from "../../../core/tenants/update-tenant-contacts.ts";
import { builder } from "../../builder.ts";

builder.prismaObjectField("Tenant", "contactEmails", (t) =>
  t.exposeStringList("contactEmails", { description: "Where the vendor's alarms go (webhook endpoint failing, gateway credentials refused); empty: no alarm e-mail." }),
);

builder.mutationField("updateTenantContacts", (t) =>
  t.prismaField({
    type: "Tenant",
    description: "Set the tenant's contact addresses for the vendor's alarms (at most 10; an empty list turns them off).",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      emails: t.arg.stringList({ required: true, description: "E-mail addresses; replaces the current list." }),
    },
    resolve: (_q, _root, args, ctx) => updateTenantContacts(ctx.runtime, { tenantId: String(args.tenantId), emails: args.emails }),
  }),
);
