// The /v1 facade alone: `main.ts` with GRAPHQL_URL and no DATABASE_URL, in a child process,
// in front of this test process's core (testService). The /v1 contract tests imported at the end run
// through it unchanged: their helpers (call, get, post) send every /v1 request to the facade, while
// set-up (tenants, offers, the clock) goes to the core over GraphQL as usual.
import fs from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/shared/logger.ts";
import { createFacadeApp } from "../../server/facade-process.ts";
import { childDataDir, startChildService, startMainUntilBanner, type ChildService } from "../helpers/child-service.ts";
import { FACADE_SECRET, routeV1Through, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const data = childDataDir("billing-facade-");
let facade: ChildService | undefined;
let facadeUrl: Promise<string>;

// Test files share modules (vitest.config.ts, isolate: false): the facade is started, and the /v1
// helpers routed through it, for this file's tests only.
beforeAll(async () => {
  facadeUrl = (async () => {
    const core = await testService();
    facade = await startChildService({ databaseUrl: "", role: "api", dataDir: data.dir, env: { GRAPHQL_URL: `${core.baseUrl}/graphql`, FACADE_SECRET } });
    return facade.baseUrl;
  })();
  routeV1Through(facadeUrl);
  await facadeUrl;
});

afterAll(async () => {
  routeV1Through(undefined);
  await facade?.stop();
  data.remove();
});

describe("the facade alone (GRAPHQL_URL, no DATABASE_URL)", () => {
  it("starts as the facade, serves /v1 from the core and never opens a database (its data directory stays empty)", async () => {
    const base = await facadeUrl;
    const t = await newTenant();
    const r = await fetch(`${base}/v1/events`, { headers: { authorization: `Bearer ${t.readKey}` } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ results: [], next: null });
    expect(r.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
    expect(facade!.output()).toContain("billing service (facade)");
    expect(fs.readdirSync(data.dir)).toEqual([]);
    // No GraphQL, no hosted pages here: those are the core's.
    expect((await fetch(`${base}/graphql`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it("refuses to start without FACADE_SECRET (the core would not believe it)", async () => {
    const core = await testService();
    await expect(startChildService({ databaseUrl: "", role: "api", env: { GRAPHQL_URL: `${core.baseUrl}/graphql`, FACADE_SECRET: "" }, readyTimeoutMs: 20_000 })).rejects.toThrow(
      /FACADE_SECRET .* is unusable: it is not set/,
    );
  });
});

async function listen(app: ReturnType<typeof createFacadeApp>) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("FACADE_SECRET on the core", () => {
  it("a guessable one stops the core at start (it would let anyone speak as the facade)", async () => {
    const r = await startMainUntilBanner({ FACADE_SECRET: "facade" });
    expect(r.started).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refusing to start: FACADE_SECRET is too weak/);
  });
});

describe("a facade that cannot reach its core", () => {
  const unavailable = { error: "service temporarily unavailable; retry shortly", code: "unavailable" };

  it("answers 503 unavailable with Retry-After when nothing listens at GRAPHQL_URL", async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const f = await listen(createFacadeApp({ graphqlUrl: `http://127.0.0.1:${port}/graphql`, facadeSecret: FACADE_SECRET, logger: createLogger("silent") }));
    try {
      const r = await fetch(`${f.url}/v1/entitlements?external_id=x`, { headers: { authorization: "Bearer bk_test_x" } });
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual(unavailable);
      expect(r.headers.get("retry-after")).toBe("1");
      expect((await fetch(`${f.url}/readyz`)).status).toBe(503);
    } finally {
      f.server.close();
    }
  });

  it("answers 503 unavailable when GRAPHQL_URL names something that is not a GraphQL endpoint", async () => {
    const core = await testService();
    const f = await listen(createFacadeApp({ graphqlUrl: `${core.baseUrl}/nothing-here`, facadeSecret: FACADE_SECRET, logger: createLogger("silent") }));
    try {
      const r = await fetch(`${f.url}/v1/events`, { headers: { authorization: "Bearer bk_test_x" } });
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual(unavailable);
    } finally {
      f.server.close();
    }
  });

  it("answers 503 after its timeout when the core accepts the connection and never answers (no hang)", async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    const port = (silent.address() as AddressInfo).port;
    const f = await listen(createFacadeApp({ graphqlUrl: `http://127.0.0.1:${port}/graphql`, facadeSecret: FACADE_SECRET, logger: createLogger("silent"), timeoutMs: 300 }));
    try {
      const started = Date.now();
      const r = await fetch(`${f.url}/v1/subscriptions`, { headers: { authorization: "Bearer bk_test_x" } });
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual(unavailable);
      expect(r.headers.get("retry-after")).toBe("1");
      expect(Date.now() - started).toBeLessThan(3_000);
      // A POST the facade refuses itself still asks the core first: the same 503, never the refusal.
      const post = await fetch(`${f.url}/v1/payments/pay_x/refund`, { method: "POST", headers: { authorization: "Bearer bk_test_x", "content-type": "application/json" }, body: "{}" });
      expect(post.status).toBe(503);
    } finally {
      f.server.close();
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});

describe("body layouts through the facade", () => {
  it("are held to the same snapshot as in-process /v1 (body-shapes.test.ts, run through the facade below)", () => {
    const snap = (name: string) => fs.readFileSync(new URL(`./__snapshots__/${name}.test.ts.snap`, import.meta.url), "utf8");
    expect(snap("facade-alone")).toBe(snap("body-shapes"));
  });
});

// The /v1 contract, through the facade. body-shapes covers every route of the OpenAPI document once;
// the others cover statuses, bodies, Idempotency-Key, rate limits, scopes and read-only mode. The query
// makes each a module of its own: its tests register here even when the file already ran on its own.
const throughFacade = (file: string) => import(`${file}?through-facade`);
await throughFacade("./body-shapes.test.ts");
await throughFacade("./auth.test.ts");
await throughFacade("./post-semantics.test.ts");
await throughFacade("./reads.test.ts");
await throughFacade("./customers.test.ts");
await throughFacade("./renewal-campaigns.test.ts");
await throughFacade("./openapi-headers.test.ts");
await throughFacade("../security/idempotency-scope.test.ts");
await throughFacade("../security/v1-bad-bodies.test.ts");
