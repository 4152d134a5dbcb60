// API4 (unrestricted resource consumption): body size (every encoding, declared or chunked), page size
// and request rate. Other caps with their own tests: gateway events at 200 (reads.test.ts), webhook
// responses cut at 1 MiB and 10 s (webhooks/retries.test.ts), read rate limit (post-semantics.test.ts).
import { describe, expect, it } from "vitest";
import openapi from "../../rest-facade/openapi/openapi.json" with { type: "json" };
import { makeCustomer } from "../helpers/factories.ts";
import { call, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const TOO_LARGE = { error: "the request body is too large", code: "payload_too_large" };
const LIMIT = 100 * 1024;

/** A raw POST: a string body sent whole (Content-Length) or as a chunked stream (no length). */
async function rawPost(path: string, headers: Record<string, string>, body: string | FormData, chunked = false) {
  const { baseUrl } = await testService();
  let payload: BodyInit = body;
  if (chunked) {
    const encoded = new Response(body);
    if (body instanceof FormData) headers["content-type"] = encoded.headers.get("content-type")!;
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    payload = new ReadableStream({
      start(c) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) c.enqueue(bytes.slice(i, i + 16 * 1024));
        c.close();
      },
    });
  }
  const res = await fetch(`${baseUrl}${path}`, { method: "POST", headers, body: payload, duplex: "half" } as RequestInit);
  const text = await res.text();
  return { status: res.status, text, body: (() => { try { return JSON.parse(text); } catch { return text; } })() };
}

function bodies(size: number) {
  const form = new FormData();
  form.append("email", "a@example.com");
  for (let left = size, i = 0; left > 0; left -= 40_000, i++) form.append(`f${i}`, "x".repeat(Math.min(left, 40_000))); // each field under the per-field cap
  return {
    json: { type: "application/json", body: JSON.stringify({ email: "a@example.com", pad: "x".repeat(size) }) },
    form: { type: "application/x-www-form-urlencoded", body: new URLSearchParams({ email: "a@example.com", pad: "x".repeat(size) }).toString() },
    multipart: { type: null, body: form },
  };
}

describe("body size", () => {
  it("refuses a body over 100 kB with 413 and the contract's body, in every encoding, declared or chunked, on /v1 and the hosted forms", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const targets: { path: string; headers: Record<string, string> }[] = [
      { path: `/v1/customers/${c.externalId}/email`, headers: { authorization: `Bearer ${t.writeKey}` } },
      { path: `/checkout/${t.monthlyOfferId}`, headers: { accept: "application/json" } },
    ];
    const failures: string[] = [];
    for (const target of targets) {
      for (const [encoding, { type, body }] of Object.entries(bodies(LIMIT + 1024))) {
        for (const chunked of [false, true]) {
          const headers: Record<string, string> = { ...target.headers, ...(type ? { "content-type": type } : {}) };
          const r = await rawPost(target.path, headers, body, chunked);
          if (r.status !== 413 || JSON.stringify(r.body) !== JSON.stringify(TOO_LARGE)) failures.push(`${target.path} ${encoding}${chunked ? " chunked" : ""} -> ${r.status} ${r.text.slice(0, 80)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect((await call("GET", `/v1/customers/${c.externalId}/subscriptions`, { key: t.readKey })).body.subscriptions).toEqual([]);
  });

  it("accepts bodies under the limit in every encoding (the cap is on size, not on form shape)", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    for (const [encoding, { type, body }] of Object.entries(bodies(LIMIT - 8 * 1024))) {
      for (const chunked of [false, true]) {
        const r = await rawPost(`/v1/customers/${c.externalId}/email`, { authorization: `Bearer ${t.writeKey}`, ...(type ? { "content-type": type } : {}) }, body, chunked);
        expect({ encoding, chunked, status: r.status }).toEqual({ encoding, chunked, status: 200 });
      }
    }
  });

  it("answers a malformed or truncated multipart body with 400 invalid_body, never 5xx", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const cut = '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com'; // no closing boundary
    const targets: { path: string; headers: Record<string, string> }[] = [
      { path: `/v1/customers/${c.externalId}/email`, headers: { authorization: `Bearer ${t.writeKey}` } },
      { path: `/checkout/${t.monthlyOfferId}`, headers: { accept: "application/json" } },
    ];
    for (const target of targets) {
      for (const chunked of [false, true]) {
        const r = await rawPost(target.path, { ...target.headers, "content-type": "multipart/form-data; boundary=b" }, cut, chunked);
        expect({ path: target.path, chunked, status: r.status, code: r.body.code }).toEqual({ path: target.path, chunked, status: 400, code: "invalid_body" });
      }
    }
  });
});

describe("page size", () => {
  const paginated = Object.entries(openapi.paths as Record<string, Record<string, any>>)
    .filter(([, ops]) => ops.get?.parameters?.some((p: any) => p.name === "limit" || p.$ref?.endsWith("/limit") || p.$ref?.endsWith("Limit")))
    .map(([path]) => path);

  it("finds the paginated routes in the OpenAPI document", () => {
    expect(paginated).toEqual(expect.arrayContaining(["/v1/subscriptions", "/v1/events", "/v1/customers/{external_id}/payments", "/v1/renewal-campaigns/{campaign_id}/links"]));
  });

  it("answers limit above 500 (or below 1) with 400 invalid_limit on every paginated route, and serves 500", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const failures: string[] = [];
    for (const route of paginated) {
      const path = route.replace("{external_id}", c.externalId).replace("{campaign_id}", "rc_01ARZ3NDEKTSV4RRFFQ69G5FAV");
      for (const limit of ["501", "100000", "0"]) {
        const r = await call("GET", `${path}?limit=${limit}`, { key: t.readKey });
        if (r.status !== 400 || r.body.code !== "invalid_limit") failures.push(`${route}?limit=${limit} -> ${r.status} ${r.text}`);
      }
      if (!route.includes("{campaign_id}")) {
        const ok = await call("GET", `${path}?limit=500`, { key: t.readKey });
        if (ok.status !== 200) failures.push(`${route}?limit=500 -> ${ok.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("request rate", () => {
  it("answers write routes past the per-key limit with 429, Retry-After and RateLimit-*, and the refused request does nothing", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, writePerSecond: 1) { writeRateLimit } }`, { t: t.tenantId });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post(`/v1/customers/${c.externalId}/email`, t.writeKey, { email: `n${i}@example.com` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    const limited = answers[2]!;
    expect(limited.body).toEqual({ error: "too many requests; retry after the Retry-After delay", code: "rate_limited" });
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(limited.headers.get("ratelimit-limit")).toBe("2");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    const svc = await testService();
    expect((await svc.runtime.db.prisma.customer.findUniqueOrThrow({ where: { id: c.id } })).email).toBe("n1@example.com");
    // Reads have their own budget: the refused writes do not starve them.
    expect((await call("GET", `/v1/customers/${c.externalId}/subscriptions`, { key: t.readKey })).status).toBe(200);
  });
});
