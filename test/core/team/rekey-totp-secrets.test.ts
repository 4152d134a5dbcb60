// Key rotation reaches the panel's two-factor secrets: sealed again under the current key at start, so
// retiring the old key locks nobody out; a secret under a key this process lacks is left alone.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { credentialKey, CredentialsVault } from "../../../core/gateways/credentials-vault.ts";
import { rekeyTotpSecrets } from "../../../core/team/rekey-totp-secrets.ts";
import { totpSealKey } from "../../../core/team/team-secrets.ts";
import { createLogger } from "../../../core/shared/logger.ts";
import { openDb } from "../../../prisma/client.ts";

const key = () => credentialKey(randomBytes(32));
const vault = (current: ReturnType<typeof key>, old: ReturnType<typeof key>[] = []) => new CredentialsVault({ current: () => current, old, source: "env" });

describe("rekeyTotpSecrets", async () => {
  const db = await openDb({ url: "", pgliteDir: "memory://" });
  afterAll(() => db.close());

  it("reseals under the current key what an old key sealed, and leaves what no held key opens", async () => {
    const [a, b, stranger] = [key(), key(), key()];
    await db.prisma.tenant.create({ data: { id: "tn_rekey", name: "r", mode: "SANDBOX" } });
    const sealedA = vault(a).seal(totpSealKey("usr_a"), { totp: "JBSWY3DPEHPK3PXP" });
    const sealedX = vault(stranger).seal(totpSealKey("usr_x"), { totp: "KRSXG5CTMVRXEZLU" });
    await db.prisma.tenantUser.createMany({
      data: [
        { id: "usr_a", tenantId: "tn_rekey", email: "a@example.com", role: "OWNER", totpSecret: sealedA },
        { id: "usr_x", tenantId: "tn_rekey", email: "x@example.com", role: "VIEWER", totpSecret: sealedX },
      ],
    });
    const result = await rekeyTotpSecrets(db.prisma, vault(b, [a]), createLogger("silent"));
    expect(result).toEqual({ resealed: 1, unreadable: 1 });
    const rows = await db.prisma.tenantUser.findMany({ where: { tenantId: "tn_rekey" }, orderBy: { id: "asc" } });
    expect(CredentialsVault.keyIdOf(rows[0]!.totpSecret!)).toBe(b.id);
    expect(vault(b).open(totpSealKey("usr_a"), rows[0]!.totpSecret!)).toEqual({ totp: "JBSWY3DPEHPK3PXP" });
    expect(rows[1]!.totpSecret).toBe(sealedX);
    expect(await rekeyTotpSecrets(db.prisma, vault(b, [a]), createLogger("silent"))).toEqual({ resealed: 0, unreadable: 1 });
  });
});
