// At start: gateway credentials sealed under an older key (GATEWAY_CREDENTIALS_OLD_KEYS, or the data
// directory's key after GATEWAY_CREDENTIALS_KEY was set) are sealed again under the current key, so the
// old key can be retired. Rows under a key this process does not hold are left as they are and named
// in a warning (another instance may hold it); their calls fail as credentials_unavailable.
import type { Logger } from "pino";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { CredentialsVault } from "./credentials-vault.ts";

export interface RekeyResult {
  resealed: number;
  /** gwa_ ids whose key this process does not hold. */
  unreadable: string[];
}

export async function rekeyGatewayCredentials(prisma: PrismaClient, vault: CredentialsVault, logger: Logger): Promise<RekeyResult> {
  const result: RekeyResult = { resealed: 0, unreadable: [] };
  // No credentials at all: nothing to read, and no data-directory key is made for nothing.
  if ((await prisma.gatewayAccount.count({ where: { credentialsCiphertext: { not: null } } })) === 0) return result;
  const current = vault.currentKeyId();
  const stale = await prisma.gatewayAccount.findMany({
    where: { credentialsCiphertext: { not: null }, NOT: { credentialsCiphertext: { startsWith: `v1.${current}.` } } },
    select: { id: true, credentialsCiphertext: true },
  });
  for (const row of stale) {
    const sealed = row.credentialsCiphertext!;
    if (!vault.holdsKeyOf(sealed)) {
      result.unreadable.push(row.id);
      continue;
    }
    const resealed = vault.seal(row.id, vault.open(row.id, sealed));
    // Conditional: an update that landed meanwhile (already under the current key) is kept.
    const { count } = await prisma.gatewayAccount.updateMany({ where: { id: row.id, credentialsCiphertext: sealed }, data: { credentialsCiphertext: resealed } });
    result.resealed += count;
  }
  if (result.resealed) logger.info({ resealed: result.resealed, keyId: current }, "gateway credentials sealed again under the current key");
  if (result.unreadable.length) {
    logger.warn(
      { accounts: result.unreadable.slice(0, 20), count: result.unreadable.length, keyIds: [...new Set(stale.filter((r) => result.unreadable.includes(r.id)).map((r) => CredentialsVault.keyIdOf(r.credentialsCiphertext!)))] },
      "gateway credentials sealed under a key this process does not hold: set GATEWAY_CREDENTIALS_KEY (and GATEWAY_CREDENTIALS_OLD_KEYS) as on the other instances",
    );
  }
  return result;
}
