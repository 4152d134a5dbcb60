// At start, beside the gateway credentials: TOTP secrets sealed under an older key are sealed again
// under the current one, so the old key can be retired without locking anyone out of the panel.
// Secrets under a key this process does not hold are left as they are (another instance may hold it).
import type { Logger } from "pino";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { CredentialsVault } from "../gateways/credentials-vault.ts";
import { totpSealKey } from "./team-secrets.ts";

export async function rekeyTotpSecrets(prisma: PrismaClient, vault: CredentialsVault, logger: Logger): Promise<{ resealed: number; unreadable: number }> {
  const result = { resealed: 0, unreadable: 0 };
  if ((await prisma.tenantUser.count({ where: { totpSecret: { not: null } } })) === 0) return result;
  const current = vault.currentKeyId();
  const stale = await prisma.tenantUser.findMany({
    where: { totpSecret: { not: null }, NOT: { totpSecret: { startsWith: `v1.${current}.` } } },
    select: { id: true, totpSecret: true },
  });
  for (const row of stale) {
    const sealed = row.totpSecret!;
    if (!vault.holdsKeyOf(sealed)) {
      result.unreadable++;
      continue;
    }
    const resealed = vault.seal(totpSealKey(row.id), vault.open(totpSealKey(row.id), sealed));
    const { count } = await prisma.tenantUser.updateMany({ where: { id: row.id, totpSecret: sealed }, data: { totpSecret: resealed } });
    result.resealed += count;
  }
  if (result.resealed) logger.info({ resealed: result.resealed, keyId: current }, "two-factor secrets sealed again under the current key");
  if (result.unreadable) logger.warn({ count: result.unreadable }, "two-factor secrets sealed under a key this process does not hold: set GATEWAY_CREDENTIALS_OLD_KEYS as on the other instances");
  return result;
}
