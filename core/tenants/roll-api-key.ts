// Roll a key: a successor with the same name and scope, while the old key keeps working for a chosen
// overlap (0 to 7 days) and is refused after it. The successor's clear key is returned once.
import { AppError, notFound } from "../shared/errors.ts";
import type { Runtime } from "../runtime.ts";
import { insertApiKey, type CreatedKey } from "./create-api-key.ts";

export const MAX_ROLL_OVERLAP_HOURS = 7 * 24;

export interface RollApiKeyInput {
  id: string;
  /** The member's tenant; absent for the operator. */
  tenantId?: string | null;
  overlapHours: number;
  createdBy?: string | null;
}

export async function rollApiKey(runtime: Runtime, input: RollApiKeyInput): Promise<CreatedKey & { tenantId: string; rolled: { id: string; expiresAt: Date } }> {
  if (!Number.isInteger(input.overlapHours) || input.overlapHours < 0 || input.overlapHours > MAX_ROLL_OVERLAP_HOURS) {
    throw new AppError("invalid_argument", { error: "a sobreposição vai de 0 a 168 horas (7 dias)" });
  }
  // Expiry is checked against the wall clock by authentication, so it is set from the wall clock.
  const now = runtime.wallClock.now();
  const expiresAt = new Date(now.getTime() + input.overlapHours * 3_600_000);
  const result = await runtime.db.prisma.$transaction(async (tx) => {
    const old = await tx.apiKey.findUnique({ where: { id: input.id }, include: { tenant: { select: { mode: true } } } });
    if (!old || (input.tenantId && old.tenantId !== input.tenantId)) throw notFound("api key");
    if (old.revokedAt) throw new AppError("conflict", { error: "esta chave foi revogada" });
    if (old.expiresAt) throw new AppError("conflict", { error: "esta chave já foi substituída" });
    // The guard above read the row; the conditional update makes two concurrent rolls make one successor.
    const claimed = await tx.apiKey.updateMany({ where: { id: old.id, expiresAt: null, revokedAt: null }, data: { expiresAt } });
    if (claimed.count !== 1) throw new AppError("conflict", { error: "esta chave já foi substituída" });
    const next = await insertApiKey(tx, { tenantId: old.tenantId, mode: old.tenant.mode, scope: old.scope, name: old.name, createdBy: input.createdBy ?? null });
    return { ...next, tenantId: old.tenantId };
  });
  await runtime.keyCache.invalidateTenant(result.tenantId);
  return { ...result, rolled: { id: input.id, expiresAt } };
}
