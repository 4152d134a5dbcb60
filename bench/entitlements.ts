// GET /v1/entitlements under load, three servers on one database in one process:
//   ceiling: bare Express returning fixed JSON of the same body (what HTTP + Express cost alone);
//   direct:  Express + Prisma the naive way (key lookup, customer, subscriptions: 3 queries, no cache);
//   facade:  the real service (auth cache, rate limit, GraphQL core, one SQL query).
// Env: DATABASE_URL (PostgreSQL; else PGlite in memory), BENCH_SECONDS (per run, default 10),
// BENCH_ONLY=facade (one path only, e.g. under --cpu-prof).
import assert from "node:assert/strict";
import autocannon from "autocannon";
import express, { type Express } from "express";
import type { Db } from "../prisma/client.ts";
import { newId } from "../core/shared/ids.ts";
import { sha256Hex } from "../core/shared/secrets.ts";
import { mergeEntitlements, type Entitlements } from "../core/entitlements/merge-entitlements.ts";
import { closeServer, isMain, listen, liveSubscriptionFields, openBench, seedTenant, type Listening } from "./harness.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LEVELS = [10, 100];
const EXTERNAL_ID = "bench-entitlements-customer";
export const PATH = `/v1/entitlements?external_id=${EXTERNAL_ID}`;
/** Same rule as core/entitlements/get-entitlements.ts: statuses whose plans grant capabilities. */
const GRANTING = new Set(["active", "trialing", "past_due"]);
// Targets (PostgreSQL, 10 connections).
const TARGET = { facadePerCeiling: 0.2, facadePerDirect: 0.6, p99Ms: 20 }; // facade/ceiling 0.2: the promised floor

/** One customer, two live subscriptions on plans with overlapping entitlements, and a canceled one both paths must skip. */
export async function seedEntitlements(db: Db) {
  const t = await seedTenant(db, "bench entitlements", [
    { api_calls: 1000, sso: false, tier: "basic" },
    { api_calls: 5000, sso: true, seats: 10 },
  ]);
  const customerId = newId("customer");
  await db.prisma.customer.create({
    data: { id: customerId, tenantId: t.tenantId, externalId: EXTERNAL_ID, email: "bench-entitlements@example.com", name: "Bench" },
  });
  const [a, b] = t.plans as [SeededPlan, SeededPlan];
  const sub = (p: SeededPlan, status: "ACTIVE" | "CANCELED") => ({
    id: newId("subscription"),
    tenantId: t.tenantId,
    customerId,
    offerId: p.offerId,
    planId: p.planId,
    status,
    ...liveSubscriptionFields(),
    // A canceled subscription is final: no next billing instant, a cancel time (database CHECK).
    ...(status === "CANCELED" ? { nextBillingAt: null, canceledAt: new Date() } : {}),
  });
  await db.prisma.subscription.createMany({ data: [sub(a, "ACTIVE"), sub(b, "ACTIVE"), sub(b, "CANCELED")] });
  return t;
}
type SeededPlan = { planId: string; offerId: string };

/** What a straightforward app would write: no key cache, three Prisma calls per request. */
function directApp(db: Db): Express {
  const app = express();
  app.disable("x-powered-by");
  app.get("/v1/entitlements", async (req, res) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "")?.[1];
    const key = token ? await db.prisma.apiKey.findUnique({ where: { hash: sha256Hex(token) }, include: { tenant: true } }) : null;
    if (!key || key.revokedAt || key.tenant.suspended) return void res.status(401).json({ error: "unauthorized" });
    const externalId = typeof req.query.external_id === "string" ? req.query.external_id : "";
    const customer = await db.prisma.customer.findUnique({ where: { tenantId_externalId: { tenantId: key.tenantId, externalId } } });
    if (!customer) return void res.json({ customer_id: null, subscriptions: [], merged_entitlements: {} });
    const rows = await db.prisma.subscription.findMany({
      where: { tenantId: key.tenantId, customerId: customer.id, status: { not: "CANCELED" } },
      include: { plan: true, offer: true },
      orderBy: { id: "asc" },
    });
    const subscriptions = rows.map((s) => ({
      id: s.id,
      status: s.status.toLowerCase(),
      plan_id: s.planId,
      interval: (s.offer.interval ?? "MONTH").toLowerCase(),
      current_period_end: s.currentPeriodEnd?.toISOString() ?? null,
      entitlements: (s.plan.entitlements ?? {}) as Entitlements,
    }));
    const merged = mergeEntitlements(subscriptions.filter((s) => GRANTING.has(s.status)).map((s) => s.entitlements));
    res.json({ customer_id: customer.id, subscriptions, merged_entitlements: merged });
  });
  return app;
}

