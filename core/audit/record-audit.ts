// One line of a tenant's audit log: who (a member, an API key or the operator), what (the mutation or
// action), on which record, when (wall clock) and from which address. Pass the transaction of the
// change when there is one, so the line and the change commit together.
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";

export type AuditActor =
  | { kind: "MEMBER"; id: string; email: string }
  | { kind: "API_KEY"; id: string; name: string; hint: string }
  | { kind: "OPERATOR" };

export interface AuditInput {
  tenantId: string;
  actor: AuditActor;
  /** The mutation or action name: createApiKey, revealWebhookSecret, ... */
  action: string;
  recordId?: string | null;
  /** The client address the service saw (never a client-set header unless TRUST_PROXY says so). */
  address?: string | null;
  /** Wall clock, also for sandbox tenants: the log tells when it really happened. */
  at: Date;
}

export const OPERATOR_LABEL = "operador";

/** How the log names an actor: the member's e-mail, the key's name and hint, or "operador". */
export function actorLabel(actor: AuditActor): string {
  if (actor.kind === "MEMBER") return actor.email;
  if (actor.kind === "API_KEY") return actor.name ? `${actor.name} (${actor.hint})` : actor.hint;
  return OPERATOR_LABEL;
}

export async function recordAudit(db: PrismaClient | Prisma.TransactionClient, input: AuditInput): Promise<{ id: string }> {
  const row = await db.auditEntry.create({
    data: {
      id: newId("audit"),
      tenantId: input.tenantId,
      actorKind: input.actor.kind,
      actorId: input.actor.kind === "OPERATOR" ? null : input.actor.id,
      actorLabel: actorLabel(input.actor).slice(0, 300),
      action: input.action.slice(0, 100),
      recordId: input.recordId?.slice(0, 100) ?? null,
      address: (input.address ?? "").slice(0, 100),
      createdAt: input.at,
    },
    select: { id: true },
  });
  return row;
}
