// What the facade alone puts on the wire to its core (GRAPHQL_URL), seen by a recording proxy between
// the two: the headers (its secret, the client's address, the caller's key, request id and
// Idempotency-Key), a body that names the operation by hash and describes the /v1 request, the
// document sent only to a core that does not know the hash, and the core's headers relayed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/shared/logger.ts";
import { createFacadeApp } from "../../server/facade-process.ts";
import { loadOperation } from "../../rest-facade/operations.ts";
import { operationHash } from "../../contract/facade-request.ts";
import { makeCustomer } from "../helpers/factories.ts";
import { FACADE_SECRET, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

interface Exchange {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
  answerHeaders: http.IncomingHttpHeaders;
}

const exchanges: Exchange[] = [];
/** Set to answer the next request itself, as a core that knows no persisted operation would. */
let olderCore = false;
let proxy: http.Server;
let facade: http.Server;
let facadeUrl = "";

const listening = async (server: http.Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  const core = new URL(`${(await testService()).baseUrl}/graphql`);
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: body.toString("utf8") };
      if (olderCore) {
        olderCore = false;
        const answer = JSON.stringify({ errors: [{ message: "PersistedQueryNotFound", extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } }] });
        exchanges.push({ ...seen, status: 400, answerHeaders: {} });
        return void res.writeHead(400, { "content-type": "application/graphql-response+json; charset=utf-8" }).end(answer);
      }
      const forward = http.request(core, { method: req.method, headers: req.headers }, (answer) => {
        exchanges.push({ ...seen, status: answer.statusCode ?? 0, answerHeaders: answer.headers });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.end(body);
    });
  });
  const proxyUrl = await listening(proxy);
  facade = http.createServer(createFacadeApp({ graphqlUrl: `${proxyUrl}/graphql`, facadeSecret: FACADE_SECRET, logger: createLogger("silent") }));
  facadeUrl = await listening(facade);
});

afterAll(async () => {
  facade.closeAllConnections();
  proxy.closeAllConnections();
  await new Promise((r) => facade.close(r));
  await new Promise((r) => proxy.close(r));
});

const RELAYED = ["ratelimit-policy", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "idempotent-replayed"];
const relayed = (headers: Headers | http.IncomingHttpHeaders) =>
  Object.fromEntries(RELAYED.flatMap((name) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return value == null ? [] : [[name, String(value)]];
  }));

describe("the facade's wire to a core over HTTP", () => {
  it("a read: one POST with the facade's headers and the operation's hash, never its document; the core's headers relayed", async () => {
    const t = await newTenant();
    exchanges.length = 0;
    const r = await fetch(`${facadeUrl}/v1/entitlements?external_id=nobody`, { headers: { authorization: `Bearer ${t.readKey}`, "x-facade-secret": "not-the-caller's" } });
    expect(r.status).toBe(200);
    expect(exchanges).toHaveLength(1);
    const [sent] = exchanges as [Exchange];
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/graphql");
    const { host, "content-length": length, "x-request-id": requestId, "x-facade-client-address": address, ...rest } = sent.headers;
    expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(Number(length)).toBe(Buffer.byteLength(sent.body));
    expect(requestId).toMatch(/\S/);
    expect(address).toMatch(/127\.0\.0\.1$/);
    expect(rest).toEqual({
      accept: "application/graphql-response+json, application/json",
      "content-type": "application/json",
      authorization: `Bearer ${t.readKey}`,
      "x-facade-secret": FACADE_SECRET,
      // What Node's fetch adds to every request.
      "accept-encoding": "gzip, deflate",
      "accept-language": "*",
      connection: "keep-alive",
      "sec-fetch-mode": "cors",
      "user-agent": "node",
    });
    // Key order too: the body is written as the facade builds it.
    expect(sent.body).toBe(
      JSON.stringify({
        variables: { externalId: "nobody" },
        extensions: { persistedQuery: { version: 1, sha256Hash: operationHash(loadOperation("get-entitlements")) }, facade: { method: "GET", path: "/v1/entitlements" } },
      }),
    );
    expect(sent.status).toBe(200);
    expect(relayed(sent.answerHeaders)["ratelimit-limit"]).toMatch(/^\d+$/);
    expect(relayed(r.headers)).toEqual(relayed(sent.answerHeaders));
  });

  it("a POST with Idempotency-Key: the key and the request's fingerprint go to the core, and its replay header comes back", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const post = () =>
      fetch(`${facadeUrl}/v1/customers/${c.externalId}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.writeKey}`, "idempotency-key": "wire-1", "content-type": "application/json" },
        body: JSON.stringify({ name: "Ana Souza", phone: "11 98888-7777" }),
      });
    exchanges.length = 0;
    const first = await post();
    const again = await post();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(await first.text());
    expect(exchanges).toHaveLength(2);
    for (const sent of exchanges) {
      expect(sent.headers["idempotency-key"]).toBe("wire-1");
      expect(sent.headers["x-facade-secret"]).toBe(FACADE_SECRET);
      const body = JSON.parse(sent.body);
      expect(Object.keys(body)).toEqual(["variables", "extensions"]);
      expect(body.extensions.facade).toEqual({ method: "POST", path: `/v1/customers/${c.externalId}`, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    }
    expect(exchanges[1]!.answerHeaders["idempotent-replayed"]).toBe("true");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBe(exchanges[0]!.answerHeaders["idempotent-replayed"] ?? null);
  });

  it("a core that does not know the hash gets the document itself, with the same variables and extensions", async () => {
    const t = await newTenant();
    exchanges.length = 0;
    olderCore = true;
    const r = await fetch(`${facadeUrl}/v1/entitlements?external_id=nobody`, { headers: { authorization: `Bearer ${t.readKey}` } });
    expect(r.status).toBe(200);
    expect(exchanges.map((e) => e.status)).toEqual([400, 200]);
    const [hashOnly, withDocument] = exchanges.map((e) => JSON.parse(e.body));
    expect(Object.keys(hashOnly)).toEqual(["variables", "extensions"]);
    expect(Object.keys(withDocument)).toEqual(["query", "variables", "extensions"]);
    expect(withDocument).toEqual({ ...hashOnly, query: loadOperation("get-entitlements") });
  });

  it("the core's refusal is the /v1 answer: status, body and headers as the core decided them", async () => {
    exchanges.length = 0;
    const r = await fetch(`${facadeUrl}/v1/entitlements?external_id=nobody`, { headers: { authorization: "Bearer bk_test_not_a_key" } });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.status).toBe(401);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ error: expect.any(String), code: "unauthorized" });
  });
});
