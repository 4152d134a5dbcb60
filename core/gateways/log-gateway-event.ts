// Every adapter call becomes one gateway event row, written autocommit right after the call so the
// log survives a rollback of the business transaction. Only codes, ids and amounts: no personal data.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";
import { queueCredentialsAlarms, refusesCredentials } from "./queue-credentials-alarms.ts";

export type GatewayOutcome = "approved" | "declined" | "error" | "pending" | "refunded" | "unknown";

export interface GatewayEventInput {
  tenantId: string;
  provider: string;
  kind: string;
  outcome: GatewayOutcome;
  /** Our own code of the charge: inv_ or ord_. */
  code: string;
  subscriptionId?: string | null;
  paymentId?: string | null;
  orderId?: string | null;
  gatewayId?: string;
  detailCode?: string;
  httpStatus?: number;
  amountCents?: number;
  at: Date;
  /** The account called (not stored on the row): names it in the alarm when the provider refuses its credentials. */
  gatewayAccountId?: string;
}

export async function logGatewayEvent(prisma: PrismaClient, e: GatewayEventInput): Promise<void> {
  if (!refusesCredentials(e)) {
    await prisma.gatewayEvent.create({ data: gatewayEventData(e) });
    return;
  }
  // Refused credentials: the vendor's alarm commits with the row that records the refusal.
  await prisma.$transaction(async (tx) => {
    await tx.gatewayEvent.create({ data: gatewayEventData(e) });
    await queueCredentialsAlarms(tx, [e]);
  });
}

/** Rows collected during a batch, written in one statement. */
export async function logGatewayEvents(prisma: PrismaClient, events: GatewayEventInput[]): Promise<void> {
  if (events.length === 0) return;
  if (!events.some(refusesCredentials)) {
    await prisma.gatewayEvent.createMany({ data: events.map(gatewayEventData) });
    return;
  }
  await prisma.$transaction(async (tx) => {
    await tx.gatewayEvent.createMany({ data: events.map(gatewayEventData) });
    await queueCredentialsAlarms(tx, events);
  });
}

function gatewayEventData(e: GatewayEventInput) {
  return {
    id: newId("gatewayEvent"),
    tenantId: e.tenantId,
    subscriptionId: e.subscriptionId ?? null,
    paymentId: e.paymentId ?? null,
    orderId: e.orderId ?? null,
    provider: e.provider,
    kind: e.kind,
    outcome: e.outcome,
    code: e.code,
    gatewayId: e.gatewayId ?? "",
    detailCode: e.detailCode ?? "",
    httpStatus: e.httpStatus ?? 200,
    amountCents: e.amountCents ?? 0,
    createdAt: e.at,
  };
}

/** A notice the gateway sent about one of our payments (Pix paid, chargeback): the row names the payment's own codes. */
export function paymentNotice(
  payment: { tenantId: string; provider: string; id: string; invoiceId: string | null; orderId: string | null; subscriptionId: string | null; amountCents: number },
  notice: { kind: string; outcome: GatewayOutcome; gatewayId: string; at: Date },
): GatewayEventInput {
  return {
    tenantId: payment.tenantId,
    provider: payment.provider,
    code: payment.invoiceId ?? payment.orderId ?? payment.id,
    subscriptionId: payment.subscriptionId,
    paymentId: payment.id,
    amountCents: payment.amountCents,
    ...notice,
  };
}
