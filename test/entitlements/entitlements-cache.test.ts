// GET /v1/entitlements answers from each instance's cache, and a change shows: at once on the instance
// that made it (the mutation's fence), within NOTIFY's delivery on every other instance (bound asserted:
// 1 s, where the cache's own expiry is 10 s), and after sandbox clock moves that change statuses.
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../core/tenants/create-api-key.ts";
import { openDb } from "../../prisma/client.ts";
import { seedEntitlements } from "../../bench/entitlements.ts";
import { advanceClock, CARDS, subscribe, subscription } from "../helpers/billing.ts";
import { CHILD_ADMIN_TOKEN, scratchPgDatabase, startChildService, type ChildService, type ScratchDb } from "../helpers/child-service.ts";
import { get, op, post } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";

const BOUND_MS = 1_000;

describe("entitlements cache", () => {
  it("a sandbox clock move past the period end changes the cached answer (past_due, then suspended)", { timeout: 90_000 }, async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T15:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    const externalId = (await subscription(t, sub.subscription_id)).customer.external_id as string;
    const read = async () => (await get(`/v1/entitlements?external_id=${encodeURIComponent(externalId)}`, t.readKey)).body;
    const before = await read();
    expect(await read()).toEqual(before); // second read: from the cache
    expect(before.subscriptions.map((s: { status: string }) => s.status)).toEqual(["active"]);
    expect(before.merged_entitlements).toEqual({ seats: 5, reports: true });

    await advanceClock(t, "2027-04-10T15:00:00.000Z"); // the renewal fails
    const due = await read();
    expect(due.subscriptions.map((s: { status: string }) => s.status)).toEqual(["past_due"]);
    expect(due.merged_entitlements).toEqual({ seats: 5, reports: true });

    await advanceClock(t, "2027-04-19T15:00:00.000Z"); // D+9 fails: suspended, grants nothing
    const suspended = await read();
    expect(suspended.subscriptions.map((s: { status: string }) => s.status)).toEqual(["suspended"]);
    expect(suspended.merged_entitlements).toEqual({});
  });

  it("a new customer, a plan edit and a cancel show on the next read of the same instance", { timeout: 90_000 }, async () => {
    const t = await newTenant();
    const externalId = `later-${Math.random().toString(36).slice(2, 10)}`;
    const read = async () => (await get(`/v1/entitlements?external_id=${encodeURIComponent(externalId)}`, t.readKey)).body;
    expect((await read()).customer_id).toBeNull(); // cached as unknown
    expect((await read()).customer_id).toBeNull();
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.ok, external_id: externalId }); // the hosted checkout, not a mutation
    expect((await read()).subscriptions.map((s: { id: string }) => s.id)).toEqual([sub.subscription_id]);
    expect((await read()).merged_entitlements).toEqual({ seats: 5, reports: true });
    await op(`mutation($p: ID!, $e: JSON!) { updatePlanEntitlements(planId: $p, entitlements: $e) { id } }`, { p: t.planId, e: { seats: 9 } });
    expect((await read()).merged_entitlements).toEqual({ seats: 9 });
    expect((await post(`/v1/subscriptions/${sub.subscription_id}/cancel`, t.writeKey, {})).status).toBe(200);
    expect(await read()).toMatchObject({ subscriptions: [], merged_entitlements: {} });
  });

  const pg = process.env.DATABASE_URL;
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  });

  it.skipIf(!pg)(`two instances on one PostgreSQL: a change through one shows on the other within ${BOUND_MS} ms`, { timeout: 180_000 }, async () => {
    const scratch: ScratchDb = await scratchPgDatabase("ent_cache");
    cleanup.push(() => scratch.drop());
    const a: ChildService = await startChildService({ databaseUrl: scratch.url, role: "api" });
    cleanup.push(() => a.stop());
    const b: ChildService = await startChildService({ databaseUrl: scratch.url, role: "api" });
    cleanup.push(() => b.stop());
    const db = await openDb({ url: scratch.url, poolSize: 2, migrate: false });
    cleanup.push(() => db.close());
    const t = await seedEntitlements(db);
    const { key: writeKey } = await createApiKey(db.prisma, { tenantId: t.tenantId, scope: "WRITE" });
    const path = "/v1/entitlements?external_id=bench-entitlements-customer";
    const read = async (base: string) => {
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${t.key}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { subscriptions: { id: string; entitlements: Record<string, unknown> }[]; merged_entitlements: Record<string, unknown> };
    };
    /** Milliseconds until `b` answers what `ok` accepts (polled every 5 ms), or Infinity after 3 s. */
    const until = async (ok: (body: Awaited<ReturnType<typeof read>>) => boolean) => {
      const start = performance.now();
      while (performance.now() - start < 3_000) {
        if (ok(await read(b.baseUrl))) return performance.now() - start;
        await new Promise((r) => setTimeout(r, 5));
      }
      return Infinity;
    };
    const gqlOn = async (base: string, query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${CHILD_ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: unknown; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };

    // Both instances hold the answer in their caches.
    const first = await read(b.baseUrl);
    expect(first.subscriptions).toHaveLength(2);
    await read(a.baseUrl);
    await read(b.baseUrl);

    // Served from B's cache: a change made with the triggers off (session_replication_role) stays unseen.
    const [, planB] = t.plans;
    await db.sql.exec(`BEGIN; SET LOCAL session_replication_role = replica; UPDATE plans SET entitlements = '{"hidden": true}' WHERE id = '${planB!.planId}'; COMMIT;`);
    await new Promise((r) => setTimeout(r, 300));
    expect((await read(b.baseUrl)).subscriptions[1]!.entitlements).toEqual(first.subscriptions[1]!.entitlements);

    // A plan edit on A.
    const [planA] = t.plans;
    await gqlOn(a.baseUrl, `mutation($p: ID!, $e: JSON!) { updatePlanEntitlements(planId: $p, entitlements: $e) { id } }`, { p: planA!.planId, e: { api_calls: 7777 } });
    expect((await read(a.baseUrl)).subscriptions[0]!.entitlements).toEqual({ api_calls: 7777 }); // own write, at once
    const planMs = await until((body) => body.subscriptions[0]!.entitlements.api_calls === 7777);

    // A cancel on A.
    const gone = first.subscriptions[1]!.id;
    const cancel = await fetch(`${a.baseUrl}/v1/subscriptions/${gone}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${writeKey}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(cancel.status).toBe(200);
    expect((await read(a.baseUrl)).subscriptions.map((s) => s.id)).not.toContain(gone);
    const cancelMs = await until((body) => !body.subscriptions.some((s) => s.id === gone));

    // A write by another process altogether (set-wise SQL, as the billing run does): no instance made it.
    const left = first.subscriptions[0]!.id;
    await db.sql.query(`UPDATE subscriptions SET current_period_end = current_period_end + interval '30 days' WHERE tenant_id = $1 AND id = $2`, [t.tenantId, left]);
    const sqlMs = await until((body) => body.subscriptions[0]!.id === left && (body.subscriptions[0] as { current_period_end?: string }).current_period_end !== (first.subscriptions[0] as { current_period_end?: string }).current_period_end);

    console.log(`instance B saw: plan edit after ${planMs.toFixed(1)} ms, cancel after ${cancelMs.toFixed(1)} ms, raw SQL update after ${sqlMs.toFixed(1)} ms`);
    expect(planMs).toBeLessThan(BOUND_MS);
    expect(cancelMs).toBeLessThan(BOUND_MS);
    expect(sqlMs).toBeLessThan(BOUND_MS);
  });
});
