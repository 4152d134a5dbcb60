// GatewayEvent: one call to a gateway on a charge, with what it answered. No personal data, no secret.
import { builder } from "../builder.ts";

export const GatewayEventRef = builder.prismaObject("GatewayEvent", {
  description: "What a gateway answered to one call about a charge (authorization, capture, Pix, refund).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "gev_ id." }),
    provider: t.exposeString("provider", { description: "Gateway provider (sandbox, stripe, ...)." }),
    kind: t.exposeString("kind", { description: "The call: charge_card, issue_pix, refund, save_payment_method, ..." }),
    outcome: t.exposeString("outcome", { description: "approved, declined, error, unknown, ..." }),
    code: t.exposeString("code", { description: "Our id the call was about (invoice, order or payment), the idempotency root." }),
    gatewayId: t.exposeString("gatewayId", { description: "The gateway's own id of the object (empty when none)." }),
    detailCode: t.exposeString("detailCode", { description: "The gateway's refusal or error code (empty when approved)." }),
    httpStatus: t.exposeInt("httpStatus", { description: "HTTP status the gateway answered." }),
    amountCents: t.exposeInt("amountCents", { description: "Amount of the call in cents." }),
    subscriptionId: t.exposeString("subscriptionId", { nullable: true, description: "sub_ id the call was for, if any." }),
    paymentId: t.exposeString("paymentId", { nullable: true, description: "pay_ id the call was for, if any." }),
    orderId: t.exposeString("orderId", { nullable: true, description: "ord_ id the call was for, if any." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the call was made (tenant clock)." }),
  }),
});
