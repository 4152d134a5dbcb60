import { describe, expect, it } from "vitest";
import { call, get, gql, op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";

describe("authentication and scopes", () => {
  it("answers 401 without a key, with a malformed or unknown key, and with the operator token on /v1", async () => {
    for (const key of [null, "nope", "bk_test_" + "x".repeat(32), "adm_test_operator_token_0123456789"]) {
      const r = await get("/v1/subscriptions", key);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("unauthorized");
    }
  });

  it("answers 401 for a revoked key and for a suspended tenant, at once", async () => {
    const t = await newTenant();
    expect((await get("/v1/subscriptions", t.readKey)).status).toBe(200);
    await op(`mutation($t: ID!) { setTenantSuspended(tenantId: $t, suspended: true) { id } }`, { t: t.tenantId });
    expect((await get("/v1/subscriptions", t.readKey)).status).toBe(401);
    await op(`mutation($t: ID!) { setTenantSuspended(tenantId: $t, suspended: false) { id } }`, { t: t.tenantId });
    expect((await get("/v1/subscriptions", t.readKey)).status).toBe(200);

    const { createApiKey } = await op(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ) { id key } }`, { t: t.tenantId });
    expect(createApiKey.key).toMatch(/^bk_test_[0-9A-Za-z]{32}$/);
    expect((await get("/v1/events", createApiKey.key)).status).toBe(200);
    await op(`mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, { id: createApiKey.id });
    expect((await get("/v1/events", createApiKey.key)).status).toBe(401);
  });

  it("LIVE tenants get bk_live_ keys, stored only as a hash", async () => {
    const t = await newTenant({ mode: "LIVE" });
    expect(t.writeKey).toMatch(/^bk_live_[0-9A-Za-z]{32}$/);
    const { testService } = await import("../helpers/service.ts");
    const rows = await (await testService()).runtime.db.sql.query("SELECT hash, hint FROM api_keys WHERE tenant_id = $1", [t.tenantId]);
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(t.writeKey);
      expect(JSON.stringify(row)).not.toContain(t.readKey);
    }
  });

  it("refuses a read key on a write route with 403 insufficient_scope", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const r = await post(`/v1/customers/${c.externalId}/email`, t.readKey, { email: "new@example.com" });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: expect.any(String), code: "insufficient_scope" });
  });

  it("keeps customer edits allowed in read-only mode (an exception of account_locked)", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: t.tenantId });
    const r = await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email: "locked@example.com" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ email: "locked@example.com", notice: null });
  });

  it("applies the same scope rules to tenant keys on GraphQL, and keeps operator mutations to the operator", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const asRead = await gql(`mutation($e: String!) { updateCustomerEmail(externalId: $e, email: "x@example.com") { email } }`, { e: c.externalId }, t.readKey);
    expect(asRead.errors?.[0]?.extensions?.code).toBe("insufficient_scope");
    const asWrite = await gql(`mutation($e: String!) { updateCustomerEmail(externalId: $e, email: "x@example.com") { email } }`, { e: c.externalId }, t.writeKey);
    expect(asWrite.data.updateCustomerEmail.email).toBe("x@example.com");
    const operatorOnly = await gql(`mutation { createTenant(name: "x", mode: LIVE) { id } }`, {}, t.writeKey);
    expect(operatorOnly.errors?.[0]?.extensions?.code).toBe("operator_only");
    const viewer = await op(`{ viewer { kind tenantId scope } }`, {}, t.readKey);
    expect(viewer.viewer).toEqual({ kind: "tenant", tenantId: t.tenantId, scope: "READ" });
  });

  it("answers 401 on /graphql without a token", async () => {
    const r = await gql(`{ viewer { kind } }`, {}, null);
    expect(r.status).toBe(401);
    expect(r.errors?.[0]?.extensions?.code).toBe("unauthorized");
  });

  it("serves GraphiQL in a browser at /graphql", async () => {
    const r = await call("GET", "/graphql", { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.text).toContain("GraphiQL");
  });
});
