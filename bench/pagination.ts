// Keyset pagination stays flat: page through every subscription of a large tenant with
// GET /v1/subscriptions?limit=500&after=... over HTTP, and compare the last page with the first.
// (An OFFSET-based list would slow down page by page; `id > after` through the index should not.)
// Env: DATABASE_URL (PostgreSQL; else PGlite in memory), BENCH_ROWS (default 100000).
import assert from "node:assert/strict";
import { newId } from "../core/shared/ids.ts";
import type { Db } from "../prisma/client.ts";
import { closeServer, isMain, listen, liveSubscriptionFields, median, openBench, seedTenant, type Listening } from "./harness.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
export const LIMIT = 500;
const BATCH = 5_000;
const CUSTOMERS = Math.min(1_000, ROWS);
const REPEATS = 20; // single pages are noisy: compare medians of repeated requests
const TARGET_RATIO = 1.5;

export async function seedPagination(db: Db, rows = ROWS) {
  const { prisma } = db;
  const t = await seedTenant(db, "bench pagination", [{ seats: 5 }]);
  const plan = t.plans[0]!;
  const customers = Array.from({ length: Math.min(CUSTOMERS, rows) }, (_, i) => ({
    id: newId("customer"),
    tenantId: t.tenantId,
    externalId: `bench-page-${i}`,
    email: `bench-page-${i}@example.com`,
    name: `Bench ${i}`,
  }));
  await prisma.customer.createMany({ data: customers });
  const fields = liveSubscriptionFields();
  for (let done = 0; done < rows; done += BATCH) {
    const data = Array.from({ length: Math.min(BATCH, rows - done) }, (_, i) => ({
      id: newId("subscription"),
      tenantId: t.tenantId,
      customerId: customers[(done + i) % customers.length]!.id,
      offerId: plan.offerId,
      planId: plan.planId,
      status: "ACTIVE" as const,
      ...fields,
    }));
    await prisma.subscription.createMany({ data });
  }
  // Fresh statistics, as autovacuum would gather after a bulk load. Without them the planner thinks
  // the tenant has a handful of rows and the first page reads and sorts the whole tenant instead.
  await db.sql.exec("ANALYZE subscriptions, customers");
  return t;
}

export interface Page {
  results: { subscription_id: string }[];
  next: string | null;
}

export async function fetchPage(base: string, key: string, after: string | null): Promise<{ page: Page; ms: number }> {
  const url = `${base}/v1/subscriptions?limit=${LIMIT}${after ? `&after=${after}` : ""}`;
  const start = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text}`);
  return { page: JSON.parse(text) as Page, ms };
}

export async function main(): Promise<void> {
  const bench = await openBench();
  let server: Listening | undefined;
  try {
    console.log(`seeding ${ROWS} subscriptions on ${bench.dbLabel}…`);
    const seedStart = performance.now();
    const t = await seedPagination(bench.db);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    server = await listen(bench.svc.app);

    // Walk every page once, remembering each cursor so first and last pages can be replayed.
    const times: number[] = [];
    const cursors: (string | null)[] = [];
    const seen = new Set<string>();
    let rows = 0;
    let after: string | null = null;
    const walkStart = performance.now();
    do {
      cursors.push(after);
      const { page, ms }: { page: Page; ms: number } = await fetchPage(server.url, t.key, after);
      times.push(ms);
      rows += page.results.length;
      for (const r of page.results) seen.add(r.subscription_id);
      after = page.next;
    } while (after);
    const walkSeconds = (performance.now() - walkStart) / 1000;
    assert.equal(rows, ROWS, `expected ${ROWS} rows, got ${rows}`);
    assert.equal(seen.size, rows, `duplicates: ${rows - seen.size}`);

    // Replay the first and the last page, interleaved so both see the same background noise.
    const firstCursor = cursors[0]!;
    const lastCursor = cursors[cursors.length - 1]!;
    const first: number[] = [];
    const last: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      first.push((await fetchPage(server.url, t.key, firstCursor)).ms);
      last.push((await fetchPage(server.url, t.key, lastCursor)).ms);
    }
    const ratio = median(last) / median(first);

    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`\n== GET /v1/subscriptions?limit=${LIMIT} on ${bench.dbLabel} (figures are noisy: 2 shared cores) ==`);
    console.log(`seeded ${ROWS} subscriptions in ${seedSeconds.toFixed(1)} s; walked all pages in ${walkSeconds.toFixed(1)} s`);
    console.log(`pages fetched          ${times.length}`);
    console.log(`total rows             ${rows} (duplicates: ${rows - seen.size})`);
    console.log(`first page (walk)      ${ms(times[0]!)}`);
    console.log(`median page (walk)     ${ms(median(times))}`);
    console.log(`last page (walk)       ${ms(times[times.length - 1]!)}`);
    console.log(`first page, median of ${REPEATS}  ${ms(median(first))}`);
    console.log(`last page, median of ${REPEATS}   ${ms(median(last))}`);
    console.log(`last/first             ${ratio.toFixed(2)}  target <= ${TARGET_RATIO}  ${ratio <= TARGET_RATIO ? "PASS" : "MISS"}`);
  } finally {
    if (server) await closeServer(server);
    await bench.db.close();
  }
}

if (isMain(import.meta.url)) await main();
