// The gateway credentials key at start: a GATEWAY_CREDENTIALS_KEY of the wrong length is
// refused before anything starts, with a clear message and without echoing it; without the variable,
// the embedded default makes one key in the data directory (mode 0600) and seals under it.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHILD_ADMIN_TOKEN, childDataDir, startChildService, startMainUntilBanner } from "../../helpers/child-service.ts";

/** The child service's /graphql as its operator. */
const operatorGql = (baseUrl: string) => async (query: string, variables: Record<string, unknown>) =>
  (await (
    await fetch(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${CHILD_ADMIN_TOKEN}` },
      body: JSON.stringify({ query, variables }),
    })
  ).json()) as { data: any; errors?: unknown[] };

describe("gateway credentials key at start", () => {
  it.each([
    ["GATEWAY_CREDENTIALS_KEY of 16 bytes", { GATEWAY_CREDENTIALS_KEY: randomBytes(16).toString("base64") }, /GATEWAY_CREDENTIALS_KEY must be 32 random bytes in base64 \(44 characters\); it decodes to 16 bytes/],
    ["GATEWAY_CREDENTIALS_KEY that is no base64", { GATEWAY_CREDENTIALS_KEY: "my gateway password!" }, /GATEWAY_CREDENTIALS_KEY must be 32 random bytes/],
    [
      "a short GATEWAY_CREDENTIALS_OLD_KEYS entry",
      { GATEWAY_CREDENTIALS_KEY: randomBytes(32).toString("base64"), GATEWAY_CREDENTIALS_OLD_KEYS: randomBytes(20).toString("base64") },
      /GATEWAY_CREDENTIALS_OLD_KEYS \(entry 1\) must be 32 random bytes/,
    ],
    ["GATEWAY_CREDENTIALS_KEY of 32 zero bytes", { GATEWAY_CREDENTIALS_KEY: Buffer.alloc(32).toString("base64") }, /GATEWAY_CREDENTIALS_KEY is not random: its 32 bytes hold only 1 distinct values/],
    ["GATEWAY_CREDENTIALS_KEY of a repeated pattern", { GATEWAY_CREDENTIALS_KEY: Buffer.alloc(32, "s3cr3t!").toString("base64") }, /GATEWAY_CREDENTIALS_KEY is not random: its 32 bytes hold only 6 distinct values/],
    [
      "a GATEWAY_CREDENTIALS_OLD_KEYS entry of 32 zero bytes",
      { GATEWAY_CREDENTIALS_KEY: randomBytes(32).toString("base64"), GATEWAY_CREDENTIALS_OLD_KEYS: Buffer.alloc(32).toString("base64url") },
      /GATEWAY_CREDENTIALS_OLD_KEYS \(entry 1\) is not random/,
    ],
  ])("%s: exits non-zero with a clear message, the key not echoed", { timeout: 120_000 }, async (_label, env, message) => {
    const r = await startMainUntilBanner(env);
    expect(r.started).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("refusing to start:");
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain("openssl rand -base64 32");
    for (const value of Object.values(env)) expect(r.stderr).not.toContain(value);
  });

  it("refuses to start (exit 1, naming the key ids) when the key opens none of the stored credentials: a valid wrong key, or none", { timeout: 400_000 }, async () => {
    const data = childDataDir("billing-gw-wrongkey-");
    const keyA = randomBytes(32).toString("base64");
    const keyB = randomBytes(32).toString("base64");
    const idOf = (k: string) => createHash("sha256").update(Buffer.from(k, "base64")).digest("hex").slice(0, 8);
    try {
      // Credentials sealed under key A.
      const child = await startChildService({ databaseUrl: "", role: "api", dataDir: data.dir, env: { GATEWAY_CREDENTIALS_KEY: keyA, GATEWAY_CREDENTIALS_OLD_KEYS: "" } });
      try {
        const gql = operatorGql(child.baseUrl);
        const tenant = await gql(`mutation { createTenant(name: "wrong key", mode: SANDBOX) { id } }`, {});
        const created = await gql(
          `mutation($t: ID!) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "keys", credentials: {secretKey: "sk_test_wrongkey0123456789abcdef"}) { credentialsKeyId } }`,
          { t: tenant.data.createTenant.id },
        );
        expect(created.data.createGatewayAccount.credentialsKeyId).toBe(idOf(keyA));
      } finally {
        await child.stop();
      }
      const cases: [string, Record<string, string>, RegExp][] = [
        ["a valid but wrong key B", { GATEWAY_CREDENTIALS_KEY: keyB, GATEWAY_CREDENTIALS_OLD_KEYS: "" }, new RegExp(`sealed under key id ${idOf(keyA)}, and GATEWAY_CREDENTIALS_KEY \\(key id ${idOf(keyB)}\\) opens none of them`)],
        ["no key (the data directory's, made now)", { GATEWAY_CREDENTIALS_KEY: "", GATEWAY_CREDENTIALS_OLD_KEYS: "" }, new RegExp(`sealed under key id ${idOf(keyA)}, and the data directory's key`)],
      ];
      for (const [label, env, message] of cases) {
        const r = await startMainUntilBanner(env, data.dir);
        expect({ label, started: r.started, code: r.code }).toEqual({ label, started: false, code: 1 });
        expect(r.stderr).toContain("refusing to start:");
        expect(r.stderr).toMatch(message);
        for (const value of [keyA, keyB]) expect(r.stderr).not.toContain(value);
      }
      // The right key, or a new key with A among the old ones (a rotation), starts.
      for (const env of [{ GATEWAY_CREDENTIALS_KEY: keyA, GATEWAY_CREDENTIALS_OLD_KEYS: "" }, { GATEWAY_CREDENTIALS_KEY: keyB, GATEWAY_CREDENTIALS_OLD_KEYS: keyA }]) {
        const r = await startMainUntilBanner(env, data.dir);
        expect({ started: r.started, code: r.code, output: r.started ? "" : r.stderr + r.stdout }).toEqual({ started: true, code: null, output: "" });
      }
    } finally {
      data.remove();
    }
  });

  it("without GATEWAY_CREDENTIALS_KEY the embedded default seals under a key made in the data directory (0600)", { timeout: 180_000 }, async () => {
    const data = childDataDir("billing-gw-datadir-");
    const child = await startChildService({ databaseUrl: "", role: "api", dataDir: data.dir, env: { GATEWAY_CREDENTIALS_KEY: "", GATEWAY_CREDENTIALS_OLD_KEYS: "" } });
    try {
      const file = path.join(data.dir, "gateway-credentials.key");
      const gql = operatorGql(child.baseUrl);
      const tenant = await gql(`mutation { createTenant(name: "datadir", mode: SANDBOX) { id } }`, {});
      const created = await gql(
        `mutation($t: ID!) { createGatewayAccount(tenantId: $t, provider: SANDBOX, name: "keys", credentials: {secretKey: "sk_test_datadirkey0123456789abcdef"}) { credentialsKeyId } }`,
        { t: tenant.data.createTenant.id },
      );
      expect(created.errors).toBeUndefined();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
      expect(key).toHaveLength(32);
      expect(created.data.createGatewayAccount.credentialsKeyId).toBe(createHash("sha256").update(key).digest("hex").slice(0, 8));
    } finally {
      await child.stop();
      data.remove();
    }
  });
});
