// A row lock on one subscription for the rest of the transaction: settlements, duties and the
// subscription's own use cases never interleave on it.
import type { Tx } from "./tx.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export async function lockSubscription(tx: Tx, tenantId: string, subscriptionId: string): Promise<void> {
  await sqlQuery(tx, Prisma.sql`SELECT id FROM subscriptions WHERE id = ${subscriptionId} AND tenant_id = ${tenantId} FOR UPDATE`);
}
