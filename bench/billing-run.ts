// The billing run at volume: seed N card subscriptions due now on the sandbox gateway, run ONE billing
// pass (core/billing/run-billing-pass.ts) and report renewals per second and the peak RSS sampled
// every 50 ms during the pass. Also one dunning cycle end to end over HTTP: hosted checkout with the
// "declines after first" card, advanceClock 45 days, GET /v1/subscriptions/{id} says suspended.
//
// npx tsx bench/billing-run.ts [--n 10000] [--db pg|pglite] [--concurrency 8] [--dunning] [--profile]
//   no arguments: the full set (PostgreSQL 10k and 100k, PGlite 10k, the dunning cycle), each case in
//   its own child process so its peak RSS is its own; then the 100k/10k time ratio.
//   Those children run as a jobs instance is deployed (--max-old-space-size=256, docs/operations/production.md);
//   a case started by hand runs with Node's default heap limit, so its peak RSS is higher.
//   --profile: every SQL statement the pass sends (PostgreSQL), counted per renewal and timed, and a CPU
//   profile of the pass by who spends the main thread (Prisma's Wasm query compiler, its JS runtime, pg...).
// Every case runs in a scratch database (billing_bench_<pid>_<n>, dropped at the end) or in-memory PGlite.
// Env: BENCH_PG_URL (else DATABASE_URL, else postgresql://postgres@127.0.0.1:5432): the server to use.
import { fork } from "node:child_process";
import os from "node:os";
import v8 from "node:v8";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { performance as perf } from "node:perf_hooks";
import pg from "pg";
import type { Db } from "../prisma/client.ts";
import type { Service } from "../server/service.ts";
import { createRuntime } from "../core/create-runtime.ts";
import type { Runtime } from "../core/runtime.ts";
import { createLogger } from "../core/shared/logger.ts";
import { runBillingPass, type BillingPassSummary } from "../core/billing/run-billing-pass.ts";
import { closeServer, isMain, listen, seedCatalog, seedDue, withScratchDb, type DbKind, type Listening } from "./harness.ts";

// Targets (PostgreSQL) from the issue.
const TARGET = { renewalsPerSecond: 300, ratio100kTo10k: 11, peakRssMb: 400, dunningSeconds: 10 };
const ADMIN_TOKEN = "adm_bench";
const SAMPLE_MS = 50;
const MB = 1024 * 1024;
const DAY_MS = 86_400_000;

const LABEL: Record<DbKind, string> = { pg: "PostgreSQL", pglite: "PGlite (in memory)" };

interface PassResult {
  case: "pass";
  n: number;
  db: DbKind;
  concurrency: number;
  seconds: number;
  renewalsPerSecond: number;
  peakRssMb: number;
  ok: boolean;
}

interface DunningResult {
  case: "dunning";
  db: DbKind;
  seconds: number;
  ok: boolean;
}

type CaseResult = PassResult | DunningResult;

const mark = (ok: boolean) => (ok ? "PASS" : "FAIL");


