// /graphql's cost and rate limits: document limits (depth, cycles,
// aliases, cost, tokens), batching off, a 100 kB body cap, /v1's per-key budgets (a mutation field is
// a write) and a cap on failed authentications per client address.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../core/shared/logger.ts";
import { buildService } from "../../server/service.ts";
import { makeCustomer, makePayment, makeSubscription } from "../helpers/factories.ts";
import { get, op } from "../helpers/http.ts";
import { ADMIN_TOKEN, testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { firstError, graphqlRequest } from "./graphql-http.ts";

const RATE_LIMITED = { error: "too many requests; retry after the Retry-After delay", code: "rate_limited" };
const TOO_LARGE = { error: "the request body is too large", code: "payload_too_large" };

/** subscription { customer { subscriptions { customer { … } } } }, `levels` fields deep. */
function cycle(levels: number): string {
  let inner = "id";
  for (let i = levels - 1; i >= 1; i--) inner = `${i % 2 === 1 ? "customer" : "subscriptions"} { ${inner} }`;
  return `query($id: String!) { subscription(id: $id) { ${inner} } }`;
}

describe("document limits", () => {
  it("refuses the 13-level customer/subscriptions cycle, a cycle taken twice within the depth limit, 500 aliases, an over-cost list and 2,000+ tokens with 400 before running anything", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const s = await makeSubscription(t, c.id);
    const aliases = `{ ${Array.from({ length: 500 }, (_, i) => `a${i}: subscription(id: "${s.id}") { id status }`).join(" ")} }`;
    const page = (a: string) => `${a}: events(first: 500) { edges { node { id type createdAt data { __typename } } cursor } pageInfo { hasNextPage endCursor } }`;
    const costly = `{ ${["a", "b", "c", "d"].map(page).join(" ")} }`;
    const tokens = `{ viewer { ${Array.from({ length: 2100 }, () => "kind").join(" ")} } }`;
    const refused = {
      "13-level cycle": { query: cycle(13), variables: { id: s.id } },
      "cycle taken twice at depth 5": { query: cycle(5), variables: { id: s.id } },
      "500 aliases": { query: aliases },
      "four aliased 500-row pages: cost over 50,000": { query: costly },
      "2,100+ tokens": { query: tokens },
    };
    for (const [name, body] of Object.entries(refused)) {
      const r = await graphqlRequest({ body, token: t.readKey });
      expect({ name, status: r.status, code: firstError(r)?.code, data: r.body.data ?? null }).toEqual({ name, status: 400, code: "invalid_parameter", data: null });
      expect(r.ms).toBeLessThan(1_000);
    }
    // The way back once (a subscription's customer's other subscriptions) is an ordinary question.
    const once = await graphqlRequest({ body: { query: cycle(3).replace("id } } } }", "id status } } } }"), variables: { id: s.id } }, token: t.readKey });
    expect(once.body.errors).toBeUndefined();
    expect(once.body.data.subscription.customer.subscriptions).toEqual([{ id: s.id, status: "ACTIVE" }]);
  });

  it("keeps GraphiQL's introspection query and the facade's deepest list queries within the limits", async () => {
    const { getIntrospectionQuery } = await import("graphql");
    const intro = await graphqlRequest({ body: { query: getIntrospectionQuery() }, token: ADMIN_TOKEN });
    expect(intro.status).toBe(200);
    expect(intro.body.data.__schema.queryType.name).toBe("Query");
    const t = await newTenant();
    const deep = await graphqlRequest({ body: { query: `{ exhaustedWebhookDeliveries(first: 500) { edges { node { id event { id } } } } }` }, token: t.readKey });
    expect(deep.status).toBe(200);
    const wide = await graphqlRequest({ body: { query: `{ subscriptions(first: 500) { edges { node { id status customer { email } plan { name } } } } }` }, token: t.readKey });
    expect(wide.status).toBe(200);
  });

  it("costs page sizes given in variables (or their defaults) as if they were literals; the facade's persisted list at 500 rows still runs", async () => {
    const t = await newTenant();
    const pages = (def = "") => `query($n: Int${def}) { ${Array.from({ length: 15 }, (_, i) => `p${i}: events(first: $n) { edges { node { id type createdAt } cursor } pageInfo { hasNextPage endCursor } }`).join(" ")} }`;
    const viaFragment = `query($n: Int) { a: subscriptions(first: $n) { ...Page } b: subscriptions(first: $n) { ...Page } c: subscriptions(first: $n) { ...Page } d: subscriptions(first: $n) { ...Page } }
      fragment Page on QuerySubscriptionsConnection { edges { node { id status customer { email } plan { name } } } }`;
    const refused = {
      "15 aliased first: $n pages, n = 500": { query: pages(), variables: { n: 500 } },
      "the same with a default of 500": { query: pages(" = 500") },
      "four 500-row pages through a fragment": { query: viaFragment, variables: { n: 500 } },
    };
    for (const [name, body] of Object.entries(refused)) {
      const r = await graphqlRequest({ body, token: t.readKey });
      expect({ name, status: r.status, code: firstError(r)?.code, message: firstError(r)?.error, data: r.body.data ?? null }).toEqual({
        name,
        status: 400,
        code: "invalid_parameter",
        message: expect.stringMatching(/^Query Cost limit of 50000 exceeded, found [\d.]+\.$/),
        data: null,
      });
    }
    // Small pages in variables, and one literal 500-row page, stay ordinary questions.
    for (const body of [{ query: pages(), variables: { n: 10 } }, { query: pages() }, { query: `query($n: Int) { subscriptions(first: $n) { edges { node { id } } } }`, variables: { n: 500 } }]) {
      const r = await graphqlRequest({ body, token: t.readKey });
      expect({ status: r.status, errors: r.body.errors }).toEqual({ status: 200, errors: undefined });
    }
    // The facade's own list (a persisted document, first: $first) at its 500-row maximum.
    const listed = await get("/v1/events?limit=500", t.readKey);
    expect(listed.status).toBe(200);
  });

  it("refuses a batch (a JSON array body) with 400", async () => {
    const t = await newTenant();
    const r = await graphqlRequest({ body: [{ query: "{ viewer { kind } }" }, { query: "{ viewer { kind } }" }], token: t.readKey });
    expect(r.status).toBe(400);
    expect(r.body.data ?? null).toBeNull();
  });
});

