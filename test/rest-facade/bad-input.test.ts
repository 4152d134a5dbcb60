// Every read route and the POST route, fed malformed ids, cursors, limits, bodies, content types
// and headers: always a 4xx with the contract's {error, code?} body, never a 5xx.
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";

const ROUTES = [
  "/v1/subscriptions",
  "/v1/subscriptions/sub_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  "/v1/subscriptions/sub_01ARZ3NDEKTSV4RRFFQ69G5FAV/gateway-events",
  "/v1/entitlements",
  "/v1/customers/x/subscriptions",
  "/v1/customers/x/payments",
  "/v1/payments/pay_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  "/v1/events",
];

const QUERIES = [
  "limit=0", "limit=501", "limit=-1", "limit=abc", "limit=1.5", "limit=99999999999999999999", "limit=1&limit=2",
  "after=", "after=nope", "after=sub_", "after=%00", "after[]=x", "after=sub_01ARZ3NDEKTSV4RRFFQ69G5FAV&after=x",
  "status=bogus", "status=", "external_id=a%00b", "offer_id=%00", "email=%00", "status[a]=b", "offer_id[]=1", "external_id[]=a", "email=%E0%A4%A", "type=x",
];

const IDS = ["%20", "..%2F..", "sub_" + "Z".repeat(26), "a".repeat(3000), "%F0%9F%92%A9", "sub_01ARZ3NDEKTSV4RRFFQ69G5FA%00"];

describe("bad input", () => {
  it("never answers 5xx to malformed queries, ids and headers on read routes", async () => {
    const t = await newTenant();
    const failures: string[] = [];
    const check = async (method: string, path: string, headers: Record<string, string> = {}) => {
      const r = await call(method, path, { key: t.readKey, headers, unchecked: true });
      const okBody = r.status < 400 || (typeof r.body === "object" && typeof r.body.error === "string");
      if (r.status >= 500 || !okBody) failures.push(`${method} ${path} -> ${r.status} ${r.text.slice(0, 120)}`);
    };
    for (const route of ROUTES) for (const q of QUERIES) await check("GET", `${route}?${q}`);
    for (const id of IDS) {
      for (const path of [`/v1/subscriptions/${id}`, `/v1/subscriptions/${id}/gateway-events`, `/v1/payments/${id}`, `/v1/customers/${id}/subscriptions`, `/v1/customers/${id}/payments`]) {
        await check("GET", path);
      }
    }
    for (const headers of <Record<string, string>[]>[{ authorization: "Bearer" }, { authorization: "Basic abc" }, { authorization: "Bearer a b c" }, { "x-request-id": "a".repeat(500) }]) {
      const r = await call("GET", "/v1/subscriptions", { headers, unchecked: true });
      if (r.status >= 500 || r.status < 400) failures.push(`headers ${JSON.stringify(headers)} -> ${r.status}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("answers limit, cursor and status errors with their codes", async () => {
    const t = await newTenant();
    expect((await call("GET", "/v1/subscriptions?limit=0", { key: t.readKey })).body.code).toBe("invalid_limit");
    expect((await call("GET", "/v1/subscriptions?limit=abc", { key: t.readKey })).body.code).toBe("invalid_limit");
    expect((await call("GET", "/v1/events?after=nope", { key: t.readKey })).body.code).toBe("invalid_cursor");
    expect((await call("GET", "/v1/customers/x/payments?after=sub_01ARZ3NDEKTSV4RRFFQ69G5FAV", { key: t.readKey })).status).toBe(400);
  });

  it("never answers 5xx to malformed bodies and content types on POST", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const path = `/v1/customers/${c.externalId}/email`;
    const cases: { body: unknown; as?: string; expect: number }[] = [
      { body: "{bad json", expect: 400 },
      { body: "[1,2]", expect: 400 },
      { body: '"text"', expect: 400 },
      { body: "null", expect: 400 },
      { body: "hello", as: "text/plain", expect: 415 },
      { body: "<x/>", as: "application/xml", expect: 415 },
      { body: { email: "x".repeat(200_000) }, expect: 413 },
      { body: { email: 42 }, expect: 400 },
      { body: { email: ["a@b.co"] }, expect: 400 },
      { body: {}, expect: 422 },
      { body: { email: "not-an-email" }, expect: 422 },
    ];
    for (const k of cases) {
      const r = await call("POST", path, { key: t.writeKey, body: k.body, as: k.as, unchecked: k.expect === 413 });
      expect({ status: r.status, body: r.body }).toEqual({ status: k.expect, body: expect.objectContaining({ error: expect.any(String) }) });
    }
  });

  it("answers unknown routes with the contract's 404 body", async () => {
    const t = await newTenant();
    const r = await call("GET", "/v1/nothing-here", { key: t.readKey, unchecked: true });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "route not found", code: "route_not_found" });
  });
});
