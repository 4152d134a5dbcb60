// Tenant mutations on customers: updateCustomer and updateCustomerEmail. Both need write scope and
// stay allowed in read-only mode (customer edits are exempt from account_locked).
import { updateCustomer, type UpdateCustomerResult } from "../../core/customers/update-customer.ts";
import { updateCustomerEmail } from "../../core/customers/update-customer-email.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";

const actorOf = (ctx: Context) =>
  ctx.actor.kind === "tenant" ? (ctx.actor.user ? `user:${ctx.actor.user.id}` : `key:${ctx.actor.keyId}`) : ctx.actor.kind;

const CustomerUpdateResult = builder.objectRef<UpdateCustomerResult>("CustomerUpdateResult").implement({
  description: "Result of a customer edit.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The name now on record." }),
    email: t.exposeString("email", { description: "The e-mail now on record." }),
    phone: t.exposeString("phone", { description: "The mobile now on record (E.164)." }),
    notice: t.exposeString("notice", { nullable: true, description: "Non-fatal warning: the gateway sync failed (the local change stands)." }),
  }),
});

const CustomerEmailResult = builder.objectRef<{ email: string; notice: string | null }>("CustomerEmailResult").implement({
  description: "Result of an e-mail change.",
  fields: (t) => ({
    email: t.exposeString("email", { description: "The e-mail now on record." }),
    notice: t.exposeString("notice", { nullable: true, description: "Non-fatal warning, e.g. a failed gateway sync." }),
  }),
});

builder.mutationFields((t) => ({
  updateCustomer: t.field({
    type: CustomerUpdateResult,
    description:
      "Edit a customer's name, e-mail and mobile (null or absent = untouched). The record must end with a valid mobile. " +
      "doc and externalId are not editable. Syncs the gateways and writes an audit-log row. Needs write scope; allowed in read-only mode.",
    authScopes: { write: true },
    args: {
      externalId: t.arg.string({ required: true, description: "The tenant's key for the customer (not editable)." }),
      name: t.arg.string({ required: false, description: "New full name, 2 to 200 characters." }),
      email: t.arg.string({ required: false, description: "New e-mail, unique in the tenant." }),
      phone: t.arg.string({ required: false, description: "New mobile, E.164; a Brazilian number without + becomes +55…" }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const now = (await clockFor(ctx, tenantId)).now();
      return updateCustomer(ctx.runtime, {
        tenantId,
        externalId: args.externalId,
        name: args.name,
        email: args.email,
        phone: args.phone,
        actor: actorOf(ctx),
        now,
      });
    },
  }),
  updateCustomerEmail: t.field({
    type: CustomerEmailResult,
    description: "Change a customer's e-mail (unique in the tenant). Syncs the gateways and writes an audit-log row. Needs write scope; allowed in read-only mode.",
    authScopes: { write: true },
    args: {
      externalId: t.arg.string({ required: true, description: "The tenant's key for the customer." }),
      email: t.arg.string({ required: false, description: "New e-mail." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const now = (await clockFor(ctx, tenantId)).now();
      return updateCustomerEmail(ctx.runtime, { tenantId, externalId: args.externalId, email: args.email, actor: actorOf(ctx), now });
    },
  }),
}));