/** The whole service (HTTP, GraphQL) for the dunning story; imported only there so the pass figures are a jobs process's. */
async function service(db: Db): Promise<Service> {
  const { buildService } = await import("../server/service.ts");
  return buildService(db, createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" });
}

/** What a `--role jobs` instance holds: the runtime, no HTTP app or GraphQL schema. */
function jobsRuntime(db: Db): Promise<Runtime> {
  return createRuntime(db, createLogger("silent"), { adminToken: ADMIN_TOKEN, publicUrl: "http://localhost" });
}

// --- one billing pass over N due subscriptions ---------------------------------------------------------

/** Peak process RSS, sampled every 50 ms until stopped. */
function rssSampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, SAMPLE_MS);
  return {
    stop(): number {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

// --profile: every statement any pg.Client sends (Prisma's pool included), counted and timed by SQL text.
interface StatementStat {
  count: number;
  ms: number;
}
function sqlProfiler() {
  const stats = new Map<string, StatementStat>();
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let on = false;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : (first as { text?: string } | null)?.text;
    if (!on || !text) return original.apply(this, args);
    const key = text.replace(/\s+/g, " ").replace(/"public"\./g, "").trim();
    const t0 = performance.now();
    const done = () => {
      const s = stats.get(key) ?? { count: 0, ms: 0 };
      s.count++;
      s.ms += performance.now() - t0;
      stats.set(key, s);
    };
    // pg.Pool#query calls client.query with a callback; Prisma's transactions await the promise form.
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (...cbArgs: unknown[]) => {
        done();
        return (callback as (...a: unknown[]) => unknown)(...cbArgs);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
  return {
    start: () => void (on = true),
    stop: () => {
      on = false;
      proto.query = original;
    },
    report(renewals: number, passSeconds: number) {
      const rows = [...stats.entries()].sort((a, b) => b[1].count - a[1].count || b[1].ms - a[1].ms);
      const total = rows.reduce((sum, [, s]) => sum + s.count, 0);
      const totalMs = rows.reduce((sum, [, s]) => sum + s.ms, 0);
      console.log(`\n-- SQL profile: ${total} statements in the pass, ${(total / renewals).toFixed(2)} per renewal --`);
      console.log(`   (ms = summed client-side latency; statements overlap across connections, so the sum exceeds the pass's ${passSeconds.toFixed(1)} s)`);
      console.log(`${"per renewal".padStart(11)}${"mean ms".padStart(9)}${"share".padStart(7)}  statement`);
      for (const [sql, s] of rows) {
        const shown = sql.length <= 150 ? sql : `${sql.slice(0, 60)} … ${sql.slice(-85)}`;
        console.log(`${(s.count / renewals).toFixed(3).padStart(11)}${(s.ms / s.count).toFixed(2).padStart(9)}${`${((100 * s.ms) / totalMs).toFixed(0)}%`.padStart(7)}  ${shown}`);
      }
    },
  };
}

/** --profile: a V8 CPU profile of the pass alone (inspector), self time summed by who spends it. */
async function cpuProfiler() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  return {
    start: () => session.post("Profiler.start"),
    async stopAndReport(renewals: number) {
      const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
      session.disconnect();
      const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
      const totals = new Map<string, number>();
      profile.samples.forEach((id, i) => {
        const who = category(byNode.get(id)!.callFrame);
        totals.set(who, (totals.get(who) ?? 0) + (profile.timeDeltas[i] ?? 0));
      });
      const all = [...totals.values()].reduce((a, b) => a + b, 0);
      console.log(`\n-- CPU profile of the pass (main thread, self time) --`);
      for (const [who, us] of [...totals.entries()].sort((a, b) => b[1] - a[1])) {
        console.log(`${`${((100 * us) / all).toFixed(1)}%`.padStart(7)}${(us / 1000 / renewals).toFixed(2).padStart(8)} ms/renewal  ${who}`);
      }
    },
  };
}
interface CpuProfile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}
function category({ url, functionName }: { url: string; functionName: string }): string {
  if (url.startsWith("wasm://")) return "Prisma query compiler (Wasm)";
  if (!url) return functionName === "(idle)" ? "idle (waiting on the database)" : functionName === "(garbage collector)" ? "garbage collector" : "V8/native";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg?.startsWith("@prisma/")) return "Prisma client runtime (JS)";
  if (pkg === "pg" || pkg?.startsWith("pg-")) return "pg driver";
  if (pkg) return `other packages`;
  if (url.startsWith("node:")) return "Node internals";
  if (/\/(core|prisma|generated)\//.test(url)) return "service code (core/, generated/)";
  return "other";
}

async function passCase(n: number, kind: DbKind, concurrency: number, profile: boolean): Promise<PassResult> {
  return withScratchDb("billing_bench", kind, async (db) => {
    const runtime = await jobsRuntime(db);
    const effective = db.kind === "pglite" ? 1 : concurrency; // runBillingPass forces 1 on PGlite (one connection)
    console.log(`\n== one billing pass over ${n} due card subscriptions on ${LABEL[kind]}, concurrency ${effective} ==`);
    const seedStart = performance.now();
    const tenantId = await seedDue(db, n);
    console.log(`seeded ${n} customers, cards and due subscriptions in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const profiler = profile && kind === "pg" ? sqlProfiler() : null;
    const cpuProfile = profile ? await cpuProfiler() : null;
    const rssBefore = process.memoryUsage().rss;
    const loadBefore = os.loadavg()[0]!;
    const sampler = rssSampler();
    profiler?.start();
    await cpuProfile?.start();
    const cpu0 = process.cpuUsage();
    const elu0 = perf.eventLoopUtilization();
    const t0 = performance.now();
    const summary: BillingPassSummary = await runBillingPass(runtime, { tenantId, concurrency });
    const seconds = (performance.now() - t0) / 1000;
    const elu = perf.eventLoopUtilization(elu0).utilization;
    const cpu = process.cpuUsage(cpu0);
    profiler?.stop();
    const peak = sampler.stop();

    const paid = await db.prisma.payment.count({ where: { tenantId, status: "PAID" } });
    const others = Object.entries(summary).filter(([k, v]) => k !== "renewed" && k !== "errors" && v > 0);
    const ok = summary.renewed === n && summary.errors === 0 && paid === n;
    const rate = summary.renewed / seconds;
    const peakMb = peak / MB;
    const note = kind === "pg" ? "" : "   (targets are for PostgreSQL; for reference here)";
    if (profiler) profiler.report(Math.max(1, summary.renewed), seconds);
    if (cpuProfile) await cpuProfile.stopAndReport(Math.max(1, summary.renewed));
    console.log(`\nsummary          renewed ${summary.renewed}, errors ${summary.errors}, paid payments ${paid}${others.length ? `, ${others.map(([k, v]) => `${k} ${v}`).join(", ")}` : ""}`);
    if (!ok) console.log(`FAILURE: expected renewed = paid payments = ${n} and errors = 0`);
    console.log(`N                ${n}`);
    console.log(`database         ${LABEL[kind]}`);
    console.log(`pass time        ${seconds.toFixed(2)} s`);
    // Other work on the host skews everything here: say how loaded it was (1-minute load average, 2 cores).
    console.log(`host load        ${loadBefore.toFixed(2)} before the pass, ${os.loadavg()[0]!.toFixed(2)} after (1-minute load average; ${os.cpus().length} cores)`);
    // Where the time goes: this process's CPU per renewal, and how busy its one JavaScript thread was.
    console.log(`node CPU         ${((cpu.user + cpu.system) / 1000 / Math.max(1, summary.renewed)).toFixed(2)} ms per renewal; event loop busy ${(elu * 100).toFixed(0)}% of the pass`);
    console.log(`peak RSS         ${peakMb.toFixed(0)} MB (RSS before the pass ${(rssBefore / MB).toFixed(0)} MB; V8 heap limit ${(v8.getHeapStatistics().heap_size_limit / MB).toFixed(0)} MB)  target < ${TARGET.peakRssMb} MB  ${mark(peakMb < TARGET.peakRssMb)}${note}`);
    console.log(`renewals/s       ${rate.toFixed(0)}  target >= ${TARGET.renewalsPerSecond}  ${mark(rate >= TARGET.renewalsPerSecond)}${note}`);
    return { case: "pass", n, db: kind, concurrency: effective, seconds, renewalsPerSecond: rate, peakRssMb: peakMb, ok };
  });
}

// --- a dunning cycle over HTTP --------------------------------------------------------------------------

async function gql(url: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as { data?: any; errors?: unknown[] };
  if (json.errors?.length) throw new Error(`GraphQL failed: ${JSON.stringify(json.errors)}`);
  return json.data;
}

async function dunningCase(kind: DbKind): Promise<DunningResult> {
  return withScratchDb("billing_bench", kind, async (db) => {
    const svc = await service(db);
    let server: Listening | undefined;
    try {
      console.log(`\n== a dunning cycle on ${LABEL[kind]}: checkout -> renewal declined -> D+1/3/5/9 retries -> suspended ==`);
      server = await listen(svc.app);
      const { url } = server;
      const { tenant, offer } = await seedCatalog(db, "SANDBOX", "bench dunning");
      const key = (await gql(url, `mutation($t: ID!) { createApiKey(tenantId: $t, scope: READ) { key } }`, { t: tenant.id })).createApiKey.key as string;
      const to = new Date(tenant.clockAt!.getTime() + 45 * DAY_MS).toISOString();

      const t0 = performance.now();
      const res = await fetch(`${url}/checkout/${offer.id}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          external_id: "bench-dunning",
          name: "Maria Silva",
          email: "bench-dunning@example.com",
          phone: "11987654321",
          doc: "52998224725",
          method: "card",
          card_holder: "MARIA SILVA",
          card_number: "4000000000000341", // approves the first charge, declines every later one
          card_exp_month: "12",
          card_exp_year: "2035",
          card_cvc: "123",
        }),
      });
      const checkout = (await res.json()) as { status?: string; subscription_id?: string };
      if (res.status !== 201 || !checkout.subscription_id) throw new Error(`checkout answered ${res.status}: ${JSON.stringify(checkout)}`);
      const clock = (
        await gql(
          url,
          `mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { steps renewed chargeFailed pastDue suspended unknown errors } }`,
          { t: tenant.id, to },
        )
      ).advanceClock;
      const got = await fetch(`${url}/v1/subscriptions/${checkout.subscription_id}`, { headers: { authorization: `Bearer ${key}` } });
      const sub = (await got.json()) as { status?: string };
      const seconds = (performance.now() - t0) / 1000;

      const ok = got.status === 200 && sub.status === "suspended" && clock.errors === 0;
      console.log(`checkout         201, subscription ${checkout.status}`);
      console.log(
        `advanceClock     +45 days: ${clock.steps} steps, renewed ${clock.renewed}, charge_failed ${clock.chargeFailed}, past_due ${clock.pastDue}, suspended ${clock.suspended}, unknown ${clock.unknown}, errors ${clock.errors}`,
      );
      console.log(`GET /v1/subscriptions/{id}  ${got.status}, status ${sub.status}`);
      if (!ok) console.log(`FAILURE: expected status suspended and no errors`);
      const note = kind === "pg" ? "" : "   (target is for PostgreSQL; for reference here)";
      console.log(`checkout -> suspension wall time  ${seconds.toFixed(2)} s  target < ${TARGET.dunningSeconds} s  ${mark(ok && seconds < TARGET.dunningSeconds)}${note}`);
      return { case: "dunning", db: kind, seconds, ok };
    } finally {
      if (server) await closeServer(server);
    }
  });
}

