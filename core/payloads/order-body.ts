// The contract's order event data (order.* events, payment.refunded of an order) from the camelCase
// fields of the GraphQL OrderEventData type. Pure: the core's webhook data and the REST facade's
// GET /v1/events serializer both call it.
import { lastPaymentBody, type LastPaymentFields } from "./payment-body.ts";
import { trackingBody, type TrackingFields } from "./subscription-body.ts";

export interface OrderEventFields {
  orderId: string;
  status: string;
  customer: { id: string; email: string; externalId: string };
  planId: string;
  planName: string;
  quantity: number;
  amountCents: number;
  unitAmountCents: number;
  currency: string;
  paidAt: string | null;
  targetSubscriptionId: string | null;
  entitlements: unknown;
  grantDays: number;
  payment: LastPaymentFields | null;
  tracking: TrackingFields | null;
}

export function orderEventBody(o: OrderEventFields) {
  return {
    order_id: o.orderId,
    status: o.status.toLowerCase(),
    customer: { id: o.customer.id, email: o.customer.email, external_id: o.customer.externalId },
    plan_id: o.planId,
    plan_name: o.planName,
    quantity: o.quantity,
    amount_cents: o.amountCents,
    unit_amount_cents: o.unitAmountCents,
    currency: o.currency,
    paid_at: o.paidAt,
    target_subscription_id: o.targetSubscriptionId,
    entitlements: (o.entitlements ?? {}) as Record<string, unknown>,
    grant_days: o.grantDays,
    payment: o.payment ? lastPaymentBody(o.payment) : null,
    tracking: o.tracking ? trackingBody(o.tracking) : null,
  };
}
