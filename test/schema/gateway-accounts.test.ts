// Gateway accounts with credentials encrypted at rest, through GraphQL as operator:
// hints only in every answer, no clear secret in the row, decryption at call time, key rotation, the
// apiBaseUrl flag, one default account per provider, the live credential check, and the refusals.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { GatewayAdapter } from "../../core/gateways/adapter.ts";
import { CredentialsUnavailable } from "../../core/gateways/adapter.ts";
import { ADAPTER_DEFAULTS } from "../../core/gateways/capabilities.ts";
import { credentialKey, CredentialsVault, type CredentialKeyRing } from "../../core/gateways/credentials-vault.ts";
import type { RuntimeConfig } from "../../core/runtime.ts";
import { createLogger } from "../../core/shared/logger.ts";
import { openDb, type Db } from "../../prisma/client.ts";
import { buildService, type Service } from "../../server/service.ts";
import { scratchPgDatabase } from "../helpers/child-service.ts";
import { gql, op } from "../helpers/http.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const FIELDS = "id provider name isDefault capabilities credentialHints credentialsKeyId credentialsUpdatedAt apiBaseUrl";
const CREATE = `mutation($t: ID!, $p: GatewayProvider!, $n: String!, $c: JSON, $u: String, $cap: JSON) {
  createGatewayAccount(tenantId: $t, provider: $p, name: $n, credentials: $c, apiBaseUrl: $u, capabilities: $cap) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { ${FIELDS} } }`;
const LIST = `query($t: ID!) { gatewayAccounts(tenantId: $t) { ${FIELDS} } }`;
const SET_DEFAULT = `mutation($t: ID!, $id: ID!) { setDefaultGatewayAccount(tenantId: $t, id: $id) { id isDefault } }`;

/** Secrets made by this run: unique, so finding one anywhere is a leak. */
const secretKey = () => `sk_test_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`;
const webhookSecret = () => `whsec_${randomBytes(24).toString("base64url").replace(/[-_]/g, "y")}`;

/** Every spelling of a secret a careless encoder could leave: clear, base64, base64url, hex. */
function spellings(secret: string): string[] {
  const b = Buffer.from(secret);
  return [secret, b.toString("base64").slice(0, 16), b.toString("base64url").slice(0, 16), b.toString("hex").slice(0, 16)];
}

function expectNoSecret(where: string, text: string, secrets: string[]): void {
  for (const secret of secrets) for (const s of spellings(secret)) expect({ where, leaked: text.includes(s) }).toEqual({ where, leaked: false });
}

const rowOf = async (id: string) => {
  const db = (await testService()).runtime.db;
  const [row] = (await db.sql.query(`SELECT g::text AS row, credentials_ciphertext FROM gateway_accounts g WHERE id = $1`, [id])) as { row: string; credentials_ciphertext: string | null }[];
  return row!;
};

/** Another service instance (own runtime) on a database, for configurations the shared one does not have. */
interface Instance {
  service: Service;
  gql: (query: string, variables: Record<string, unknown>) => Promise<{ data: any; errors?: { message: string; extensions?: Record<string, any> }[] }>;
  close(): Promise<void>;
}
const instances: Instance[] = [];
afterAll(async () => {
  for (const i of instances.splice(0)) await i.close();
});

