// The outbox: an event row written inside the caller's transaction, so it commits with the state
// change that caused it and nothing is sent before commit.
import type { Prisma } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";
import type { EventType } from "./event-types.ts";

export type Tx = Prisma.TransactionClient;

export interface NewEvent {
  tenantId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** Business time: the tenant's clock. */
  at: Date;
}

export async function recordEvent(tx: Tx, event: NewEvent): Promise<string> {
  const id = newId("event");
  await tx.event.create({
    data: { id, tenantId: event.tenantId, type: event.type, data: event.data as Prisma.InputJsonValue, createdAt: event.at },
  });
  return id;
}
