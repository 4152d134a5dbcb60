// API1 (broken object-level authorization): every id a /v1 route takes (path, query or body), listed
// from the committed OpenAPI document so a new route is covered (or fails for want of a fixture) on its
// own. Another tenant's id must answer exactly like an id that does not exist, byte for byte, and
// leave the other tenant's records untouched.
import { describe, expect, it } from "vitest";
import { checkout, subscribe } from "../helpers/billing.ts";
import { call, get } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { createCampaign } from "../campaigns/campaign-helpers.ts";
import { operations } from "./openapi-routes.ts";
import { oneTimeOffer } from "../orders/order-helpers.ts";

type Json = Record<string, any>;

/** Parameters that name a record of the tenant (ids, a customer's external id or e-mail). */
const NAMES_A_RECORD = (name: string) => name.endsWith("_id") || name === "email";

const UNKNOWN: Record<string, string> = {
  subscription_id: "sub_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  payment_id: "pay_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  order_id: "ord_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  campaign_id: "cmp_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  external_id: "ext-nobody-at-all",
  offer_id: "offer_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  email: "nobody-at-all@example.com",
};

/** Bodies that would act if the record were found: the refusal must come from the lookup. */
const FUTURE = new Date(Date.now() + 40 * 86_400_000).toISOString();
const BODIES = (v: Victim): Record<string, Json> => ({
  "POST /v1/customers/{external_id}": { name: "Someone Else", phone: "11987654321" },
  "POST /v1/subscriptions/{subscription_id}/change-plan": { offer_id: v.ids.offer_id },
  "POST /v1/customers/{external_id}/email": { email: "taken-over@example.com" },
  "POST /v1/subscriptions/{subscription_id}/cancel": { reason: "x" },
  "POST /v1/subscriptions/{subscription_id}/reschedule": { next_billing_at: FUTURE },
  "POST /v1/payments/{payment_id}/refund": { amount_cents: 100, reason: "x", revoke: "none" },
});

interface Victim {
  t: TestTenant;
  ids: Record<string, string>;
}

async function victim(): Promise<Victim> {
  const t = await newTenant();
  const externalId = `victim-${Math.random().toString(36).slice(2, 8)}`;
  const email = `${externalId}@example.com`;
  const sub = await subscribe(t.monthlyOfferId, { external_id: externalId, email });
  const payments = await get(`/v1/customers/${externalId}/payments`, t.readKey);
  const order = (await checkout(await oneTimeOffer(t), { external_id: externalId, email }, { pix: true })).body;
  const campaign = await createCampaign(t);
  return {
    t,
    ids: {
      subscription_id: sub.subscription_id,
      payment_id: payments.body.results[0].payment_id,
      order_id: order.order_id!,
      campaign_id: campaign,
      external_id: externalId,
      offer_id: t.yearlyOfferId,
      email,
    },
  };
}

