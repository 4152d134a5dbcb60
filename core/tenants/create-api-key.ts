// A new API key, by the operator (any tenant) or a panel member (their own). Only its SHA-256 is
// stored; the clear key is returned once.
import type { KeyScope, Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { generateApiKey, keyHint } from "../auth/api-key-format.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { sha256Hex } from "../shared/secrets.ts";

export interface CreateApiKeyInput {
  tenantId: string;
  scope: KeyScope;
  /** Optional for the operator; a member names every key they make. */
  name?: string | null;
  /** The panel member making it; absent: the operator. */
  createdBy?: string | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  scope: KeyScope;
  name: string;
  hint: string;
}

export const KEY_NAME_MAX = 100;

/** The name as stored: trimmed, at most KEY_NAME_MAX characters, required of a member. */
export function keyName(name: string | null | undefined, byMember: boolean): string {
  const trimmed = (name ?? "").trim();
  if (byMember && !trimmed) throw new AppError("invalid_argument", { error: "dê um nome à chave" });
  if (trimmed.length > KEY_NAME_MAX) throw new AppError("invalid_argument", { error: `o nome da chave pode ter até ${KEY_NAME_MAX} caracteres` });
  return trimmed;
}

export async function createApiKey(prisma: PrismaClient, input: CreateApiKeyInput): Promise<CreatedKey> {
  const name = keyName(input.name, !!input.createdBy);
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } });
  if (!tenant) throw notFound("tenant");
  return insertApiKey(prisma, { tenantId: input.tenantId, mode: tenant.mode, scope: input.scope, name, createdBy: input.createdBy ?? null });
}

/** The row itself; roll-api-key.ts makes the successor in its own transaction with it. */
export async function insertApiKey(
  db: PrismaClient | Prisma.TransactionClient,
  k: { tenantId: string; mode: "LIVE" | "SANDBOX"; scope: KeyScope; name: string; createdBy: string | null },
): Promise<CreatedKey> {
  const key = generateApiKey(k.mode);
  const row = await db.apiKey.create({
    data: { id: newId("apiKey"), tenantId: k.tenantId, hash: sha256Hex(key), hint: keyHint(key), scope: k.scope, name: k.name, createdBy: k.createdBy },
  });
  return { id: row.id, key, scope: row.scope, name: row.name, hint: row.hint };
}
