// Operator: switch a tenant between SANDBOX and LIVE (core/tenants/set-tenant-mode.ts).
import { setTenantMode } from "../../../core/tenants/set-tenant-mode.ts";
import { builder } from "../../builder.ts";
import { TenantModeEnum } from "../../types/enums.ts";

builder.mutationField("setTenantMode", (t) =>
  t.prismaField({
    type: "Tenant",
    description:
      "Switch the tenant to LIVE or SANDBOX. LIVE is refused (seller_incomplete) until the profile has legalName and cnpj. LIVE reads the wall clock; back in SANDBOX the tenant's clock restarts at the wall clock's instant.",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      mode: t.arg({ type: TenantModeEnum, required: true, description: "LIVE or SANDBOX." }),
    },
    resolve: (_q, _root, args, ctx) => setTenantMode(ctx.runtime, { tenantId: String(args.tenantId), mode: args.mode }),
  }),
);
