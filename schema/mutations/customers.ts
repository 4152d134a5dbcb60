// Tenant mutations on customers.
import { updateCustomerEmail } from "../../core/customers/update-customer-email.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";

const CustomerEmailResult = builder.objectRef<{ email: string; notice: string | null }>("CustomerEmailResult").implement({
  description: "Result of an e-mail change.",
  fields: (t) => ({
    email: t.exposeString("email", { description: "The e-mail now on record." }),
    notice: t.exposeString("notice", { nullable: true, description: "Non-fatal warning, e.g. a failed gateway sync." }),
    payload: t.field({ type: "JSON", description: "REST body {email, notice}.", resolve: (r) => r }),
  }),
});

builder.mutationFields((t) => ({
  updateCustomerEmail: t.field({
    type: CustomerEmailResult,
    description: "Change a customer's e-mail (unique in the tenant). Needs write scope; allowed in read-only mode.",
    authScopes: { write: true },
    args: {
      externalId: t.arg.string({ required: true, description: "The tenant's key for the customer." }),
      email: t.arg.string({ required: false, description: "New e-mail." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: (_r, args, ctx) =>
      updateCustomerEmail(ctx.db.prisma, {
        tenantId: tenantIdFor(ctx, args.tenantId),
        externalId: args.externalId,
        email: args.email,
        actor: ctx.actor.kind === "operator" ? "operator" : `key:${ctx.actor.keyId}`,
      }),
  }),
}));
