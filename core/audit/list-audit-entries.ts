// A tenant's audit log, newest first, in keyset pages: filtered by actor (part of the e-mail or key
// name), action (exact) and a date range [from, to).
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { AppError } from "../shared/errors.ts";
import { keyset } from "../shared/pagination.ts";

export interface ListAuditEntriesInput {
  tenantId: string;
  actor?: string | null;
  action?: string | null;
  from?: Date | null;
  to?: Date | null;
  limit?: number | null;
  after?: string | null;
}

export async function listAuditEntries(prisma: PrismaClient, input: ListAuditEntriesInput) {
  const k = keyset({ limit: input.limit, after: input.after }, "audit");
  if (input.from && input.to && input.from >= input.to) throw new AppError("invalid_argument", { error: "o início do período precisa vir antes do fim" });
  const actor = input.actor?.trim();
  const action = input.action?.trim();
  const where: Prisma.AuditEntryWhereInput = {
    tenantId: input.tenantId,
    ...(actor ? { actorLabel: { contains: actor, mode: "insensitive" } } : {}),
    ...(action ? { action } : {}),
    ...(input.from || input.to ? { createdAt: { ...(input.from ? { gte: input.from } : {}), ...(input.to ? { lt: input.to } : {}) } } : {}),
    // Ids are monotonic ULIDs: newest first is id descending, and the cursor is the last id seen.
    ...(k.afterId ? { id: { lt: k.afterId } } : {}),
  };
  const rows = await prisma.auditEntry.findMany({ where, orderBy: { id: "desc" }, take: k.take });
  const entries = rows.slice(0, k.limit);
  return { entries, next: rows.length > k.limit ? entries[entries.length - 1]!.id : null };
}

