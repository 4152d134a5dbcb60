// The checkout charges its card before anything of the sale is recorded (records are written once
// the money is settled). A crash between the two would leave money taken and nothing to show for it,
// so the charge is announced first: an intent row, autocommitted before the gateway call, deleted in
// the transaction that records the sale. An intent left behind is an orphan the reconcile job voids.
import type { Tx } from "../shared/tx.ts";
import { newId } from "../shared/ids.ts";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { fieldError } from "./checkout-guards.ts";
import { sqlExecute } from "../../prisma/direct-sql.ts";
import { gatewayEventsInsert, gatewayEventsValues, logGatewayEvents, type GatewayEventInput } from "../gateways/log-gateway-event.ts";

export interface ChargeIntent {
  tenantId: string;
  gatewayAccountId: string;
  idempotencyKey: string;
  reference: string;
  amountCents: number;
  /** Wall clock. */
  at: Date;
}

const ANNOUNCE = `INSERT INTO checkout_charge_intents (id, tenant_id, gateway_account_id, idempotency_key, reference, amount_cents, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`;
const ANNOUNCE_WITH_LOG = `WITH logged AS (${gatewayEventsInsert(8)}) ${ANNOUNCE}`;

/**
 * `log`: the gateway rows of the card step just before (the tokenize's), written by the same statement:
 * one round trip fewer per checkout, and still committed before the charge is made. Should the
 * statement fail, they are written on their own before the error goes on.
 */
export async function announceCharge(prisma: PrismaClient, intent: ChargeIntent, log: GatewayEventInput[] = []): Promise<void> {
  const values = [newId("checkoutIntent"), intent.tenantId, intent.gatewayAccountId, intent.idempotencyKey, intent.reference, intent.amountCents, intent.at];
  if (log.length === 0) {
    await sqlExecute(prisma, ANNOUNCE, values);
    return;
  }
  try {
    await sqlExecute(prisma, ANNOUNCE_WITH_LOG, [...values, ...gatewayEventsValues(log)]);
  } catch (err) {
    await logGatewayEvents(prisma, log).catch(() => undefined);
    throw err;
  }
}

/** No money moved (declined): the intent goes. */
export async function dropChargeIntent(prisma: PrismaClient, idempotencyKey: string): Promise<void> {
  await sqlExecute(prisma, `DELETE FROM checkout_charge_intents WHERE idempotency_key = $1`, [idempotencyKey]);
}

/**
 * Inside the recording transaction: the sale owns its charge. Refused when the reconcile job already
 * claimed the charge to give it back (the checkout outlived its in-flight window): the caller's
 * catch refunds with the same void key, so the money goes back once.
 */
export async function settleChargeIntent(tx: Tx, idempotencyKey: string): Promise<void> {
  const owned = await sqlExecute(tx, `DELETE FROM checkout_charge_intents WHERE idempotency_key = $1 AND voiding_at IS NULL`, [idempotencyKey]);
  if (owned !== 1) throw fieldError("card_number", "não foi possível confirmar o pagamento; tente novamente");
}

/** The key of the refund that gives an orphan checkout charge back (the request's own catch uses it too). */
export const voidKey = (idempotencyKey: string) => `${idempotencyKey}:void`;
