// GET /v1/orders/{id}/payment-link as a query: the Pix of a pending order, to resend to the customer.
import { getOrderPaymentLink } from "../../core/links/get-order-payment-link.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { PaymentLinkRef } from "./payment-link.ts";

builder.queryFields((t) => ({
  orderPaymentLink: t.field({
    type: PaymentLinkRef,
    description:
      "A public /pay link showing the Pix QR of a pending order (one-off purchase or renewal advance); an expired QR is reopened as the order's next Pix attempt. Never exposes the order id. 409 `pedido sem Pix pendente para reabrir` when there is no pending Pix.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "ord_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_root, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return getOrderPaymentLink(ctx.runtime, { tenantId, orderId: args.id, now: clock.now() });
    },
  }),
}));
