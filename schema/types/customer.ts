// Customer: a customer of a tenant, with its subscriptions, payments, orders and grants.
import { findCustomer } from "../../core/customers/find-customer.ts";
import { listCustomerPayments } from "../../core/customers/list-customer-payments.ts";
import { listCustomerSubscriptions } from "../../core/customers/list-customer-subscriptions.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection, forwardOnly, pageToConnection } from "./page.ts";
import { PaymentRef } from "./payment.ts";
import { SubscriptionRef } from "./subscription.ts";

export const CustomerRef = builder.prismaObject("Customer", {
  description: "A customer of a tenant, matched to the tenant's system by externalId.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "cus_ id." }),
    externalId: t.exposeString("externalId", { description: "The tenant's own key for this customer." }),
    email: t.exposeString("email", { description: "E-mail, unique within the tenant." }),
    name: t.exposeString("name", { description: "Full name." }),
    phone: t.exposeString("phone", { nullable: true, description: "Mobile, E.164; null for an old customer who never gave one." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant (wall clock)." }),
    subscriptions: t.relation("subscriptions", { query: { orderBy: { id: "asc" } }, description: "Every subscription of the customer, canceled included, in id order." }),
    orders: t.relation("orders", { query: { orderBy: { id: "asc" } }, description: "The customer's one-time orders, in id order." }),
    payments: t.connection(
      {
        type: PaymentRef,
        description: "The customer's payments, recurring and one-time, in id order (keyset).",
        select: { tenantId: true },
        resolve: (c, args, ctx) =>
          keysetConnection("payment", args, (id, take) =>
            ctx.db.prisma.payment.findMany({ where: { tenantId: c.tenantId, customerId: c.id, ...(id ? { id } : {}) }, orderBy: { id: "asc" }, take }),
          ),
      },
      { name: "CustomerPaymentPageConnection", description: "A page of the customer's payments." },
      { name: "CustomerPaymentPageEdge", description: "One payment of the page." },
    ),
  }),
});

const CustomerSubscriptions = builder
  .objectRef<Awaited<ReturnType<typeof listCustomerSubscriptions>>>("CustomerSubscriptions")
  .implement({
    description: "A customer's subscriptions, canceled included.",
    fields: (t) => ({
      customerId: t.string({ description: "cus_ id.", resolve: (r) => r.customer.id }),
      customer: t.field({ type: CustomerRef, description: "The customer.", resolve: (r) => r.customer }),
      subscriptions: t.field({ type: [SubscriptionRef], description: "Every subscription, in id order.", resolve: (r) => r.subscriptions }),
    }),
  });

builder.queryFields((t) => ({
  customer: t.prismaField({
    type: "Customer",
    description: "One customer of the tenant by externalId. Unknown and foreign customers are the same not_found error.",
    authScopes: { tenant: true, operator: true },
    args: {
      externalId: t.arg.string({ required: true, description: "The tenant's key for the customer." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (query, _root, args, ctx) => findCustomer(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), externalId: args.externalId }, query),
  }),
  customerSubscriptions: t.field({
    type: CustomerSubscriptions,
    description: "Every subscription of the customer with this externalId.",
    authScopes: { tenant: true, operator: true },
    args: {
      externalId: t.arg.string({ required: true, description: "The tenant's key for the customer." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (_root, args, ctx) => listCustomerSubscriptions(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), externalId: args.externalId }),
  }),
  customerPayments: t.connection(
    {
      type: PaymentRef,
      description: "The customer's payments, recurring and one-time, in id order (keyset).",
      authScopes: { tenant: true, operator: true },
      args: {
        externalId: t.arg.string({ required: true, description: "The tenant's key for the customer." }),
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
      },
      resolve: async (_root, args, ctx) => {
        forwardOnly(args);
        const page = await listCustomerPayments(ctx.db.prisma, {
          tenantId: tenantIdFor(ctx, args.tenantId),
          externalId: args.externalId,
          limit: args.first,
          after: args.after,
        });
        return pageToConnection(page);
      },
    },
    { name: "CustomerPaymentsConnection", description: "A page of payments." },
    { name: "CustomerPaymentsEdge", description: "One payment of the page." },
  ),
}));
