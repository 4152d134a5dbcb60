// The core believes the facade's headers (the client address it forwards, the /v1 request it
// describes) only from the facade: in process, or over HTTP with FACADE_SECRET. Anyone
// else sending them is an ordinary GraphQL client, still capped by its own socket address.
import { describe, expect, it } from "vitest";
import { operationHash } from "../../contract/facade-request.ts";
import { loadOperation } from "../../rest-facade/operations.ts";
import { ADMIN_TOKEN, FACADE_SECRET as SECRET, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { firstError, graphqlRequest } from "./graphql-http.ts";


const viewer = { query: "{ viewer { kind } }" };
const v1 = (extra: Record<string, unknown> = {}) => ({ facade: { method: "GET", path: "/v1/events", ...extra } });

describe("trusting the facade", () => {
  it("a forged X-Facade-Client-Address does not move a guesser out of its own address's lockout", async () => {
    const attacker = "127.0.0.21";
    for (let i = 0; i < 30; i++) {
      const r = await graphqlRequest({ body: viewer, token: `adm_guess_${i}`, localAddress: attacker, headers: { "x-facade-client-address": `10.9.${i}.1` } });
      expect(r.status).toBe(401);
    }
    const next = await graphqlRequest({ body: viewer, token: ADMIN_TOKEN, localAddress: attacker, headers: { "x-facade-client-address": "10.9.99.1", "x-facade-secret": "not-the-secret" } });
    expect(next.status).toBe(429);
  });

  it("ignores extensions.facade from an ordinary client: no /v1 rules, no refusal it can plant", async () => {
    const asOperator = await graphqlRequest({ body: { ...viewer, extensions: v1() }, token: ADMIN_TOKEN, localAddress: "127.0.0.22" });
    expect(asOperator.body.data).toEqual({ viewer: { kind: "operator" } });
    const refusal = { stage: "route", status: 418, body: { error: "planted", code: "planted" } };
    const planted = await graphqlRequest({ body: { ...viewer, extensions: v1({ refusal }) }, token: ADMIN_TOKEN, headers: { "x-facade-secret": "wrong" }, localAddress: "127.0.0.22" });
    expect(planted.body.data).toEqual({ viewer: { kind: "operator" } });
  });

  it("believes the facade with FACADE_SECRET: /v1 takes tenant keys only, and its refusal is answered after the core's own checks", async () => {
    const headers = { "x-facade-secret": SECRET, "x-facade-client-address": "198.51.100.7" };
    const asOperator = await graphqlRequest({ body: { ...viewer, extensions: v1() }, token: ADMIN_TOKEN, headers, localAddress: "127.0.0.23" });
    expect(asOperator.status).toBe(401);
    expect(firstError(asOperator)).toEqual({ error: "use a tenant API key (bk_…) on /v1", code: "unauthorized" });
    const t = await newTenant();
    const refusal = { stage: "body", status: 415, body: { error: "unsupported", code: "unsupported_media_type" } };
    const document = loadOperation("refund-payment");
    const persisted = { persistedQuery: { version: 1, sha256Hash: operationHash(document) } };
    const body = (token: string) => ({ body: { variables: {}, extensions: { ...persisted, ...v1({ method: "POST", path: "/v1/payments/p/refund", refusal }) } }, token, headers });
    // The read key's scope refusal comes first; the write key hears the facade's refusal.
    expect(firstError(await graphqlRequest(body(t.readKey)))).toMatchObject({ code: "insufficient_scope" });
    expect(firstError(await graphqlRequest(body(t.writeKey)))).toEqual(refusal.body);
    // A /v1 request's failed key is not counted against any address (as before the core held the keys).
    for (let i = 0; i < 35; i++) expect((await graphqlRequest({ body: { ...viewer, extensions: v1() }, token: `bk_test_${i}`, headers, localAddress: "127.0.0.24" })).status).toBe(401);
    expect((await graphqlRequest({ body: viewer, token: ADMIN_TOKEN, localAddress: "127.0.0.24" })).status).toBe(200);
  });
});

describe("persisted operations", () => {
  it("knows every operation of the facade by the SHA-256 of its file, and refuses an unknown hash with 400", async () => {
    const t = await newTenant();
    const entitlements = loadOperation("get-entitlements");
    const ok = await graphqlRequest({ body: { variables: { externalId: "nobody" }, extensions: { persistedQuery: { version: 1, sha256Hash: operationHash(entitlements) } } }, token: t.readKey });
    expect(ok.body.errors?.[0]?.extensions?.code).not.toBe("PERSISTED_QUERY_NOT_FOUND");
    const unknown = await graphqlRequest({ body: { extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } }, token: t.readKey });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });

  it("parses no document for a caller without a credential: a broken document without a key is 401, not a syntax error", async () => {
    const r = await graphqlRequest({ body: { query: "{ viewer { kind " }, localAddress: "127.0.0.25" });
    expect(r.status).toBe(401);
    expect(firstError(r)).toMatchObject({ code: "unauthorized" });
    const withKey = await graphqlRequest({ body: { query: "{ viewer { kind " }, token: ADMIN_TOKEN, localAddress: "127.0.0.25" });
    expect(withKey.body.errors[0].message).toMatch(/^Syntax Error/);
  });

  it("the facade sends hashes only, never a document", async () => {
    const { createCoreClient } = await import("../../rest-facade/core-client.ts");
    const { runtime, yoga } = await testService();
    const { inProcessFetch } = await import("../../schema/in-process-entry.ts");
    const inProcess = inProcessFetch(yoga, runtime);
    const sent: any[] = [];
    const core = createCoreClient({ inProcess: async (url, init) => (sent.push(JSON.parse(JSON.stringify(init.body))), inProcess(url, init)) });
    const t = await newTenant();
    await core.request(loadOperation("list-events"), {}, { authorization: `Bearer ${t.readKey}` });
    expect(sent).toHaveLength(1);
    expect(sent[0].query).toBeUndefined();
    expect(sent[0].extensions.persistedQuery.sha256Hash).toBe(operationHash(loadOperation("list-events")));
  });
});