describe("body size", () => {
  /** Declares (or streams) `size` bytes, sends only `send` of them, and waits for the answer. */
  async function partialPost(size: number, send: number, chunked: boolean): Promise<{ status: number; body: unknown; sentAtAnswer: number }> {
    const { baseUrl } = await testService();
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      let sent = 0;
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: "/graphql",
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(size) }) },
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`no answer after sending ${sent} of ${size} bytes`));
      }, 5_000);
      req.on("response", (res) => {
        const sentAtAnswer = sent;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()), sentAtAnswer });
        });
      });
      req.on("error", () => undefined); // the server closes the connection on a refused body
      const piece = Buffer.alloc(16 * 1024, "x");
      const pump = () => {
        while (sent < send) {
          sent += piece.length;
          if (!req.write(piece)) return void req.once("drain", pump);
        }
      };
      req.write('{"query":"{ viewer { kind } }","pad":"');
      pump();
    });
  }

  it("answers a 25 MB body with 413 and the contract's body, without a key, before reading it (declared) or at the cap (chunked)", async () => {
    const declared = await partialPost(25 * 1024 * 1024, 64 * 1024, false);
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual(TOO_LARGE);
    const chunked = await partialPost(25 * 1024 * 1024, 256 * 1024, true);
    expect(chunked.status).toBe(413);
    expect(chunked.body).toEqual(TOO_LARGE);
    // An ordinary request still passes on a fresh connection.
    expect((await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: ADMIN_TOKEN })).status).toBe(200);
  });
});

