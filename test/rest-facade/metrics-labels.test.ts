// /metrics route labels: one /v1 route has one label,
// whatever answered the request (the route, the key check, the Idempotency-Key check, the limiter).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { get, op, post } from "../helpers/http.ts";
import { metricsText } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { subscribe } from "../helpers/billing.ts";

type Series = Map<string, number>;

const doc = JSON.parse(fs.readFileSync(new URL("../../rest-facade/openapi/openapi.json", import.meta.url), "utf8"));
const TEMPLATES = new Set(Object.keys(doc.paths).map((p) => p.replace(/\{([^}]+)\}/g, ":$1")));

/** http_requests_total as "METHOD route status" -> count. */
async function requestCounts(): Promise<Series> {
  const text = await metricsText();
  const out: Series = new Map();
  for (const m of text.matchAll(/^http_requests_total\{method="([^"]*)",route="([^"]*)",status="(\d+)"\} (\d+)$/gm)) {
    out.set(`${m[1]} ${m[2]} ${m[3]}`, Number(m[4]));
  }
  return out;
}

const delta = (before: Series, after: Series, series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);

describe("/metrics route labels", () => {
  it("gives a /v1 route one label for 200, 404, 401, 400, 403 and 429 alike, and never drops the /v1 prefix", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const before = await requestCounts();

    expect((await get(`/v1/subscriptions/${id}`, t.readKey)).status).toBe(200);
    expect((await get(`/v1/subscriptions/sub_01JABCDEFGHJKMNPQRSTVWXYZ0`, t.readKey)).status).toBe(404);
    expect((await get(`/v1/subscriptions/${id}`, null)).status).toBe(401);
    expect((await get(`/v1/subscriptions/${id}/`, "bk_test_" + "x".repeat(32))).status).toBe(401);
    const badKey = await post(`/v1/subscriptions/${id}/cancel`, t.writeKey, { at_period_end: true }, { headers: { "idempotency-key": "x".repeat(300) } });
    expect(badKey.body.code).toBe("invalid_idempotency_key");
    expect((await post(`/v1/subscriptions/${id}/cancel`, t.readKey)).status).toBe(403);
    expect((await post(`/v1/subscriptions/${id}/cancel`, null)).status).toBe(401);
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 1) { readRateLimit } }`, { t: t.tenantId });
    let limited = 0;
    for (let i = 0; i < 4 && !limited; i++) if ((await get(`/v1/subscriptions/${id}`, t.readKey)).status === 429) limited++;
    expect(limited).toBe(1);
    const other = await newTenant();
    expect((await get(`/v1/no-such-route`, other.readKey, { unchecked: true })).status).toBe(404);

    const after = await requestCounts();
    const one = "/v1/subscriptions/:subscription_id";
    expect(delta(before, after, `GET ${one} 200`)).toBeGreaterThanOrEqual(1);
    expect(delta(before, after, `GET ${one} 404`)).toBe(1);
    expect(delta(before, after, `GET ${one} 401`)).toBe(2);
    expect(delta(before, after, `GET ${one} 429`)).toBe(1);
    const cancel = "/v1/subscriptions/:subscription_id/cancel";
    expect(delta(before, after, `POST ${cancel} 400`)).toBe(1);
    expect(delta(before, after, `POST ${cancel} 403`)).toBe(1);
    expect(delta(before, after, `POST ${cancel} 401`)).toBe(1);
    expect(delta(before, after, `GET unmatched 404`)).toBe(1);

    // Every label is a documented template (or a non-/v1 route), never a stripped or raw path.
    const labels = new Set([...after.keys()].map((k) => k.split(" ")[1]!));
    for (const label of labels) {
      if (label.startsWith("/v1/") && label !== "/v1/openapi.json") expect(TEMPLATES.has(label), label).toBe(true);
      expect(label, label).not.toMatch(/^\/(subscriptions|customers|payments|orders|events|entitlements|referrals|renewal-campaigns)\b/);
      expect(label, label).not.toMatch(/sub_|cus_|pay_|ord_/);
    }
  });
});
