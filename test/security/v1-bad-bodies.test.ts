// /v1 side of malformed input: JSON bodies the database cannot hold (unpaired UTF-16 surrogates) or nested
// past 40 levels are the client's 400 {error, code: invalid_body}, never a 500, and nothing is stored
// (not even the Idempotency-Key: the same key then runs a valid body).
import { describe, expect, it } from "vitest";
import { call, get, op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { makeCustomer } from "../helpers/factories.ts";
import { subscribe, subscription } from "../helpers/billing.ts";

const SURROGATE_FAULT = { error: "the body holds an unpaired UTF-16 surrogate", code: "invalid_body" };
const DEPTH_FAULT = { error: "the body is nested too deeply", code: "invalid_body" };
const PHONE = "+5511987654321";

describe("/v1 JSON bodies the service cannot store", () => {
  it("answers 400 invalid_body for an unpaired surrogate in a value or a key, stores nothing and keeps the Idempotency-Key free", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, writePerSecond: 200) { writeRateLimit } }`, { t: t.tenantId });
    const c = await makeCustomer(t);
    const { subscription_id: sub } = await subscribe(t.monthlyOfferId);
    const customerPath = `/v1/customers/${c.externalId}`;
    const cancelPath = `/v1/subscriptions/${sub}/cancel`;

    // Raw JSON text: JSON.stringify would escape nothing here, the escapes are the point.
    const bad: [string, string][] = [
      [customerPath, `{"name":"Ana \\ud800 Silva","phone":"${PHONE}"}`],
      [customerPath, `{"name":"Ana \\udfff Silva","phone":"${PHONE}"}`],
      [customerPath, `{"name":"Ana \\udc00\\ud800 Silva","phone":"${PHONE}"}`],
      [customerPath, `{"name":"Ana Silva","phone":"${PHONE}","\\ud800":"x"}`],
      [customerPath, `{"name":"Ana Silva","phone":"${PHONE}","extra":{"list":["ok","\\ud83d"]}}`],
      [cancelPath, `{"reason":"motivo \\ud800","at_period_end":true}`],
    ];
    for (const [i, [path, body]] of bad.entries()) {
      for (const headers of [{}, { "idempotency-key": `surrogate-${i}` }] as Record<string, string>[]) {
        const r = await call("POST", path, { key: t.writeKey, body, headers });
        expect({ path, body, status: r.status, answer: r.body }).toEqual({ path, body, status: 400, answer: SURROGATE_FAULT });
      }
    }
    expect((await subscription(t, sub)).status).toBe("active");
    expect((await subscription(t, sub)).cancel_at_period_end).toBe(false);

    // Nothing was recorded under the keys: the same key now runs a valid (different) body.
    const ok = await post(customerPath, t.writeKey, { name: "Ana 😀 Silva", phone: PHONE }, { headers: { "idempotency-key": "surrogate-0" } });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe("Ana 😀 Silva");
    const canceled = await post(cancelPath, t.writeKey, { reason: "motivo 😀", at_period_end: true }, { headers: { "idempotency-key": "surrogate-5" } });
    expect(canceled.status).toBe(200);
    expect(canceled.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 400 invalid_body for a body nested past 40 levels (objects or arrays, JSON or multipart), with or without Idempotency-Key", async () => {
    const t = await newTenant();
    const c = await makeCustomer(t);
    const path = `/v1/customers/${c.externalId}`;
    const objects = `{"name":"Ana Silva","phone":"${PHONE}","x":` + `{"a":`.repeat(41) + "1" + "}".repeat(41) + "}";
    const arrays = `{"name":"Ana Silva","phone":"${PHONE}","x":` + "[".repeat(41) + "1" + "]".repeat(41) + "}";
    for (const [i, body] of [objects, arrays].entries()) {
      for (const headers of [{}, { "idempotency-key": `deep-${i}` }] as Record<string, string>[]) {
        const r = await call("POST", path, { key: t.writeKey, body, headers });
        expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: DEPTH_FAULT });
      }
    }
    const form = await post(path, t.writeKey, { name: "Ana Silva", phone: PHONE, ["x" + "[a]".repeat(41)]: "1" }, { as: "multipart" });
    expect({ status: form.status, body: form.body }).toEqual({ status: 400, body: DEPTH_FAULT });
    const customer = await get(`/v1/customers/${c.externalId}/subscriptions`, t.readKey);
    expect(customer.status).toBe(200);
    const ok = await post(path, t.writeKey, { name: "Bia Souza", phone: PHONE }, { headers: { "idempotency-key": "deep-0" } });
    expect(ok.status).toBe(200);
  });
});
