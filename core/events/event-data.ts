// The payload builders of event data: one per data shape of the contract (subscription payload,
// order event data, referral event data). Each loads its subject inside the caller's transaction,
// so the data is the state as it stands after the change that emits the event.
import type { Prisma } from "../../generated/prisma/client.ts";
import { orderEventBody } from "../payloads/order-body.ts";
import { paymentFields, lastPaymentPayload } from "../payloads/payment-payload.ts";
import { referralEventBody } from "../payloads/referral-body.ts";
import { subscriptionPayload, trackingFields } from "../payloads/subscription-payload.ts";
import { readSubscriptionDetails } from "../payloads/read-subscription-details.ts";
import type { Tx } from "../shared/tx.ts";

export type EventData = Record<string, unknown>;

/** subscription.* and invoice.* events (and payment.refunded of a subscription). */
export async function subscriptionEventData(tx: Tx, tenantId: string, subscriptionId: string): Promise<EventData> {
  const [sub] = await readSubscriptionDetails(tx, [subscriptionId]);
  if (!sub || sub.tenantId !== tenantId) throw new Error(`subscription ${subscriptionId} not found`);
  return subscriptionPayload(sub);
}

/** subscription.migration_link_issued ("data shape not shown"): the subscription payload plus the link. */
export async function migrationLinkEventData(
  tx: Tx,
  tenantId: string,
  subscriptionId: string,
  link: { url: string; offer_id: string; expires_at: string },
): Promise<EventData> {
  return { ...(await subscriptionEventData(tx, tenantId, subscriptionId)), migration_link: link };
}

/** order.* events (and payment.refunded of an order). entitlements and grant_days are raw, never times quantity. */
export async function orderEventData(tx: Tx, tenantId: string, orderId: string): Promise<EventData> {
  const order = await tx.order.findFirstOrThrow({
    where: { id: orderId, tenantId },
    include: { customer: { select: { id: true, email: true, externalId: true } } },
  });
  const [plan, offer, payment] = await Promise.all([
    tx.plan.findFirstOrThrow({ where: { id: order.planId, tenantId }, select: { name: true, entitlements: true } }),
    tx.offer.findFirstOrThrow({ where: { id: order.offerId, tenantId }, select: { grantDays: true } }),
    // The payment that settled the order; the latest attempt while none has.
    tx.payment.findFirst({ where: { tenantId, orderId }, orderBy: [{ paidAt: { sort: "desc", nulls: "last" } }, { id: "desc" }] }),
  ]);
  return orderData(order, plan, offer, payment);
}

type OrderRow = Prisma.OrderGetPayload<{ include: { customer: { select: { id: true; email: true; externalId: true } } } }>;

export function orderData(
  order: OrderRow,
  plan: { name: string; entitlements: Prisma.JsonValue },
  offer: { grantDays: number | null },
  payment: Parameters<typeof paymentFields>[0] | null,
): EventData {
  return orderEventBody({
    orderId: order.id,
    status: order.status,
    customer: order.customer,
    planId: order.planId,
    planName: plan.name,
    quantity: order.quantity,
    amountCents: order.amountCents,
    unitAmountCents: order.unitAmountCents,
    currency: order.currency,
    paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    targetSubscriptionId: order.targetSubscriptionId,
    entitlements: plan.entitlements ?? {},
    grantDays: offer.grantDays ?? 0,
    payment: payment ? paymentFields(payment) : null,
    tracking: trackingFields(order.tracking),
  });
}

/**
 * payment.refunded: the subscription payload (subscription payment) or the order event data (order
 * payment), as the contract says. In the subscription payload, last_payment is the refunded payment
 * (it names which one; GET /v1/payments/{id} has the amounts refunded).
 */
export async function refundEventData(tx: Tx, tenantId: string, refundId: string): Promise<EventData> {
  const refund = await tx.refund.findFirstOrThrow({ where: { id: refundId, tenantId }, include: { payment: true } });
  const p = refund.payment;
  if (p.orderId) return orderEventData(tx, tenantId, p.orderId);
  return { ...(await subscriptionEventData(tx, tenantId, p.subscriptionId!)), last_payment: lastPaymentPayload(p) };
}

/** referral.* events. The reward is the snapshot taken at creation, falling back to the program's. */
export async function referralEventData(tx: Tx, tenantId: string, referralId: string): Promise<EventData> {
  const referral = await tx.referral.findFirstOrThrow({ where: { id: referralId, tenantId } });
  const party = { id: true, email: true, name: true } as const;
  const [referrer, referred, program] = await Promise.all([
    tx.customer.findFirstOrThrow({ where: { id: referral.referrerCustomerId, tenantId }, select: party }),
    tx.customer.findFirstOrThrow({ where: { id: referral.referredCustomerId, tenantId }, select: party }),
    tx.referralProgram.findFirst({ where: { id: referral.programId, tenantId } }),
  ]);
  return referralData(referral, referrer, referred, program);
}

export function referralData(
  referral: { id: string; status: string; reward: Prisma.JsonValue },
  referrer: { id: string; email: string; name: string },
  referred: { id: string; email: string; name: string },
  program: { rewardKind: string; rewardValue: number; rewardCycles: number } | null,
): EventData {
  const snap = (referral.reward ?? null) as { kind?: string; value?: number; cycles?: number } | null;
  return referralEventBody({
    referralId: referral.id,
    status: referral.status,
    referrer,
    referred,
    reward: {
      kind: snap?.kind ?? program?.rewardKind ?? null,
      value: snap?.value ?? program?.rewardValue ?? null,
      cycles: snap?.cycles ?? program?.rewardCycles ?? null,
    },
  });
}
