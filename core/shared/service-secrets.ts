// Service-wide random secrets, kept in the database (service_secrets): every instance of one
// deployment shares the database but not a data directory, so a key made in a file on one host
// would differ on the next. Each is 32 random bytes, made once and then only read; none is derived
// from ADMIN_TOKEN. Loaded once when the runtime is created; never logged.
import { randomBytes } from "node:crypto";
import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";

export type SecretName = "campaign_link_key" | "pix_status_key";

export const SECRET_BYTES = 32;

/**
 * The secret `name`, made on first use. `onCreate` runs in the transaction that inserts it, so what
 * depends on the key (stored hashes) changes with it, atomically; a concurrent start that loses the
 * insert waits for that transaction and reads the winner's key.
 */
export async function ensureServiceSecret(
  prisma: PrismaClient,
  name: SecretName,
  onCreate?: (tx: Prisma.TransactionClient, key: Buffer) => Promise<void>,
): Promise<Buffer> {
  return prisma.$transaction(async (tx) => {
    const fresh = randomBytes(SECRET_BYTES);
    // INSERT … ON CONFLICT DO NOTHING: the count says whether this call made it.
    const { count } = await tx.serviceSecret.createMany({ data: [{ name, value: fresh.toString("hex") }], skipDuplicates: true });
    if (count === 1) {
      await onCreate?.(tx, fresh);
      return fresh;
    }
    const row = await tx.serviceSecret.findUniqueOrThrow({ where: { name } });
    return Buffer.from(row.value, "hex");
  }, { timeout: 120_000 }); // onCreate may re-hash many rows once
}
