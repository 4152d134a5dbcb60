// The service's own memory and speed under the /v1 perf benches' loads: `main.ts --role all` in a
// child process, as deployed (the in-process benches measure a process that also holds the load
// generator and the seeding), on a scratch PostgreSQL database. Loads, in turn: GET /v1/entitlements
// at 10 then 100 connections (bench/entitlements.ts's request), then the keyset walk of
// GET /v1/subscriptions?limit=500 over BENCH_ROWS subscriptions (bench/pagination.ts's), walked twice.
// Printed: the child's RSS once started, its peak (VmHWM) after each load, and the loads' figures.
// Env: BENCH_PG_URL or DATABASE_URL (a server, default the local one), BENCH_SECONDS (default 10),
// BENCH_ROWS (default 100000), BENCH_SERVICE_ROOT (another checkout's main.ts: an old commit's worktree,
// for before/after figures), BENCH_SERVICE_NODE_ARGS (the service's node flags, space-separated; default
// SERVICE_NODE_ARGS, as `npm start` runs it; "" for node's defaults).
import fs from "node:fs";
import autocannon from "autocannon";
import { openDb } from "../prisma/client.ts";
import { scratchPgDatabase, SERVICE_NODE_ARGS, startChildService, type ChildService } from "../test/helpers/child-service.ts";
import { PATH, seedEntitlements } from "./entitlements.ts";
import { isMain, median } from "./harness.ts";
import { fetchPage, seedPagination, type Page } from "./pagination.ts";
import { counter, scrapeMetrics } from "./service-probes.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const TARGET_PEAK_MB = 350;

/** The child's V8 heap (prom-client's default metrics): what is live versus what V8 holds. */
async function heapOf(baseUrl: string): Promise<string> {
  const m = await scrapeMetrics(baseUrl);
  const mb = (name: string) => (counter(m, name) / 1048576).toFixed(0);
  return `heap used ${mb("nodejs_heap_size_used_bytes")} of ${mb("nodejs_heap_size_total_bytes")} MB`;
}

/** VmRSS and VmHWM (peak) of a process in MB, from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

async function walk(base: string, key: string): Promise<{ pages: number; medianMs: number }> {
  const times: number[] = [];
  let rows = 0;
  let after: string | null = null;
  do {
    const { page, ms }: { page: Page; ms: number } = await fetchPage(base, key, after);
    times.push(ms);
    rows += page.results.length;
    after = page.next;
  } while (after);
  if (rows !== ROWS) throw new Error(`walked ${rows} rows, expected ${ROWS}`);
  return { pages: times.length, medianMs: median(times) };
}

export async function main(): Promise<void> {
  const scratch = await scratchPgDatabase("bench_memory");
  const db = await openDb({ url: scratch.url, poolSize: 2 });
  let child: ChildService | undefined;
  try {
    const root = process.env.BENCH_SERVICE_ROOT;
    console.log(`seeding: one entitlements customer, ${ROWS} subscriptions to page through…`);
    const ent = await seedEntitlements(db);
    const pages = await seedPagination(db, ROWS);
    const given = process.env.BENCH_SERVICE_NODE_ARGS;
    const nodeArgs = given === undefined ? SERVICE_NODE_ARGS : given.split(" ").filter(Boolean);
    child = await startChildService({ databaseUrl: scratch.url, role: "all", root, nodeArgs });
    const pid = child.proc.pid!;
    const started = memoryOf(pid);
    console.log(`service: ${root ?? "this checkout"}, node ${nodeArgs.join(" ") || "(no flags)"} main.ts --role all, pid ${pid}`);

    const rows: string[] = [`started               RSS ${started.rss.toFixed(0)} MB, peak so far ${started.peak.toFixed(0)} MB; ${await heapOf(child.baseUrl)}`];
    const headers = { authorization: `Bearer ${ent.key}` };
    const check = await fetch(child.baseUrl + PATH, { headers });
    const text = await check.text();
    if (check.status !== 200 || (JSON.parse(text) as { subscriptions: unknown[] }).subscriptions.length !== 2) throw new Error(`${PATH} answered ${check.status}: ${text}`);
    await autocannon({ url: child.baseUrl + PATH, connections: 10, duration: 1, headers }); // warm-up
    for (const connections of [10, 100]) {
      const r = await autocannon({ url: child.baseUrl + PATH, connections, duration: SECONDS, headers });
      if (r.non2xx || r.errors || r.timeouts) throw new Error(`entitlements at ${connections}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      const m = memoryOf(pid);
      rows.push(`entitlements x${String(connections).padEnd(3)}     ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms; RSS ${m.rss.toFixed(0)} MB, peak ${m.peak.toFixed(0)} MB; ${await heapOf(child.baseUrl)}`);
    }
    for (let i = 1; i <= 2; i++) {
      const w = await walk(child.baseUrl, pages.key);
      const m = memoryOf(pid);
      rows.push(`subscriptions walk ${i}  ${w.pages} pages of 500, median page ${w.medianMs.toFixed(1)} ms; RSS ${m.rss.toFixed(0)} MB, peak ${m.peak.toFixed(0)} MB; ${await heapOf(child.baseUrl)}`);
    }
    const end = memoryOf(pid);
    console.log(`\n== the service's memory under the /v1 loads (PostgreSQL, ${SECONDS} s per load, ${ROWS} subscriptions; noisy: 2 shared cores) ==`);
    for (const r of rows) console.log(r);
    console.log(`service peak RSS      ${end.peak.toFixed(0)} MB  target < ${TARGET_PEAK_MB} MB  ${end.peak < TARGET_PEAK_MB ? "PASS" : "MISS"}`);
  } finally {
    await child?.stop();
    await db.close();
    await scratch.drop().catch((err) => console.error(`could not drop the scratch database: ${err}`));
  }
}

if (isMain(import.meta.url)) await main();