// --- the full set, one child process per case --------------------------------------------------------------

const SELF = fileURLToPath(import.meta.url);

/** Runs this script with `args` in a child process (same tsx loader); its figures stream to our stdout. */
function runChild(args: string[]): Promise<CaseResult | null> {
  return new Promise((resolve) => {
    let result: CaseResult | null = null;
    // Each case runs as a jobs instance is deployed: old space capped at 256 MB (docs/operations/production.md).
    const child = fork(SELF, args, { execArgv: [...process.execArgv, "--max-old-space-size=256"], stdio: "inherit" });
    child.on("message", (m) => void (result = m as CaseResult));
    child.on("exit", (code) => resolve(code === 0 ? result : null));
  });
}

async function fullSet(concurrency: number): Promise<boolean> {
  const c = ["--concurrency", String(concurrency)];
  const pg10k = (await runChild(["--n", "10000", "--db", "pg", ...c])) as PassResult | null;
  const pg100k = (await runChild(["--n", "100000", "--db", "pg", ...c])) as PassResult | null;
  const lite10k = (await runChild(["--n", "10000", "--db", "pglite"])) as PassResult | null;
  const dunning = (await runChild(["--dunning", "--db", "pg"])) as DunningResult | null;

  const fmt = (v: number, digits = 0) => v.toFixed(digits).padStart(12);
  console.log(`\n== billing run: ${SELF.split("/").slice(-2).join("/")} (figures are noisy: 2 shared cores) ==`);
  console.log(`${"case".padEnd(26)}${"N".padStart(8)}${"seconds".padStart(12)}${"renewals/s".padStart(12)}${"peak RSS MB".padStart(12)}  result`);
  const rows: [string, number, PassResult | null][] = [
    [`PostgreSQL, concurrency ${concurrency}`, 10_000, pg10k],
    [`PostgreSQL, concurrency ${concurrency}`, 100_000, pg100k],
    ["PGlite (in memory)", 10_000, lite10k],
  ];
  for (const [label, n, r] of rows) {
    if (!r) console.log(`${label.padEnd(26)}${String(n).padStart(8)}  FAILED (see its output above)`);
    else console.log(`${label.padEnd(26)}${String(r.n).padStart(8)}${fmt(r.seconds, 2)}${fmt(r.renewalsPerSecond)}${fmt(r.peakRssMb)}  ${r.ok ? "ok" : "FAILED"}`);
  }
  for (const [label, r] of [["10k", pg10k], ["100k", pg100k]] as const) {
    if (r) console.log(`PostgreSQL ${label.padEnd(5)} renewals/s ${r.renewalsPerSecond.toFixed(0)}  target >= ${TARGET.renewalsPerSecond}  ${mark(r.renewalsPerSecond >= TARGET.renewalsPerSecond)}`);
  }
  for (const [label, r] of [["10k", pg10k], ["100k", pg100k]] as const) {
    if (r) console.log(`PostgreSQL ${label.padEnd(5)} peak RSS ${r.peakRssMb.toFixed(0)} MB  target < ${TARGET.peakRssMb} MB  ${mark(r.peakRssMb < TARGET.peakRssMb)}`);
  }
  if (pg10k && pg100k) {
    const ratio = pg100k.seconds / pg10k.seconds;
    console.log(`PostgreSQL 100k/10k time ratio ${ratio.toFixed(2)}  target <= ${TARGET.ratio100kTo10k}  ${mark(ratio <= TARGET.ratio100kTo10k)}`);
  }
  if (dunning) console.log(`dunning cycle, checkout -> suspension ${dunning.seconds.toFixed(2)} s  target < ${TARGET.dunningSeconds} s  ${mark(dunning.ok && dunning.seconds < TARGET.dunningSeconds)}`);
  else console.log("dunning cycle FAILED (see its output above)");
  return [pg10k, pg100k, lite10k, dunning].every((r) => r?.ok);
}

