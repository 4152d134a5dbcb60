// POST bodies in all three encodings, Idempotency-Key (Stripe semantics) and per-key 429s.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { call, get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";

describe("POST bodies", () => {
  it("accepts JSON, urlencoded and multipart", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    for (const as of ["json", "form", "multipart"] as const) {
      const email = `${as}@example.com`;
      const r = await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email }, { as });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ email, notice: null });
    }
  });

  it("keeps e-mails unique per tenant with the contract's message", async () => {
    const t = await newTenant();
    const a = await makeCustomer(t);
    const b = await makeCustomer(t);
    const r = await post(`/v1/customers/${a.externalId}/email`, t.writeKey, { email: b.email });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("já existe um cliente com esse e-mail neste tenant");
    expect((await post(`/v1/customers/nobody/email`, t.writeKey, { email: "z@example.com" })).status).toBe(404);
  });
});

/** A raw request, for what fetch refuses to send (a GET with a body). */
async function raw(method: string, path: string, headers: Record<string, string>, body: string) {
  const { baseUrl } = await testService();
  const url = new URL(baseUrl);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

// Found by the contract fuzzer (test/fuzz): these were 500s, or statuses the document does not list.
describe("malformed bodies", () => {
  it("answers a malformed multipart body 400 invalid_body: no boundary, cut short, a part without a name", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const path = `/v1/customers/${c.externalId}/email`;
    const part = (name: string, value: string) => `--b0\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    for (const [type, body] of <[string, string][]>[
      ["multipart/form-data", '{"email":"a@example.com"}'],
      ["multipart/form-data; boundary=b0", part("email", "a@example.com") + "--b0\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\ncut"],
      ["multipart/form-data; boundary=b0", part("email", "a@example.com") + part("", "") + "--b0--\r\n"],
    ]) {
      const r = await call("POST", path, { key: t.writeKey, body, as: type });
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { error: "the multipart body is malformed", code: "invalid_body" } });
    }
    expect((await get(`/v1/customers/${c.externalId}/subscriptions`, t.readKey)).status).toBe(200);
  });

  it("answers a deeply nested body 400 invalid_body, with or without Idempotency-Key", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const deep = `{"a":`.repeat(15_000) + "1" + "}".repeat(15_000); // 90 kB, under the limit
    for (const headers of [{}, { "idempotency-key": "deep-1" }] as Record<string, string>[]) {
      const r = await call("POST", `/v1/customers/${c.externalId}/email`, { key: t.writeKey, body: deep, headers });
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { error: "the body is nested too deeply", code: "invalid_body" } });
    }
    const shallow = await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email: "shallow@example.com", extra: { a: { b: [1] } } });
    expect(shallow.status).toBe(200);
  });

  it("does not read the body of a GET: oversized, broken or of another type, it is ignored", async () => {
    const t = await newTenant();
    const auth = { authorization: `Bearer ${t.readKey}` };
    for (const [type, body] of <[string, string][]>[
      ["application/json", JSON.stringify({ x: "y".repeat(150_000) })],
      ["application/json", "{broken"],
      ["multipart/form-data", "no boundary"],
      ["text/plain", "hello"],
    ]) {
      const r = await raw("GET", "/v1/subscriptions", { ...auth, "content-type": type }, body);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { results: [], next: null } });
    }
  });
});

describe("Idempotency-Key", () => {
  it("replays the first answer, refuses another body, and scopes keys per tenant", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const path = `/v1/customers/${c.externalId}/email`;
    const headers = { "idempotency-key": "key-1" };
    const first = await post(path, t.writeKey, { email: "one@example.com" }, { headers });
    expect(first.status).toBe(200);
    // The state moves on; a replay must still answer what the first request answered.
    await post(path, t.writeKey, { email: "two@example.com" });
    const replay = await post(path, t.writeKey, { email: "one@example.com" }, { headers });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await get(`/v1/customers/${c.externalId}/subscriptions`, t.readKey)).status).toBe(200);

    const reused = await post(path, t.writeKey, { email: "three@example.com" }, { headers });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_key_reused");

    const other = await newTenant();
    const oc = await makeCustomer(other);
    const elsewhere = await post(`/v1/customers/${oc.externalId}/email`, other.writeKey, { email: "one@example.com" }, { headers });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refuses a malformed key", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const r = await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email: "a@example.com" }, { headers: { "idempotency-key": "x".repeat(300) } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_idempotency_key");
  });
});

describe("rate limits", () => {
  it("answers 429 per key with Retry-After and RateLimit-* headers, configurable per tenant", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 2) { readRateLimit } }`, { t: t.tenantId });
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 8; i++) {
      const r = await get(`/v1/events`, t.readKey);
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    // 2/s with a 2x burst: four pass in the window, the rest are refused.
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(limited?.status).toBe(429);
    expect(limited?.body.code).toBe("rate_limited");
    expect(limited?.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited?.headers.get("ratelimit-limit")).toBe("4");
    // Another key of another tenant is unaffected.
    const other = await newTenant();
    expect((await get(`/v1/events`, other.readKey)).status).toBe(200);
  });
});
