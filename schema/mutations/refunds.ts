// refundPayment: POST /v1/payments/{id}/refund. Write scope; allowed in read-only mode (money back
// to a customer is never blocked).
import { refundPayment, type RefundAnswer } from "../../core/refunds/refund-payment.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";

const RefundAnswerRef = builder.objectRef<RefundAnswer>("RefundAnswer").implement({
  description: "Answer of a refund the service accepted.",
  fields: (t) => ({
    level: t.exposeString("level", { description: "success (the gateway confirmed) or warning (sent, confirmation pending: refund_in_flight)." }),
    message: t.exposeString("message", { description: "What happened, in pt-BR." }),
  }),
});

builder.mutationFields((t) => ({
  refundPayment: t.field({
    type: RefundAnswerRef,
    description:
      "Refund a paid payment, total or partial, never twice. revoke: subscription (invoice payments), grant (order payments) or none; default on a total refund: the payment's access, on a partial one: none. Refusals: 422 {level:'error', message}; a refund of a prepaid period not yet started: 422 {error, requires_confirmation:'runway'} until confirmRunway.",
    authScopes: { write: true },
    args: {
      id: t.arg.string({ required: true, description: "pay_ id." }),
      amountCents: t.arg.int({ required: true, description: "Cents to refund: 1 up to the refundable balance." }),
      reason: t.arg.string({ required: false, description: "Why (required, at most 300 characters)." }),
      revoke: t.arg.string({ required: false, description: "subscription, grant or none." }),
      confirmRunway: t.arg.boolean({ required: false, description: "Confirm a refund that hits an invoice that funded prepaid runway." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return refundPayment(ctx.runtime, {
        tenantId,
        paymentId: args.id,
        amountCents: args.amountCents,
        reason: args.reason,
        revoke: args.revoke,
        confirmRunway: args.confirmRunway ?? false,
        now: clock.now(),
      });
    },
  }),
}));
