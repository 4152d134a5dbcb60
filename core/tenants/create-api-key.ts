// Operator: a new API key. Only its SHA-256 is stored; the clear key is returned once.
import type { KeyScope, PrismaClient } from "../../generated/prisma/client.ts";
import { generateApiKey, keyHint } from "../auth/api-key-format.ts";
import { notFound } from "../shared/errors.ts";
import { newId } from "../shared/ids.ts";
import { sha256Hex } from "../shared/secrets.ts";

export async function createApiKey(prisma: PrismaClient, input: { tenantId: string; scope: KeyScope }) {
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId }, select: { mode: true } });
  if (!tenant) throw notFound("tenant");
  const key = generateApiKey(tenant.mode);
  const row = await prisma.apiKey.create({
    data: { id: newId("apiKey"), tenantId: input.tenantId, hash: sha256Hex(key), hint: keyHint(key), scope: input.scope },
  });
  return { id: row.id, key, scope: row.scope };
}