/** In a child of the full set: hand the figures to the parent, then let go of the IPC channel. */
async function report(r: CaseResult): Promise<void> {
  if (!process.send) return;
  await new Promise<void>((resolve) => process.send!(r, undefined, {}, () => resolve()));
  process.disconnect?.();
}

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      n: { type: "string" },
      db: { type: "string" },
      concurrency: { type: "string", default: "8" },
      dunning: { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
    },
  });
  const concurrency = Number(values.concurrency);
  const kind = (values.db ?? "pg") as DbKind;
  if (!(concurrency >= 1) || (kind !== "pg" && kind !== "pglite")) throw new Error("usage: billing-run.ts [--n 10000] [--db pg|pglite] [--concurrency 8] [--dunning] [--profile]");

  let ok: boolean;
  if (values.dunning) {
    const r = await dunningCase(kind);
    await report(r);
    ok = r.ok;
  } else if (values.n || values.db || values.profile) {
    const n = Number(values.n ?? 10_000);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error("--n must be a positive integer");
    const r = await passCase(n, kind, concurrency, values.profile);
    await report(r);
    ok = r.ok;
  } else {
    ok = await fullSet(concurrency);
  }
  if (!ok) {
    console.error("\nbilling-run: FAILED (see above)");
    process.exitCode = 1;
  }
}

if (isMain(import.meta.url)) await main(process.argv.slice(2));