async function instance(db: Db, config: Partial<RuntimeConfig> = {}): Promise<Instance> {
  const service = await buildService(db, createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost", ...config });
  const server = service.app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const it: Instance = {
    service,
    gql: async (query, variables) => {
      const res = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as never;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  instances.push(it);
  return it;
}

describe("gateway accounts", () => {
  it("credentials go in, only masked hints come out; the row holds a sealed ciphertext and the adapter reads them back", async () => {
    const t = await newTenant();
    const creds = { secretKey: secretKey(), webhookSecret: webhookSecret(), publishableKey: "pk_test_TYooMQauvdEDq54NiTphI7jx" };
    const secrets = [creds.secretKey, creds.webhookSecret];
    const created = await gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "with-keys", c: creds });
    expect(created.errors).toBeUndefined();
    const account = created.data.createGatewayAccount;
    expect(account).toMatchObject({
      provider: "SANDBOX",
      name: "with-keys",
      isDefault: false, // newTenant's "sandbox" account came first
      credentialHints: { secretKey: `sk_test_...${creds.secretKey.slice(-4)}`, webhookSecret: `whsec_...${creds.webhookSecret.slice(-4)}`, publishableKey: "pk_test_...I7jx" },
      apiBaseUrl: null,
    });
    expect(account.credentialsKeyId).toMatch(/^[0-9a-f]{8}$/);
    expect(Date.parse(account.credentialsUpdatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expectNoSecret("createGatewayAccount answer", JSON.stringify(created), secrets);

    const listed = await gql(LIST, { t: t.tenantId });
    expect(listed.data.gatewayAccounts.map((a: { name: string }) => a.name)).toEqual(["sandbox", "with-keys"]);
    expect(listed.data.gatewayAccounts[0]).toMatchObject({ name: "sandbox", isDefault: true, credentialHints: {}, credentialsKeyId: null });
    expectNoSecret("gatewayAccounts answer", JSON.stringify(listed), secrets);

    // The row: a v1 ciphertext under the listed key id, nothing clear in any column.
    const row = await rowOf(account.id);
    expect(row.credentials_ciphertext).toMatch(new RegExp(`^v1\\.${account.credentialsKeyId}\\.`));
    expectNoSecret("gateway_accounts row", row.row, secrets);

    // Decrypted only at call time, for the adapter.
    const { runtime } = await testService();
    expect(await runtime.gateways.credentials({ id: account.id, tenantId: t.tenantId })).toEqual({ credentials: creds, apiBaseUrl: null });
    // Another tenant's ref does not open it.
    const other = await newTenant();
    await expect(runtime.gateways.credentials({ id: account.id, tenantId: other.tenantId })).rejects.toBeInstanceOf(CredentialsUnavailable);
  });

  it("updateGatewayAccountCredentials replaces them: new hints, the adapter reads the new ones at once", async () => {
    const t = await newTenant();
    const first = { secretKey: secretKey() };
    const { createGatewayAccount: account } = await op(CREATE, { t: t.tenantId, p: "SANDBOX", n: "rotating", c: first });
    const { runtime } = await testService();
    expect((await runtime.gateways.credentials({ id: account.id, tenantId: t.tenantId })).credentials).toEqual(first); // cached now
    const second = { secretKey: secretKey(), webhookSecret: webhookSecret() };
    const updated = await gql(UPDATE, { id: account.id, c: second });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateGatewayAccountCredentials.credentialHints).toEqual({
      secretKey: `sk_test_...${second.secretKey.slice(-4)}`,
      webhookSecret: `whsec_...${second.webhookSecret.slice(-4)}`,
    });
    expectNoSecret("updateGatewayAccountCredentials answer", JSON.stringify(updated), [first.secretKey, second.secretKey, second.webhookSecret]);
    expect((await runtime.gateways.credentials({ id: account.id, tenantId: t.tenantId })).credentials).toEqual(second);
    expectNoSecret("gateway_accounts row", (await rowOf(account.id)).row, [first.secretKey, second.secretKey, second.webhookSecret]);
  });

  it("bad credentials JSON is refused (invalid_argument) and the answer never repeats it", async () => {
    const t = await newTenant();
    const secret = secretKey();
    for (const c of [secret, [secret], { secretKey: 42 }, { "secret key": secret }, { secretKey: "" }, { secretKey: `${secret}\u0000` }]) {
      const r = await gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "bad", c });
      // (A NUL is refused earlier, by the GraphQL input checks: invalid_parameter.)
      expect({ c, code: r.errors?.[0]?.extensions?.code }).toEqual({ c, code: expect.stringMatching(/^invalid_(argument|parameter)$/) });
      expectNoSecret("refusal", JSON.stringify(r), [secret]);
    }
    const { createGatewayAccount: account } = await op(CREATE, { t: t.tenantId, p: "SANDBOX", n: "ok", c: { secretKey: secret } });
    const bad = await gql(UPDATE, { id: account.id, c: { secretKey: [secret] } });
    expect(bad.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expectNoSecret("refusal", JSON.stringify(bad), [secret]);
    // A real provider's credentials are checked live; a key not of its shape is refused before any call.
    expect((await gql(CREATE, { t: t.tenantId, p: "PAGARME", n: "pg", c: { secretKey: "not-a-pagarme-key" } })).errors?.[0]?.extensions?.code).toBe("gateway_credentials_invalid");
    expect((await gql(CREATE, { t: t.tenantId, p: "sandbox", n: "lower" })).errors?.[0]?.extensions?.code).toBe("invalid_argument"); // enum names only
    // A name taken in the tenant: 409.
    expect((await gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "ok" })).errors?.[0]?.extensions?.code).toBe("conflict");
  });

  it("unknown tenant or account: 404; a tenant key hears operator_only", async () => {
    const t = await newTenant();
    const missing = "tn_01JZZZZZZZZZZZZZZZZZZZZZZZ";
    expect((await gql(CREATE, { t: missing, p: "SANDBOX", n: "x" })).errors?.[0]?.extensions?.code).toBe("not_found");
    expect((await gql(LIST, { t: missing })).errors?.[0]?.extensions?.code).toBe("not_found");
    expect((await gql(UPDATE, { id: "gwa_01JZZZZZZZZZZZZZZZZZZZZZZZ", c: { secretKey: "sk_test_x" } })).errors?.[0]?.extensions?.code).toBe("not_found");
    expect((await gql(UPDATE, { id: "nonsense", c: { secretKey: "sk_test_x" } })).errors?.[0]?.extensions?.code).toBe("not_found");
    const { gatewayAccounts } = await op(LIST, { t: t.tenantId });
    expect((await gql(SET_DEFAULT, { t: missing, id: gatewayAccounts[0].id })).errors?.[0]?.extensions?.code).toBe("not_found");
    // Another tenant's account is not found, byte for byte like an unknown one.
    const other = await newTenant();
    expect((await gql(SET_DEFAULT, { t: other.tenantId, id: gatewayAccounts[0].id })).errors?.[0]?.extensions?.code).toBe("not_found");

    for (const key of [t.writeKey, t.readKey]) {
      const calls = [
        gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "mine" }, key),
        gql(UPDATE, { id: gatewayAccounts[0].id, c: { secretKey: "sk_test_x" } }, key),
        gql(SET_DEFAULT, { t: t.tenantId, id: gatewayAccounts[0].id }, key),
        gql(LIST, { t: t.tenantId }, key),
      ];
      for (const r of await Promise.all(calls)) expect(r.errors?.[0]?.extensions?.code).toBe("operator_only");
    }
  });

  it("one default account per provider: the first is the default, setDefaultGatewayAccount moves it, a provider name in createOffer means it", async () => {
    const t = await newTenant(); // its offers made the "sandbox" account, the sandbox default
    const { createGatewayAccount: second } = await op(CREATE, { t: t.tenantId, p: "SANDBOX", n: "second", cap: { minimumChargeCents: 500 } });
    expect(second.isDefault).toBe(false);
    const offer = async () =>
      (
        await op(
          `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "P", interval: MONTH, priceCents: 2000, currency: "brl", gateway: "sandbox", collectionMethods: [CARD_AUTO]) { gatewayAccountId } }`,
          { t: t.tenantId, p: t.planId },
        )
      ).createOffer.gatewayAccountId as string;
    const sandboxId = (await op(LIST, { t: t.tenantId })).gatewayAccounts.find((a: { name: string }) => a.name === "sandbox").id;
    expect(await offer()).toBe(sandboxId);

    expect((await op(SET_DEFAULT, { t: t.tenantId, id: second.id })).setDefaultGatewayAccount).toEqual({ id: second.id, isDefault: true });
    const defaults = (await op(LIST, { t: t.tenantId })).gatewayAccounts.map((a: { name: string; isDefault: boolean }) => [a.name, a.isDefault]);
    expect(defaults).toEqual([["sandbox", false], ["second", true]]);
    expect(await offer()).toBe(second.id);
    // Again (idempotent), and concurrently with the other: exactly one default stays.
    await Promise.all([op(SET_DEFAULT, { t: t.tenantId, id: second.id }), op(SET_DEFAULT, { t: t.tenantId, id: sandboxId }), op(SET_DEFAULT, { t: t.tenantId, id: second.id })]);
    const after = (await op(LIST, { t: t.tenantId })).gatewayAccounts.filter((a: { isDefault: boolean }) => a.isDefault);
    expect(after).toHaveLength(1);

    // A tenant's first account of a provider is its default; a real provider without one is refused by name.
    const fresh = await op(`mutation { createTenant(name: "gw-fresh", mode: SANDBOX) { id } }`);
    const { createGatewayAccount: firstOne } = await op(CREATE, { t: fresh.createTenant.id, p: "SANDBOX", n: "mine" });
    expect(firstOne.isDefault).toBe(true);
    const { createProduct } = await op(`mutation($t: ID!) { createProduct(tenantId: $t, name: "A") { id } }`, { t: fresh.createTenant.id });
    const { createPlan } = await op(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "B", entitlements: {}) { id } }`, {
      t: fresh.createTenant.id,
      p: createProduct.id,
    });
    const byName = (gateway: string) =>
      gql(
        `mutation($t: ID!, $p: ID!, $g: String!) { createOffer(tenantId: $t, planId: $p, name: "P", interval: MONTH, priceCents: 2000, currency: "brl", gateway: $g, collectionMethods: [CARD_AUTO]) { gatewayAccountId } }`,
        { t: fresh.createTenant.id, p: createPlan.id, g: gateway },
      );
    expect((await byName("sandbox")).data.createOffer.gatewayAccountId).toBe(firstOne.id);
    expect((await byName("mine")).data.createOffer.gatewayAccountId).toBe(firstOne.id);
    const stripe = await byName("stripe");
    expect(stripe.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(stripe.errors?.[0]?.message).toMatch(/no default stripe account/);
  });

  it("apiBaseUrl is accepted only with GATEWAY_ALLOW_BASE_URL_OVERRIDE=true", async () => {
    const t = await newTenant();
    const allowed = await gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "proxied", u: "http://127.0.0.1:4010/" });
    expect(allowed.data.createGatewayAccount.apiBaseUrl).toBe("http://127.0.0.1:4010");
    const { runtime } = await testService();
    expect((await runtime.gateways.credentials({ id: allowed.data.createGatewayAccount.id, tenantId: t.tenantId })).apiBaseUrl).toBe("http://127.0.0.1:4010");
    expect((await gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "bad-url", u: "http://user:pw@127.0.0.1:4010" })).errors?.[0]?.extensions?.code).toBe("invalid_argument");

    // A production instance (the flag unset) on the same database.
    const production = await instance(runtime.db);
    const refused = await production.gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "proxied-2", u: "http://127.0.0.1:4010" });
    expect(refused.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect(refused.errors?.[0]?.message).toMatch(/GATEWAY_ALLOW_BASE_URL_OVERRIDE=true/);
    expect((await production.gql(CREATE, { t: t.tenantId, p: "SANDBOX", n: "plain" })).errors).toBeUndefined();
  });

  it("the live check: a refusal is a 422 gateway_credentials_invalid with the provider's reason, never the secret; nothing is stored", async () => {
    const { runtime } = await testService();
    // An instance whose stripe adapter is a stand-in with a verifyCredentials (the real one is the stripe helper's).
    const live = await instance(runtime.db, { allowGatewayBaseUrlOverride: true });
    const checked: unknown[] = [];
    const fake = {
      provider: "stripe",
      defaults: { ...ADAPTER_DEFAULTS.sandbox!, minimumChargeCents: 50, capturesCardOnlyOnPaymentPage: true },
      async verifyCredentials(candidate: { credentials: Record<string, string>; apiBaseUrl: string | null }) {
        checked.push(candidate);
        const key = candidate.credentials.secretKey ?? "";
        if (key.includes("unreachable")) throw new Error(`connect ECONNREFUSED with ${key}`);
        if (!key.startsWith("sk_")) return { ok: false as const, reason: "secretKey is required" };
        if (key.includes("revoked")) return { ok: false as const, reason: `Invalid API Key provided: ${key}` };
        return { ok: true as const };
      },
    } as unknown as GatewayAdapter;
    const gateways = live.service.runtime.gateways;
    const { has, adapter } = gateways;
    gateways.has = (p) => p === "stripe" || has(p);
    gateways.adapter = (p) => (p === "stripe" ? fake : adapter(p));

    const t = await newTenant();
    const revoked = `sk_test_revoked${randomBytes(16).toString("hex")}`;
    const r = await live.gql(CREATE, { t: t.tenantId, p: "STRIPE", n: "stripe", c: { secretKey: revoked }, u: "http://127.0.0.1:4011" });
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: "gateway_credentials_invalid", status: 422 });
    expect(r.errors?.[0]?.message).toMatch(/^stripe refused the credentials: Invalid API Key provided: sk_test_\.\.\./);
    expectNoSecret("live check refusal", JSON.stringify(r), [revoked]);
    expect(checked).toEqual([{ credentials: { secretKey: revoked }, apiBaseUrl: "http://127.0.0.1:4011" }]);
    const unreachable = `sk_test_unreachable${randomBytes(16).toString("hex")}`;
    const down = await live.gql(CREATE, { t: t.tenantId, p: "STRIPE", n: "stripe", c: { secretKey: unreachable } });
    expect(down.errors?.[0]?.extensions?.code).toBe("gateway_credentials_invalid");
    expect(down.errors?.[0]?.message).toMatch(/could not be reached/);
    expectNoSecret("live check refusal", JSON.stringify(down), [unreachable]);
    expect((await live.gql(CREATE, { t: t.tenantId, p: "STRIPE", n: "stripe", c: { publishableKey: "pk_test_x" } })).errors?.[0]?.message).toMatch(/secretKey is required/);
    expect((await live.gql(CREATE, { t: t.tenantId, p: "STRIPE", n: "stripe" })).errors?.[0]?.extensions?.code).toBe("invalid_argument");
    expect((await live.gql(CREATE, { t: t.tenantId, p: "STRIPE", n: "stripe", c: { secretKey: secretKey() }, cap: { minimumChargeCents: 1 } })).errors?.[0]?.extensions?.code).toBe(
      "invalid_argument",
    );
    expect((await op(LIST, { t: t.tenantId })).gatewayAccounts.map((a: { name: string }) => a.name)).toEqual(["sandbox"]);

    // Good credentials: stored, the provider's own capabilities, the first stripe account is the default.
    const good = secretKey();
    const ok = await live.gql(CREATE, { t: t.tenantId, p: "STRIPE", n: "stripe", c: { secretKey: good } });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.createGatewayAccount).toMatchObject({ provider: "STRIPE", isDefault: true, capabilities: { minimumChargeCents: 50, capturesCardOnlyOnPaymentPage: true } });
    // An update is checked the same way, and a refused one leaves the stored credentials alone.
    const bad = await live.gql(UPDATE, { id: ok.data.createGatewayAccount.id, c: { secretKey: revoked } });
    expect(bad.errors?.[0]?.extensions?.code).toBe("gateway_credentials_invalid");
    expectNoSecret("live check refusal", JSON.stringify(bad), [revoked]);
    expect((await gateways.credentials({ id: ok.data.createGatewayAccount.id, tenantId: t.tenantId })).credentials).toEqual({ secretKey: good });
  });

  it("key rotation: the old key still opens, the start and every update seal under the new key id", { timeout: 60_000 }, async () => {
    // A database of its own: a restart under a new key re-seals every row of the database it starts on.
    const scratch = process.env.DATABASE_URL ? await scratchPgDatabase("gw_rotation") : null;
    const db = await openDb({ url: scratch?.url ?? "", pgliteDir: "memory://" });
    try {
      const k1 = credentialKey(randomBytes(32));
      const k2 = credentialKey(randomBytes(32));
      const ring = (current: typeof k1, old: (typeof k1)[] = []): CredentialKeyRing => ({ current: () => current, old, source: "env" });
      const before = await instance(db, { gatewayCredentialKeys: ring(k1) });
      const tenantId = (await before.gql(`mutation { createTenant(name: "rotation", mode: SANDBOX) { id } }`, {})).data.createTenant.id as string;
      const s1 = secretKey();
      const a = (await before.gql(CREATE, { t: tenantId, p: "SANDBOX", n: "a", c: { secretKey: s1 } })).data.createGatewayAccount;
      expect(a.credentialsKeyId).toBe(k1.id);

      // Restart with k2 current and k1 old: the start re-seals `a` under k2.
      const after = await instance(db, { gatewayCredentialKeys: ring(k2, [k1]) });
      const listed = (await after.gql(LIST, { t: tenantId })).data.gatewayAccounts;
      expect(listed.map((x: { credentialsKeyId: string }) => x.credentialsKeyId)).toEqual([k2.id]);
      expect(await after.service.runtime.gateways.credentials({ id: a.id, tenantId })).toEqual({ credentials: { secretKey: s1 }, apiBaseUrl: null });

      // An account sealed under k1 after that start (an instance not yet restarted): k1 still opens it
      // for the new instance, and its update seals it under k2.
      const b = (await before.gql(CREATE, { t: tenantId, p: "SANDBOX", n: "b", c: { secretKey: secretKey() } })).data.createGatewayAccount;
      expect(b.credentialsKeyId).toBe(k1.id);
      expect((await after.service.runtime.gateways.credentials({ id: b.id, tenantId })).credentials.secretKey).toMatch(/^sk_test_/);
      const s2 = secretKey();
      const updated = (await after.gql(UPDATE, { id: b.id, c: { secretKey: s2 } })).data.updateGatewayAccountCredentials;
      expect(updated.credentialsKeyId).toBe(k2.id);
      const [row] = (await db.sql.query(`SELECT credentials_ciphertext FROM gateway_accounts WHERE id = $1`, [b.id])) as { credentials_ciphertext: string }[];
      expect(CredentialsVault.keyIdOf(row!.credentials_ciphertext)).toBe(k2.id);
      expect(await after.service.runtime.gateways.credentials({ id: b.id, tenantId })).toEqual({ credentials: { secretKey: s2 }, apiBaseUrl: null });
      // Without k2 (an instance left on k1 alone): a clear error naming the key, no secret, no 500 path.
      before.service.runtime.gateways.forgetCredentials(b.id);
      const err = await before.service.runtime.gateways.credentials({ id: b.id, tenantId }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CredentialsUnavailable);
      expect(String((err as Error).message)).toContain(`key ${k2.id}, which this process does not hold`);
    } finally {
      for (const i of instances.splice(0)) await i.close();
      await db.close();
      if (scratch) await new Promise((r) => setTimeout(r, 1_000)).then(() => scratch.drop());
    }
  });
});
