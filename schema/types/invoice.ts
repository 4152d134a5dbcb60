// Invoice: what a subscription owes for one period (first payment, cycle or proration), and the
// tenant's invoices filtered by status, failure and due date (for dunning views).
import { InvoiceKindEnum, InvoiceStatusEnum } from "./enums.ts";
import { builder } from "../builder.ts";
import { PaymentRef } from "./payment.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection } from "./page.ts";

export const InvoiceRef = builder.prismaObject("Invoice", {
  description: "What a subscription owes for one period; paid by one of its payments.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "inv_ id." }),
    subscriptionId: t.exposeString("subscriptionId", { description: "sub_ id." }),
    subscription: t.relation("subscription", { description: "The subscription billed." }),
    kind: t.expose("kind", { type: InvoiceKindEnum, description: "FIRST, CYCLE or PRORATION." }),
    status: t.expose("status", { type: InvoiceStatusEnum, description: "OPEN, PAID, VOID or UNCOLLECTIBLE." }),
    periodStart: t.expose("periodStart", { type: "DateTime", description: "Start of the period billed." }),
    periodEnd: t.expose("periodEnd", { type: "DateTime", description: "End of the period billed." }),
    dueAt: t.expose("dueAt", { type: "DateTime", description: "When it falls due (tenant clock)." }),
    amountCents: t.exposeInt("amountCents", { description: "Amount due in cents, after discounts." }),
    discountCents: t.exposeInt("discountCents", { description: "Coupon discount applied, in cents." }),
    currency: t.exposeString("currency", { description: "Lowercase currency." }),
    attemptCount: t.exposeInt("attemptCount", { description: "Charge attempts made so far (dunning retries included)." }),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime", nullable: true, description: "Next dunning retry, while open." }),
    paidAt: t.expose("paidAt", { type: "DateTime", nullable: true, description: "When it was paid (tenant clock)." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation instant (wall clock)." }),
    payments: t.field({
      type: [PaymentRef],
      description: "Its payments (charge attempts), in id order.",
      select: { tenantId: true },
      resolve: (i, _a, ctx) => ctx.db.prisma.payment.findMany({ where: { tenantId: i.tenantId, invoiceId: i.id }, orderBy: { id: "asc" } }),
    }),
  }),
});

builder.queryFields((t) => ({
  invoices: t.connection(
    {
      type: InvoiceRef,
      description: "The tenant's invoices in id order (keyset), filtered. Failed invoices of a week: `failed: true, dueFrom, dueTo`.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        status: t.arg({ type: [InvoiceStatusEnum], required: false, description: "Only invoices in one of these statuses." }),
        failed: t.arg.boolean({ required: false, description: "true: only invoices with at least one refused charge attempt (FAILED payment)." }),
        subscriptionId: t.arg.string({ required: false, description: "Only this subscription's invoices." }),
        dueFrom: t.arg({ type: "DateTime", required: false, description: "Due at or after this instant." }),
        dueTo: t.arg({ type: "DateTime", required: false, description: "Due before this instant." }),
      },
      resolve: async (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        // Payments point to their invoice by id (no relation): the failed filter is a sub-select.
        const failedIds = args.failed
          ? (await ctx.db.prisma.payment.findMany({ where: { tenantId, status: "FAILED", invoiceId: { not: null } }, select: { invoiceId: true }, distinct: ["invoiceId"] })).map(
              (p) => p.invoiceId!,
            )
          : null;
        return keysetConnection("invoice", args, (id, take) =>
          ctx.db.prisma.invoice.findMany({
            where: {
              tenantId,
              ...(args.status?.length ? { status: { in: args.status } } : {}),
              ...(args.subscriptionId ? { subscriptionId: args.subscriptionId } : {}),
              ...(args.dueFrom || args.dueTo ? { dueAt: { ...(args.dueFrom ? { gte: args.dueFrom } : {}), ...(args.dueTo ? { lt: args.dueTo } : {}) } } : {}),
              ...(failedIds ? { id: { in: failedIds, ...(id ?? {}) } } : id ? { id } : {}),
            },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "InvoicesConnection", description: "A page of invoices." },
    { name: "InvoicesEdge", description: "One invoice of the page." },
  ),
}));