/** The ceiling: Express with nothing behind it, answering the same bytes. */
function ceilingApp(body: unknown): Express {
  const app = express();
  app.disable("x-powered-by");
  app.get("/v1/entitlements", (_req, res) => void res.json(body));
  return app;
}

async function getJson(url: string, key: string): Promise<unknown> {
  const res = await fetch(url + PATH, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}${PATH} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

interface Row {
  path: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function run(path: string, url: string, key: string, connections: number, seconds: number): Promise<Row> {
  // The load generator runs in a worker thread so it does not share the servers' event loop.
  const r = await autocannon({ url: url + PATH, connections, duration: seconds, headers: { authorization: `Bearer ${key}` }, workers: 1 });
  return { path, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

const mark = (ok: boolean) => (ok ? "PASS" : "MISS");
const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9);

function report(dbLabel: string, results: Map<number, Row[]>, postgres: boolean): void {
  console.log(`\n== GET /v1/entitlements on ${dbLabel}, ${SECONDS} s per run (figures are noisy: 2 shared cores) ==`);
  for (const [connections, rows] of results) {
    console.log(`\n${connections} connections`);
    console.log(`${"path".padEnd(9)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"non-2xx".padStart(9)}${"errors".padStart(9)}`);
    for (const r of rows) console.log(`${r.path.padEnd(9)}${fmt(r.rps)}${fmt(r.p50, 1)}${fmt(r.p99, 1)}${fmt(r.non2xx)}${fmt(r.errors)}`);
    const [ceiling, direct, facade] = rows as [Row, Row, Row];
    const perDirect = facade.rps / direct.rps;
    const perCeiling = facade.rps / ceiling.rps;
    if (connections !== 10) {
      console.log(`facade/direct  ${perDirect.toFixed(3)}   facade/ceiling ${perCeiling.toFixed(3)}   (targets are set at 10 connections)`);
      continue;
    }
    const note = postgres ? "" : "   (targets are for PostgreSQL; for reference here)";
    console.log(`facade/direct  ${perDirect.toFixed(3)}  target >= ${TARGET.facadePerDirect}   ${mark(perDirect >= TARGET.facadePerDirect)}${note}`);
    console.log(`facade/ceiling ${perCeiling.toFixed(3)}  target >= ${TARGET.facadePerCeiling}  ${mark(perCeiling >= TARGET.facadePerCeiling)}${note}`);
    console.log(`facade p99     ${facade.p99.toFixed(1)} ms  target < ${TARGET.p99Ms} ms  ${mark(facade.p99 < TARGET.p99Ms)}${note}`);
  }
  const failed = [...results.values()].flat().filter((r) => r.non2xx || r.errors);
  console.log(failed.length ? `\nWARNING: non-2xx or errors in: ${failed.map((r) => r.path).join(", ")}` : "\nnon-2xx and errors: 0 on every run");
}

export async function main(): Promise<void> {
  const { db, svc, dbLabel } = await openBench();
  const servers: Listening[] = [];
  try {
    const t = await seedEntitlements(db);
    const facade = await listen(svc.app);
    const direct = await listen(directApp(db));
    servers.push(facade, direct);

    // The comparison only means something if both paths answer the same body.
    const facadeBody = await getJson(facade.url, t.key);
    assert.deepStrictEqual(await getJson(direct.url, t.key), facadeBody, "direct and facade bodies differ");
    assert.equal((facadeBody as { subscriptions: unknown[] }).subscriptions.length, 2, "expected 2 live subscriptions");
    const ceiling = await listen(ceilingApp(facadeBody));
    servers.push(ceiling);
    assert.deepStrictEqual(await getJson(ceiling.url, t.key), facadeBody);
    console.log(`bodies match: ${JSON.stringify(facadeBody)}`);

    const only = process.env.BENCH_ONLY;
    const targets = ([["ceiling", ceiling.url], ["direct", direct.url], ["facade", facade.url]] as [string, string][]).filter(([name]) => !only || name === only);
    console.log("warming up (1 s each)…");
    for (const [name, url] of targets) await run(name, url, t.key, 10, 1);
    const results = new Map<number, Row[]>();
    for (const connections of LEVELS) {
      const rows: Row[] = [];
      for (const [name, url] of targets) {
        console.log(`running ${name} at ${connections} connections for ${SECONDS} s…`);
        rows.push(await run(name, url, t.key, connections, SECONDS));
      }
      results.set(connections, rows);
    }
    if (only) for (const [c, rows] of results) console.log(`${c} connections: ${JSON.stringify(rows)}`);
    else report(dbLabel, results, db.kind === "postgres");
  } finally {
    for (const s of servers) await closeServer(s);
    await db.close();
  }
}

if (isMain(import.meta.url)) await main();
