// GET /v1/subscriptions/{id}/payment-link as a query: the public link to pay the open invoice.
import { getSubscriptionPaymentLink } from "../../core/links/get-subscription-payment-link.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { PaymentLinkRef } from "./payment-link.ts";

builder.queryFields((t) => ({
  subscriptionPaymentLink: t.field({
    type: PaymentLinkRef,
    description: "A fresh public link (and the Pix QR when the offer takes Pix) to pay the subscription's open invoice. 409 when none is open.",
    authScopes: { tenant: true, operator: true },
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_root, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return getSubscriptionPaymentLink(ctx.runtime, { tenantId, subscriptionId: args.id, now: clock.now() });
    },
  }),
}));
