// The OpenAPI document's access annotations are what the core enforces, route by route: every /v1
// operation is called with a read key and with the write key of a read-only account. x-required-scope
// "write" answers 403 insufficient_scope to the read key; x-allowed-when-read-only is the only way past
// account_locked. The contract orders 403 before the body and the record, so unknown ids and empty
// bodies are enough: nothing is found, nothing changes.
import { describe, expect, it } from "vitest";
import { newId } from "../../core/shared/ids.ts";
import { openApiDocument } from "../../rest-facade/openapi/docs.ts";
import { call, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

type Operation = { "x-required-scope"?: string; "x-allowed-when-read-only"?: boolean };

/** Ids of the right shape that no tenant has. */
const UNKNOWN: Record<string, string> = {
  external_id: "nobody-here",
  subscription_id: newId("subscription"),
  payment_id: newId("payment"),
  order_id: newId("order"),
  campaign_id: newId("renewalCampaign"),
};

const operations = Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>).flatMap(([template, item]) =>
  Object.entries(item).map(([method, o]) => ({
    method: method.toUpperCase(),
    path: template.replace(/\{([^}]+)\}/g, (_m, name: string) => UNKNOWN[name] ?? name),
    write: o["x-required-scope"] === "write",
    openWhenReadOnly: o["x-allowed-when-read-only"] === true,
  })),
);

describe("the OpenAPI document's scopes are the core's", () => {
  it("documents a scope on every operation", () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const [template, item] of Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, o] of Object.entries(item)) expect(["read", "write"], `${method} ${template}`).toContain(o["x-required-scope"]);
    }
  });

  it("a read key: 403 insufficient_scope on exactly the write operations", async () => {
    const t = await newTenant();
    for (const o of operations) {
      const r = await call(o.method, o.path, { key: t.readKey, ...(o.method === "POST" ? { body: {} } : {}) });
      const refused = r.status === 403 && r.body?.code === "insufficient_scope";
      expect(refused, `${o.method} ${o.path}: ${r.status} ${JSON.stringify(r.body)}`).toBe(o.write);
    }
  });

  it("a read-only account's write key: 403 account_locked on exactly the write operations not open in read-only mode", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: t.tenantId });
    for (const o of operations) {
      const r = await call(o.method, o.path, { key: t.writeKey, ...(o.method === "POST" ? { body: {} } : {}) });
      const locked = r.status === 403 && r.body?.code === "account_locked";
      expect(locked, `${o.method} ${o.path}: ${r.status} ${JSON.stringify(r.body)}`).toBe(o.write && !o.openWhenReadOnly);
    }
  });
});
