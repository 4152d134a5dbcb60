import { getPayment } from "../../core/payments/get-payment.ts";
import { paymentDetail, paymentRow, type PaymentForRow } from "../../core/payments/payment-payload.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";

/** A payment as the contract shows it. */
export const PaymentRowRef = builder.objectRef<PaymentForRow>("PaymentRow").implement({
  description: "A payment (charge attempt) of the tenant.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "pay_ id." }),
    status: t.string({ description: "processing, paid, failed, refunded or chargedback.", resolve: (p) => paymentRow(p).status }),
    amountCents: t.exposeInt("amountCents", { description: "Charged amount in cents." }),
    payload: t.field({ type: "JSON", description: "The contract's payment row.", resolve: (p) => paymentRow(p) }),
  }),
});

type PaymentWithItems = Awaited<ReturnType<typeof getPayment>>;

const PaymentDetailRef = builder.objectRef<PaymentWithItems>("PaymentDetail").implement({
  description: "A payment with its items (plan, bump, interest, proration parts).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "pay_ id." }),
    payload: t.field({ type: "JSON", description: "The contract's payment detail (row plus items).", resolve: (p) => paymentDetail(p) }),
  }),
});

builder.queryFields((t) => ({
  payment: t.field({
    type: PaymentDetailRef,
    description: "One payment of the tenant with its items.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "pay_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
    },
    resolve: (_root, args, ctx) => getPayment(ctx.db.prisma, { tenantId: tenantIdFor(ctx, args.tenantId), paymentId: args.id }),
  }),
}));
