// Every adapter call becomes one gateway event row, written autocommit right after the call so the
// log survives a rollback of the business transaction. Only codes, ids and amounts: no personal data.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { sqlExecute, type SqlClient } from "../../prisma/direct-sql.ts";
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
    await insertGatewayEvents(prisma, [e]);
    return;
  }
  // Refused credentials: the vendor's alarm commits with the row that records the refusal.
  await prisma.$transaction(async (tx) => {
    await insertGatewayEvents(tx, [e]);
    await queueCredentialsAlarms(tx, [e]);
  });
}

/** Rows collected during a batch, written in one statement. */
export async function logGatewayEvents(prisma: PrismaClient, events: GatewayEventInput[]): Promise<void> {
  if (events.length === 0) return;
  if (!events.some(refusesCredentials)) {
    await insertGatewayEvents(prisma, events);
    return;
  }
  await prisma.$transaction(async (tx) => {
    await insertGatewayEvents(tx, events);
    await queueCredentialsAlarms(tx, events);
  });
}

// Written after every gateway call, a whole batch's in one statement, without Prisma's compiler (prisma/direct-sql.ts).
const INSERT_GATEWAY_EVENTS = gatewayEventsInsert(1);

/** The insert of gateway event rows, its 14 arrays numbered from $`first`: to write them inside another statement (gatewayEventsValues). */
export function gatewayEventsInsert(first: number): string {
  const types = ["text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "int", "int", "timestamp(3)"];
  return `INSERT INTO gateway_events (id, tenant_id, subscription_id, payment_id, order_id, provider, kind, outcome, code, gateway_id, detail_code, http_status, amount_cents, created_at)
    SELECT * FROM unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(", ")})`;
}

/** The arrays gatewayEventsInsert takes, in its order. */
export function gatewayEventsValues(events: GatewayEventInput[]): unknown[] {
  const col = <T>(f: (e: GatewayEventInput) => T) => events.map(f);
  return [
    col(() => newId("gatewayEvent")),
    col((e) => e.tenantId),
    col((e) => e.subscriptionId ?? null),
    col((e) => e.paymentId ?? null),
    col((e) => e.orderId ?? null),
    col((e) => e.provider),
    col((e) => e.kind),
    col((e) => e.outcome),
    col((e) => e.code),
    col((e) => e.gatewayId ?? ""),
    col((e) => e.detailCode ?? ""),
    col((e) => e.httpStatus ?? 200),
    col((e) => e.amountCents ?? 0),
    col((e) => e.at.toISOString()),
  ];
}

async function insertGatewayEvents(client: SqlClient, events: GatewayEventInput[]): Promise<void> {
  await sqlExecute(client, INSERT_GATEWAY_EVENTS, gatewayEventsValues(events));
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
