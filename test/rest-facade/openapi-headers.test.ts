// The response headers the service really sends on /v1 (rate limits, Idempotency-Key replays) are the
// ones the OpenAPI document names for that answer.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { get, post, type HttpResult } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";

type Json = Record<string, any>;
const doc: Json = JSON.parse(fs.readFileSync(new URL("../../rest-facade/openapi/openapi.json", import.meta.url), "utf8"));
const resolve = (ref: string): Json => ref.replace(/^#\//, "").split("/").reduce((n: Json, k) => n[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);

/** Header names (lower case) documented for one answer. */
function documentedHeaders(method: string, template: string, status: number): string[] {
  const r = doc.paths[template][method].responses[String(status)];
  const response = r.$ref ? resolve(r.$ref) : r;
  return Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
}

/** The rate-limit and replay headers an answer carries (lower case). */
const sentHeaders = (r: HttpResult) => [...r.headers.keys()].filter((h) => h.startsWith("ratelimit") || h === "idempotent-replayed" || h === "retry-after");

describe("documented response headers", () => {
  it("names every RateLimit-* and Idempotent-Replayed header a /v1 answer carries", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const path = `/v1/customers/${c.externalId}/email`;
    const template = "/v1/customers/{external_id}/email";
    const k = { headers: { "idempotency-key": `hdr-${Math.random().toString(36).slice(2)}` } };

    const read = await get("/v1/events", t.readKey);
    expect(read.status).toBe(200);
    const first = await post(path, t.writeKey, { email: "hdr@example.com" }, k);
    const replay = await post(path, t.writeKey, { email: "hdr@example.com" }, k);
    const refused = await post(path, t.readKey, { email: "hdr@example.com" });
    const unauthorized = await get("/v1/events", null);

    expect(sentHeaders(read).sort()).toEqual(["ratelimit-limit", "ratelimit-policy", "ratelimit-remaining", "ratelimit-reset"]);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(sentHeaders(unauthorized)).toEqual([]);
    const cases: [HttpResult, string, string][] = [
      [read, "get", "/v1/events"],
      [first, "post", template],
      [replay, "post", template],
      [refused, "post", template],
      [unauthorized, "get", "/v1/events"],
    ];
    for (const [answer, method, tpl] of cases) {
      const documented = documentedHeaders(method, tpl, answer.status);
      for (const h of sentHeaders(answer)) expect(documented, `${method} ${tpl} ${answer.status} sends ${h}`).toContain(h);
    }
  });
});