describe("per-key rate limits", () => {
  const emails = (n: number, tag: string) =>
    `mutation($e: String!) { ${Array.from({ length: n }, (_, i) => `m${i}: updateCustomerEmail(externalId: $e, email: "${tag}${i}@example.com") { email }`).join(" ")} }`;

  it("counts each mutation field as a write: past the tenant's budget a request gets 429 with Retry-After, and none of its fields runs", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, writePerSecond: 5) { writeRateLimit } }`, { t: t.tenantId }); // 10 per 2 s window
    const first = await graphqlRequest({ body: { query: emails(4, "a"), variables: { e: c.externalId } }, token: t.writeKey });
    expect(first.status).toBe(200);
    const second = await graphqlRequest({ body: { query: emails(4, "b"), variables: { e: c.externalId } }, token: t.writeKey });
    expect(second.status).toBe(200);
    const third = await graphqlRequest({ body: { query: emails(4, "c"), variables: { e: c.externalId } }, token: t.writeKey }); // 12 > 10
    expect(third.status).toBe(429);
    expect(firstError(third)).toEqual(RATE_LIMITED);
    expect(third.body.data ?? null).toBeNull();
    expect(third.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    expect(third.headers["ratelimit-limit"]).toBe("10");
    const svc = await testService();
    expect((await svc.runtime.db.prisma.customer.findUniqueOrThrow({ where: { id: c.id } })).email).toBe("b3@example.com");
    // Reads have their own budget.
    expect((await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: t.readKey })).status).toBe(200);
  });

  it("refuses 12 aliased refundPayment in one request past a budget of 10 writes, and 40 outright: no refund is made", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const s = await makeSubscription(t, c.id);
    const p = await makePayment(t, c.id, s.id, 4990);
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, writePerSecond: 5) { writeRateLimit } }`, { t: t.tenantId });
    const refunds = (n: number) =>
      `mutation($p: String!) { ${Array.from({ length: n }, (_, i) => `r${i}: refundPayment(id: $p, amountCents: 100, reason: "x", revoke: "none") { level message }`).join(" ")} }`;
    const twelve = await graphqlRequest({ body: { query: refunds(12), variables: { p: p.id } }, token: t.writeKey });
    expect(twelve.status).toBe(429);
    expect(firstError(twelve)).toEqual(RATE_LIMITED);
    const forty = await graphqlRequest({ body: { query: refunds(40), variables: { p: p.id } }, token: t.writeKey });
    expect([400, 429]).toContain(forty.status);
    const svc = await testService();
    expect(await svc.runtime.db.prisma.refund.count({ where: { paymentId: p.id } })).toBe(0);
  });

  it("applies the default write budget (20/s, burst 2x): of 60 mutations sent at once, those past 40 get 429", async () => {
    const t = await newTenant();
    await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: t.writeKey }); // the key is cached: all 60 arrive at once
    // A write the core refuses without touching the database (an invalid e-mail), so the embedded
    // database, which runs on the event loop, does not space the requests out.
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async () => (await graphqlRequest({ body: { query: `mutation { updateCustomerEmail(externalId: "nobody", email: "not an e-mail") { email } }` }, token: t.writeKey })).status),
    );
    const limited = statuses.filter((s) => s === 429).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(limited).toBeLessThanOrEqual(20); // 40 fit in one 2 s window (fewer 429s if the burst straddles two)
    expect(limited).toBeGreaterThan(0);
  });

  it("counts a query as one read against the tenant's read budget; the operator token has no per-key budget", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 2) { readRateLimit } }`, { t: t.tenantId }); // 4 per window
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await graphqlRequest({ body: { query: "{ viewer { kind } a: viewer { scope } }" }, token: t.readKey })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const operator: number[] = [];
    for (let i = 0; i < 30; i++) operator.push((await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: ADMIN_TOKEN })).status);
    expect(new Set(operator)).toEqual(new Set([200]));
  });
});

describe("failed authentications", () => {
  it("locks a client address out after 30 failed authentications a minute (429, Retry-After, even for the right token); other addresses are unaffected", async () => {
    const attacker = "127.0.0.7";
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: `adm_guess_${i}`, localAddress: attacker })).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    const right = await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: ADMIN_TOKEN, localAddress: attacker });
    expect(right.status).toBe(429);
    expect(firstError(right)).toEqual(RATE_LIMITED);
    expect(Number(right.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(right.headers["retry-after"])).toBeLessThanOrEqual(60);
    const other = await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: ADMIN_TOKEN, localAddress: "127.0.0.8" });
    expect(other.status).toBe(200);
  });

  it("does not count requests without a credential (nothing is guessed)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await graphqlRequest({ body: { query: "{ viewer { kind } }" }, localAddress: "127.0.0.9" })).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect((await graphqlRequest({ body: { query: "{ viewer { kind } }" }, token: ADMIN_TOKEN, localAddress: "127.0.0.9" })).status).toBe(200);
  });
});

describe("several instances", () => {
  it.runIf(!!process.env.REDIS_URL)("share /graphql's per-key and failed-authentication counters through Redis (REDIS_URL)", async () => {
    const { runtime } = await testService();
    const t = await newTenant();
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 3) { id } }`, { t: t.tenantId });
    const instances = await Promise.all([0, 1].map(() => buildService(runtime.db, createLogger("silent"), runtime.config, { redisUrl: process.env.REDIS_URL })));
    const servers = await Promise.all(
      instances.map(async (svc) => {
        const server = svc.app.listen(0, "127.0.0.1");
        await new Promise<void>((resolve) => server.once("listening", () => resolve()));
        return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      }),
    );
    try {
      const reads: number[] = [];
      for (let i = 0; i < 10; i++) reads.push((await graphqlRequest({ baseUrl: servers[i % 2]!.baseUrl, body: { query: "{ viewer { kind } }" }, token: t.readKey })).status);
      // 3/s with a 2x burst is 6 per window in all, whichever instance answers.
      expect(reads.filter((s) => s === 200)).toHaveLength(6);
      expect(reads.filter((s) => s === 429)).toHaveLength(4);
      // A fresh address each run: Redis keeps the counter for a minute.
      const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
      const guesses: number[] = [];
      for (let i = 0; i < 32; i++) guesses.push((await graphqlRequest({ baseUrl: servers[i % 2]!.baseUrl, body: { query: "{ viewer { kind } }" }, token: `adm_guess_${i}`, localAddress: address })).status);
      expect(guesses.slice(0, 30)).toEqual(Array(30).fill(401));
      expect(guesses.slice(30)).toEqual([429, 429]);
    } finally {
      await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
