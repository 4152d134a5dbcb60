// At start, before anything serves: the configured key ring must open the gateway credentials already in
// the database. A valid-looking wrong GATEWAY_CREDENTIALS_KEY (or none, on a database another host
// sealed) otherwise starts, and every gateway call and notice then fails in a way that does not say why.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { CredentialKeyError, CredentialsVault } from "./credentials-vault.ts";

/**
 * Opens one ciphertext per key id found in the database. Refuses (CredentialKeyError, naming key ids,
 * never a key) when none opens; when some do, the others are another instance's business (rotation in
 * progress) and the start's re-sealing names them in a warning.
 */
export async function checkCredentialsKey(prisma: PrismaClient, vault: CredentialsVault): Promise<void> {
  const samples: { id: string; sealed: string }[] = [];
  // One row per key id: a handful of queries, however many accounts there are.
  for (;;) {
    const row = await prisma.gatewayAccount.findFirst({
      where: {
        credentialsCiphertext: { not: null },
        ...(samples.length ? { NOT: samples.map((s) => ({ credentialsCiphertext: { startsWith: `v1.${CredentialsVault.keyIdOf(s.sealed)}.` } })) } : {}),
      },
      select: { id: true, credentialsCiphertext: true },
    });
    if (!row || samples.length >= 50) break;
    samples.push({ id: row.id, sealed: row.credentialsCiphertext! });
  }
  if (samples.length === 0) return; // nothing sealed yet: no key to check, none is made for nothing
  const opens = (s: { id: string; sealed: string }) => {
    try {
      vault.open(s.id, s.sealed);
      return true;
    } catch {
      return false;
    }
  };
  if (samples.some(opens)) return;
  const stored = [...new Set(samples.map((s) => CredentialsVault.keyIdOf(s.sealed)))].join(", ");
  const source = vault.source === "env" ? "GATEWAY_CREDENTIALS_KEY" : "the data directory's key (GATEWAY_CREDENTIALS_KEY is not set)";
  throw new CredentialKeyError(
    `the gateway credentials in the database are sealed under key id ${stored}, and ${source} (key id ${vault.currentKeyId()}) ` +
      "opens none of them. Set GATEWAY_CREDENTIALS_KEY to the key they were sealed under (a new key goes in " +
      "GATEWAY_CREDENTIALS_KEY with the old one in GATEWAY_CREDENTIALS_OLD_KEYS)",
  );
}
