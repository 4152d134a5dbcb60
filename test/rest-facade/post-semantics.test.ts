// POST bodies in all three encodings, Idempotency-Key (Stripe semantics) and per-key 429s.
import { describe, expect, it } from "vitest";
import { get, op, post } from "../helpers/http.ts";
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