/** Every row of every table that carries the tenant's id, as text: the victim's whole state. */
async function tenantState(tenantId: string): Promise<string> {
  const { runtime } = await testService();
  // The victim's own set-up calls note their keys' last use in a batch written a moment later: written
  // now, so only what the attacker's calls do can differ.
  await runtime.keyUsage.flush();
  const sql = runtime.db.sql;
  const tables = (await sql.query(
    "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'tenant_id' ORDER BY table_name",
  )) as { table_name: string }[];
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await sql.query(`SELECT * FROM "${table_name}" WHERE tenant_id = $1 ORDER BY 1`, [tenantId]);
    parts.push(`${table_name}: ${JSON.stringify(rows)}`);
  }
  return parts.join("\n");
}

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no BOLA fixture for path parameter ${name} (${path}): add one to this test`);
    return encodeURIComponent(values[name]!);
  });
}

describe("object-level authorization on every id", () => {
  const ops = operations();
  const withPathIds = ops.filter((o) => o.pathParams.length > 0);
  const withQueryIds = ops.filter((o) => o.queryParams.some(NAMES_A_RECORD));
  const isId = (name: string) => name.endsWith("_id");
  const withBodyIds = ops.filter((o) => o.bodyFields.some(isId));

  it("finds the id-bearing routes in the OpenAPI document", () => {
    expect(withPathIds.length).toBeGreaterThanOrEqual(19);
    expect(withQueryIds.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(["GET /v1/entitlements", "GET /v1/referrals/link", "GET /v1/subscriptions", "GET /v1/renewal-campaigns/{campaign_id}/link"]),
    );
    expect(withBodyIds.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      "POST /v1/subscriptions/{subscription_id}/change-plan",
      "POST /v1/subscriptions/{subscription_id}/renewal-link",
    ]);
  });

  it("answers another tenant's id in a path exactly like an unknown id (404, same bytes) and changes nothing of it", async () => {
    const v = await victim();
    const attacker = await newTenant();
    const before = await tenantState(v.t.tenantId);
    const failures: string[] = [];
    for (const o of withPathIds) {
      const body = BODIES(v)[`${o.method} ${o.path}`] ?? (o.method === "POST" ? {} : undefined);
      const query = o.queryParams.includes("external_id") ? `?external_id=${v.ids.external_id}` : "";
      const ask = (ids: Record<string, string>) => call(o.method, `${fill(o.path, ids)}${query}`, { key: attacker.writeKey, body });
      const foreign = await ask(v.ids);
      const unknown = await ask(UNKNOWN);
      const label = `${o.method} ${o.path}`;
      if (foreign.status !== 404) failures.push(`${label}: foreign id -> ${foreign.status} ${foreign.text.slice(0, 100)}`);
      if (foreign.status !== unknown.status || foreign.text !== unknown.text) failures.push(`${label}: foreign ${foreign.status} ${foreign.text} != unknown ${unknown.status} ${unknown.text}`);
    }
    expect(failures).toEqual([]);
    expect(await tenantState(v.t.tenantId)).toBe(before);
    // The owner does see each record (the fixtures are real, so the 404s above mean something).
    for (const o of withPathIds.filter((x) => x.method === "GET")) {
      const query = o.queryParams.includes("external_id") ? `?external_id=${v.ids.external_id}` : "";
      const own = await call(o.method, `${fill(o.path, v.ids)}${query}`, { key: v.t.writeKey });
      expect({ route: o.path, status: own.status }).not.toEqual({ route: o.path, status: 404 });
    }
  });

  it("answers another tenant's customer or offer in a query exactly like an unknown one", async () => {
    const v = await victim();
    const attacker = await newTenant();
    const ownCampaign = await createCampaign(attacker);
    const failures: string[] = [];
    for (const o of withQueryIds) {
      for (const name of o.queryParams.filter(NAMES_A_RECORD)) {
        const ask = (value: string) => call(o.method, `${fill(o.path, { campaign_id: ownCampaign })}?${name}=${encodeURIComponent(value)}`, { key: attacker.writeKey });
        const foreign = await ask(v.ids[name]!);
        const unknown = await ask(UNKNOWN[name]!);
        if (foreign.status !== unknown.status || foreign.text !== unknown.text) failures.push(`${o.method} ${o.path}?${name}: foreign ${foreign.status} ${foreign.text} != unknown ${unknown.status} ${unknown.text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers another tenant's id in a body exactly like an unknown one, on the caller's own record", async () => {
    const v = await victim();
    const attacker = await newTenant();
    const own = await subscribe(attacker.monthlyOfferId);
    const failures: string[] = [];
    for (const o of withBodyIds) {
      for (const name of o.bodyFields.filter(isId)) {
        const ask = (value: string) => call(o.method, fill(o.path, { subscription_id: own.subscription_id }), { key: attacker.writeKey, body: { [name]: value } });
        const foreign = await ask(v.ids[name]!);
        const unknown = await ask(UNKNOWN[name]!);
        if (foreign.status < 400 || foreign.status !== unknown.status || foreign.text !== unknown.text) {
          failures.push(`${o.method} ${o.path} {${name}}: foreign ${foreign.status} ${foreign.text} != unknown ${unknown.status} ${unknown.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("keeps lists to the caller's tenant (subscriptions, events, payments of a shared external id)", async () => {
    const v = await victim();
    const attacker = await newTenant();
    // The attacker has a customer with the very same external id: it sees only its own.
    await subscribe(attacker.monthlyOfferId, { external_id: v.ids.external_id!, email: v.ids.email! });
    const subs = await get(`/v1/customers/${v.ids.external_id}/subscriptions`, attacker.readKey);
    expect(subs.body.subscriptions.map((s: Json) => s.subscription_id)).not.toContain(v.ids.subscription_id);
    const pays = await get(`/v1/customers/${v.ids.external_id}/payments`, attacker.readKey);
    expect(pays.body.results.map((p: Json) => p.payment_id)).not.toContain(v.ids.payment_id);
    const all = await get(`/v1/subscriptions?limit=500`, attacker.readKey);
    expect(all.body.results.every((s: Json) => s.subscription_id !== v.ids.subscription_id)).toBe(true);
    const events = await get(`/v1/events?limit=500`, attacker.readKey);
    expect(events.body.results.every((e: Json) => e.tenant_id === attacker.tenantId)).toBe(true);
  });
});
