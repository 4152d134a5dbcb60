// Operator: the seller's identity on the hosted pages (core/tenants/update-tenant-profile.ts).
import { updateTenantProfile } from "../../../core/tenants/update-tenant-profile.ts";
import { formatCnpj } from "../../../core/tenants/tenant-profile.rules.ts";
import { builder } from "../../builder.ts";

export const TenantProfileInput = builder.inputType("TenantProfileInput", {
  description: "The whole profile: a field left out or empty is cleared.",
  fields: (t) => ({
    legalName: t.string({ required: false, description: "Razão social." }),
    cnpj: t.string({ required: false, description: "CNPJ, with or without punctuation; its check digits must hold." }),
    supportEmail: t.string({ required: false, description: "Where shoppers write." }),
    supportPhone: t.string({ required: false, description: "A Brazilian phone number." }),
    address: t.string({ required: false, description: "The seller's address, one line." }),
    termsUrl: t.string({ required: false, description: "Terms of service (https for LIVE tenants)." }),
    privacyUrl: t.string({ required: false, description: "Privacy policy (https for LIVE tenants)." }),
  }),
});

builder.prismaObjectFields("Tenant", (t) => ({
  legalName: t.exposeString("legalName", { nullable: true, description: "Razão social shown on the hosted pages." }),
  cnpj: t.string({
    nullable: true,
    description: "CNPJ formatted 00.000.000/0000-00.",
    select: { cnpj: true },
    resolve: (tenant) => (tenant.cnpj ? formatCnpj(tenant.cnpj) : null),
  }),
  supportEmail: t.exposeString("supportEmail", { nullable: true, description: "Support e-mail shown to shoppers." }),
  supportPhone: t.exposeString("supportPhone", { nullable: true, description: "Support phone (E.164) shown to shoppers." }),
  address: t.exposeString("address", { nullable: true, description: "Seller's address." }),
  termsUrl: t.exposeString("termsUrl", { nullable: true, description: "Terms of service URL." }),
  privacyUrl: t.exposeString("privacyUrl", { nullable: true, description: "Privacy policy URL." }),
}));

builder.mutationField("updateTenantProfile", (t) =>
  t.prismaField({
    type: "Tenant",
    description: "Set the seller's identity shown on the hosted pages. A LIVE tenant must keep legalName and cnpj.",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      input: t.arg({ type: TenantProfileInput, required: true, description: "The whole profile; a field left out or empty is cleared." }),
    },
    resolve: (_q, _root, args, ctx) => updateTenantProfile(ctx.runtime, { tenantId: String(args.tenantId), profile: args.input }),
  }),
);
