// Webhook delivery at volume: events written through recordEvent (core/events/record-event.ts) while the
// production dispatcher (jobs/webhook-delivery.job.ts) runs in this process and POSTs them to loopback
// receivers in a child process (bench/webhook-receiver.ts), which note when each event first arrived.
// "Commit -> first attempt" is that arrival minus the moment the writer's $transaction resolved (one
// machine clock). Three cases, each on its own SANDBOX tenant (loopback URLs allowed; clock_at NULL so
// it runs on the wall clock) in its own scratch database:
//   throughput  20,000 events in transactions of 100, written as fast as they go, to one healthy
//               endpoint; deliveries/s = events / (first commit -> last arrival). Its lag percentiles
//               include the queueing of the burst (information only).
//   latency     200 events/s for 10 s in transactions of 4 (below capacity); p50/p99 commit -> arrival.
//   stalled     5,000 events to two endpoints, one healthy and one that holds every request 10 s before
//               answering 200. Rule: the healthy endpoint's deliveries/s is at least 80% of the
//               throughput case's. The bench stops once the healthy endpoint has every event.
//
// npx tsx bench/webhooks.ts [--db pg|pglite] [--case all|throughput|latency|stalled] [--events 20000]
//   [--batch 100] [--writers 1] [--rate 200] [--seconds 10] [--per-tx 4] [--stalled-events 5000] [--stalled-endpoints 1]
//   [--profile] [--concurrency 96] [--per-endpoint 16]
//   --db pglite: in-memory PGlite, for a quick look (one connection; the targets are for PostgreSQL).
//   --writers: transactions written in parallel in the throughput and stalled cases.
//   --stalled-endpoints: how many stalling endpoints sit beside the healthy one in the stalled case.
//   --profile: a CPU profile of this process (writer + dispatcher) during each case, by who spends it.
//   --concurrency, --per-endpoint: run a WebhookDispatcher with these options (and a 1 s poll) instead of
//     the production job's defaults (96 / 16), to see how the figures move; the targets are for the defaults.
// Every SQL statement this process sends is counted by kind during each case (PostgreSQL only).
// Scratch databases are webhooks_bench_<pid>_<n>, dropped at the end.
// Env: BENCH_PG_URL (else DATABASE_URL, else postgresql://postgres@127.0.0.1:5432): the server to use.
//      BENCH_LOG_LEVEL (default error): the service logger's level.
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { performance as perf } from "node:perf_hooks";
import pg from "pg";
import type { Db } from "../prisma/client.ts";
import { createRuntime } from "../core/create-runtime.ts";
import { createLogger } from "../core/shared/logger.ts";
import { wallClock } from "../core/shared/clock.ts";
import { createTenant } from "../core/tenants/create-tenant.ts";
import { recordEvent } from "../core/events/record-event.ts";
import type { EventType } from "../core/events/event-types.ts";
import { createWebhookEndpoint } from "../core/webhooks/create-webhook-endpoint.ts";
import { WebhookDispatcher, type DispatcherOptions } from "../core/webhooks/dispatcher.ts";
import type { Runtime } from "../core/runtime.ts";
import { startWebhookDelivery } from "../jobs/webhook-delivery.job.ts";
import { Receivers, type EndpointLog, type ReceiverReport } from "./webhook-receiver.ts";
import { isMain, withScratchDb, type DbKind } from "./harness.ts";

// Targets (PostgreSQL) from the issue; the stalled-receiver share is this bench's reading of "does not slow".
const TARGET = { deliveriesPerSecond: 500, p99Ms: 1_000, healthyShareOfThroughput: 0.8 };
const STALL_MS = 10_000;
/** A case gives up waiting for its healthy endpoint after this long (or after 60 s without a new arrival). */
const DEADLINE_MS = 120_000;
const EVENT_TYPE: EventType = "subscription.updated";
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "error";

const LABEL: Record<DbKind, string> = { pg: "PostgreSQL", pglite: "PGlite (in memory)" };
const mark = (ok: boolean) => (ok ? "PASS" : "MISS");


/** A SANDBOX tenant on the wall clock (clock_at NULL) with one all-events endpoint per receiver URL. */
async function seedTenant(db: Db, name: string, urls: string[]): Promise<{ tenantId: string; endpointIds: string[] }> {
  const tenant = await createTenant(db.prisma, wallClock, { name, mode: "SANDBOX" });
  // createTenant starts a sandbox clock at "now"; events written later would never fall due on it.
  await db.prisma.tenant.update({ where: { id: tenant.id }, data: { clockAt: null } });
  const endpointIds: string[] = [];
  for (const url of urls) endpointIds.push((await createWebhookEndpoint(db.prisma, { tenantId: tenant.id, url, events: [] })).id);
  return { tenantId: tenant.id, endpointIds };
}

// --- writing events ------------------------------------------------------------------------------------

/** Event id -> Date.now() right after its transaction resolved. */
type Commits = Map<string, number>;

async function commitEvents(db: Db, tenantId: string, count: number, commits: Commits): Promise<void> {
  const ids = await db.prisma.$transaction(
    async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < count; i++) {
        out.push(await recordEvent(tx, { tenantId, type: EVENT_TYPE, data: { subscription_id: "sub_bench", status: "active", seq: i }, at: new Date() }));
      }
      return out;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
  const at = Date.now();
  for (const id of ids) commits.set(id, at);
}

interface Written {
  commits: Commits;
  transactions: number;
  /** First commit to last commit, s. */
  seconds: number;
  /** Paced writes only: transactions that started more than one interval behind schedule. */
  late: number;
}

/** n events as fast as they go: `writers` loops, each committing `batch` events per transaction. */
async function writeBurst(db: Db, tenantId: string, n: number, batch: number, writers: number): Promise<Written> {
  const commits: Commits = new Map();
  let next = 0;
  let transactions = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < n) {
        const size = Math.min(batch, n - next);
        next += size;
        transactions++;
        await commitEvents(db, tenantId, size, commits);
      }
    }),
  );
  return { commits, transactions, seconds: span(commits) / 1000, late: 0 };
}

/** `rate` events/s for `seconds`, `perTx` per transaction, each started on schedule (not after the previous one). */
async function writePaced(db: Db, tenantId: string, rate: number, seconds: number, perTx: number): Promise<Written> {
  const commits: Commits = new Map();
  const transactions = Math.round((rate * seconds) / perTx);
  const intervalMs = (1000 * perTx) / rate;
  const running: Promise<void>[] = [];
  let late = 0;
  const t0 = performance.now();
  for (let k = 0; k < transactions; k++) {
    const wait = t0 + k * intervalMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait < -intervalMs) late++;
    running.push(commitEvents(db, tenantId, perTx, commits));
  }
  await Promise.all(running);
  return { commits, transactions, seconds: span(commits) / 1000, late };
}

function span(commits: Commits): number {
  let last = -Infinity;
  for (const at of commits.values()) last = Math.max(last, at);
  return last - firstCommit(commits);
}

function firstCommit(commits: Commits): number {
  let first = Infinity;
  for (const at of commits.values()) first = Math.min(first, at);
  return first;
}

// --- measuring -----------------------------------------------------------------------------------------

interface Lag {
  p50: number;
  p99: number;
  max: number;
}

interface Arrivals {
  /** Distinct events of this run that reached the endpoint. */
  delivered: number;
  /** First commit -> last first-arrival, s. */
  seconds: number;
  perSecond: number;
  /** Commit -> first arrival, ms. */
  lag: Lag;
  duplicates: number;
  unsigned: number;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function arrivals(log: EndpointLog, commits: Commits): Arrivals {
  const first = firstCommit(commits);
  const lags: number[] = [];
  let last = first;
  for (const [id, at] of log.arrivals) {
    const committed = commits.get(id);
    if (committed === undefined) continue;
    lags.push(at - committed);
    last = Math.max(last, at);
  }
  lags.sort((a, b) => a - b);
  const seconds = (last - first) / 1000;
  return {
    delivered: lags.length,
    seconds,
    perSecond: lags.length / seconds,
    lag: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) ?? NaN },
    duplicates: log.duplicates,
    unsigned: log.unsigned,
  };
}

/** The deliveries' final states and attempt count of one endpoint, from the database. */
async function deliveryStates(db: Db, endpointId: string): Promise<{ states: string; attempts: number; delivered: number }> {
  const rows = (await db.sql.query(
    `SELECT status::text AS status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY 1 ORDER BY 1`,
    [endpointId],
  )) as { status: string; n: number }[];
  const [att] = (await db.sql.query(
    `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
    [endpointId],
  )) as { n: number }[];
  return {
    states: rows.map((r) => `${r.status.toLowerCase()} ${r.n}`).join(", ") || "none",
    attempts: att?.n ?? 0,
    delivered: rows.find((r) => r.status === "DELIVERED")?.n ?? 0,
  };
}

// Every statement any pg.Client of this process sends (Prisma's pool included), counted by kind.
const STATEMENT_KINDS: [string, RegExp][] = [
  ["claim (WITH candidates ... FOR UPDATE SKIP LOCKED)", /WITH candidates AS/],
  ["release (lease_until = NULL, one row)", /SET lease_until = NULL WHERE id/],
  ["outcomes: INSERT webhook_attempts", /INSERT INTO webhook_attempts/],
  ["outcomes: UPDATE webhook_deliveries", /UPDATE webhook_deliveries d SET\s+status/],
  ["writer: INSERT events + fan-out", /INSERT INTO events/],
  ["BEGIN", /^\s*BEGIN/i],
  ["COMMIT", /^\s*COMMIT/i],
  ["ROLLBACK", /^\s*ROLLBACK/i],
];

interface StatementCounts {
  /** Kind -> statements sent and the summed time to their answers (ms; includes this event loop's delay). */
  byKind: Map<string, { count: number; ms: number }>;
  total: number;
  claimedRows: number;
}

function statementCounter() {
  const byKind = new Map<string, { count: number; ms: number }>();
  let claimedRows = 0;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : (first as { text?: string } | null)?.text;
    if (!text) return original.apply(this, args);
    const kind = STATEMENT_KINDS.find(([, re]) => re.test(text))?.[0] ?? "other";
    const stat = byKind.get(kind) ?? { count: 0, ms: 0 };
    byKind.set(kind, stat);
    stat.count++;
    const t0 = performance.now();
    const done = (res: { rowCount?: number | null } | undefined) => {
      stat.ms += performance.now() - t0;
      if (kind === STATEMENT_KINDS[0]![0]) claimedRows += res?.rowCount ?? 0;
    };
    // pg.Pool#query passes a callback; transactions await the promise form.
    const cb = args.at(-1);
    if (typeof cb === "function") {
      args[args.length - 1] = (err: unknown, res: { rowCount?: number } | undefined) => {
        done(res);
        return (cb as (e: unknown, r: unknown) => void)(err, res);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, () => done(undefined));
    return result;
  };
  return {
    stop(): StatementCounts {
      proto.query = original;
      return { byKind, total: [...byKind.values()].reduce((a, b) => a + b.count, 0), claimedRows };
    },
  };
}

/** Busy CPU time of the whole host (all cores), ms. */
function hostBusyMs(): number {
  return os.cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0);
}

/** CPU of the host's `postgres` processes (Linux /proc; clock ticks taken as 10 ms), ms; null elsewhere. */
function postgresCpuMs(): number | null {
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}

/** CPU figures over a case: this process, the receiver child, PostgreSQL, and the rest of the host. */
function cpuMeter() {
  const host0 = hostBusyMs();
  const pg0 = postgresCpuMs();
  const self0 = process.cpuUsage();
  const elu0 = perf.eventLoopUtilization();
  const t0 = performance.now();
  return {
    stop(receiverCpuMs: number) {
      const wallMs = performance.now() - t0;
      const self = process.cpuUsage(self0);
      const selfMs = (self.user + self.system) / 1000;
      const hostMs = hostBusyMs() - host0;
      const pg1 = postgresCpuMs();
      const postgresMs = pg0 !== null && pg1 !== null ? Math.max(0, pg1 - pg0) : null;
      const restMs = Math.max(0, hostMs - selfMs - receiverCpuMs - (postgresMs ?? 0));
      return { wallMs, selfMs, receiverMs: receiverCpuMs, postgresMs, restMs, hostMs, elu: perf.eventLoopUtilization(elu0).utilization };
    },
  };
}
type CpuFigures = ReturnType<ReturnType<typeof cpuMeter>["stop"]>;

// --profile: a V8 CPU profile of this process (writer + dispatcher), self time by who spends it.
async function cpuProfiler() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  return {
    async stopAndReport(deliveries: number) {
      const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
      session.disconnect();
      const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
      const totals = new Map<string, number>();
      const fns = new Map<string, number>();
      profile.samples.forEach((id, i) => {
        const frame = byNode.get(id)!.callFrame;
        const us = profile.timeDeltas[i] ?? 0;
        const who = category(frame);
        totals.set(who, (totals.get(who) ?? 0) + us);
        if (!who.startsWith("idle")) {
          const fn = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/main\//, "")}`;
          fns.set(fn, (fns.get(fn) ?? 0) + us);
        }
      });
      const all = [...totals.values()].reduce((a, b) => a + b, 0);
      console.log(`-- CPU profile of this process (main thread, self time) --`);
      for (const [who, us] of [...totals.entries()].sort((a, b) => b[1] - a[1])) {
        console.log(`${`${((100 * us) / all).toFixed(1)}%`.padStart(7)}${(us / 1000 / deliveries).toFixed(3).padStart(8)} ms/delivery  ${who}`);
      }
      console.log(`   top functions:`);
      for (const [fn, us] of [...fns.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
        console.log(`${`${((100 * us) / all).toFixed(1)}%`.padStart(7)}  ${fn.slice(0, 120)}`);
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
  if (!url) return functionName === "(idle)" ? "idle (waiting on the database or receiver)" : functionName === "(garbage collector)" ? "garbage collector" : "V8/native";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg?.startsWith("@prisma/")) return "Prisma client runtime (JS)";
  if (pkg === "pg" || pkg?.startsWith("pg-")) return "pg driver";
  if (pkg) return "other packages";
  if (url.startsWith("node:")) return "Node internals (http, net, crypto...)";
  if (/\/core\/webhooks\//.test(url)) return "core/webhooks (dispatcher, claim, sign, post)";
  if (/\/(core|prisma|generated|jobs)\//.test(url)) return "other service code (core/, generated/)";
  return "other";
}

/**
 * The production job, or (--concurrency / --per-endpoint given) a dispatcher with those options and
 * the same 1 s poll, to see how the figures move with them.
 */
async function startDelivery(runtime: Runtime, opts: Partial<DispatcherOptions>): Promise<{ stop(): Promise<void> }> {
  if (Object.keys(opts).length === 0) return startWebhookDelivery(runtime);
  const dispatcher = new WebhookDispatcher(runtime, opts);
  await dispatcher.start();
  const poll = setInterval(() => dispatcher.kick(), 1_000);
  return {
    async stop() {
      clearInterval(poll);
      await dispatcher.stop();
    },
  };
}

// --- one case ------------------------------------------------------------------------------------------

type CaseName = "throughput" | "latency" | "stalled";

interface CaseResult {
  name: CaseName;
  events: number;
  written: Written;
  /** Per endpoint, in the order created: healthy first. */
  endpoints: (Arrivals & { complete: boolean; db: { states: string; attempts: number; delivered: number } })[];
  statements: StatementCounts | null;
  cpu: CpuFigures;
}

interface CaseSpec {
  name: CaseName;
  title: string;
  /** Stall per endpoint (0 = healthy). The first endpoint is the one waited for. */
  stalls: number[];
  events: number;
  write: (db: Db, tenantId: string) => Promise<Written>;
}

async function runCase(kind: DbKind, spec: CaseSpec, profile: boolean, dispatcher: Partial<DispatcherOptions>): Promise<CaseResult> {
  return withScratchDb("webhooks_bench", kind, async (db) => {
    console.log(`\n== ${spec.title} on ${LABEL[kind]} ==`);
    const runtime = await createRuntime(db, createLogger(LOG_LEVEL), { adminToken: "adm_bench", publicUrl: "http://localhost" });
    const receivers = await Receivers.start(spec.stalls.map((stallMs) => ({ stallMs, expect: spec.events })));
    try {
      const { tenantId, endpointIds } = await seedTenant(db, `bench webhooks ${spec.name}`, receivers.urls);
      const delivery = await startDelivery(runtime, dispatcher);
      let stopped = false;
      try {
        const counter = kind === "pg" ? statementCounter() : null;
        const profiler = profile ? await cpuProfiler() : null;
        const cpu = cpuMeter();
        const written = await spec.write(db, tenantId);
        const complete = await receivers.waitFor(0, { deadlineMs: Math.max(DEADLINE_MS, (4_000 * spec.events) / TARGET.deliveriesPerSecond) });
        const report: ReceiverReport = await receivers.collect();
        const cpuFigures = cpu.stop(report.cpuMs);
        // Stop claiming first, then cut the stalled endpoint's held requests so stop() need not wait
        // out their 10 s (without new attempts going to a closed port meanwhile).
        const stopping = delivery.stop();
        stopped = true;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await receivers.close();
        await stopping;
        const statements = counter?.stop() ?? null;
        const endpoints = [];
        for (const [i, log] of report.endpoints.entries()) {
          endpoints.push({ ...arrivals(log, written.commits), complete: i === 0 ? complete : log.arrivals.length >= spec.events, db: await deliveryStates(db, endpointIds[i]!) });
        }
        const result: CaseResult = { name: spec.name, events: spec.events, written, endpoints, statements, cpu: cpuFigures };
        printCase(result, spec);
        if (profiler) await profiler.stopAndReport(Math.max(1, endpoints[0]!.delivered));
        return result;
      } finally {
        if (!stopped) await delivery.stop();
      }
    } finally {
      await receivers.close();
    }
  });
}

function printCase(r: CaseResult, spec: CaseSpec): void {
  const { written, cpu } = r;
  console.log(`written          ${written.commits.size} events in ${written.transactions} transactions, first to last commit ${written.seconds.toFixed(2)} s (${(written.commits.size / Math.max(written.seconds, 1e-3)).toFixed(0)} events/s)${written.late ? `; ${written.late} transactions started late` : ""}`);
  for (const [i, e] of r.endpoints.entries()) {
    const label = spec.stalls[i] ? `stalled (${spec.stalls[i]! / 1000} s) endpoint` : "healthy endpoint";
    console.log(`${label}: ${e.delivered} of ${r.events} events arrived${e.complete ? "" : " (INCOMPLETE)"}, duplicates ${e.duplicates}, unsigned ${e.unsigned}; database: ${e.db.states}; ${e.db.attempts} attempts logged`);
    if (i === 0) {
      console.log(`   first commit -> last arrival ${e.seconds.toFixed(2)} s = ${e.perSecond.toFixed(0)} deliveries/s; commit -> first attempt p50 ${e.lag.p50} ms, p99 ${e.lag.p99} ms, max ${e.lag.max} ms`);
    }
  }
  const healthy = Math.max(1, r.endpoints[0]!.delivered);
  const deliveries = r.endpoints.reduce((n, e) => n + e.db.delivered, 0);
  console.log(
    `CPU              this process ${(cpu.selfMs / 1000).toFixed(1)} s (${(cpu.selfMs / healthy).toFixed(2)} ms per healthy delivery, event loop busy ${(cpu.elu * 100).toFixed(0)}%), receiver ${(cpu.receiverMs / 1000).toFixed(1)} s, ${cpu.postgresMs === null ? "" : `postgres processes ${(cpu.postgresMs / 1000).toFixed(1)} s, `}rest of host ${(cpu.restMs / 1000).toFixed(1)} s; host ${((100 * cpu.hostMs) / cpu.wallMs / os.cpus().length).toFixed(0)}% busy of ${os.cpus().length} cores over ${(cpu.wallMs / 1000).toFixed(1)} s`,
  );
  const s = r.statements;
  if (s) {
    console.log(`SQL statements   ${s.total} in all (${(s.total / Math.max(1, deliveries)).toFixed(2)} per stored delivery); claims brought back ${s.claimedRows} rows for ${deliveries} deliveries`);
    console.log(`    count    total s  mean ms  kind`);
    for (const [kind, { count, ms }] of [...s.byKind.entries()].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(`${String(count).padStart(9)}${(ms / 1000).toFixed(2).padStart(11)}${(ms / count).toFixed(2).padStart(9)}  ${kind}`);
    }
  }
}

// --- the set ---------------------------------------------------------------------------------------------

interface Options {
  events: number;
  batch: number;
  writers: number;
  rate: number;
  seconds: number;
  perTx: number;
  stalledEvents: number;
  stalledEndpoints: number;
}

function specs(o: Options): Record<CaseName, CaseSpec> {
  return {
    throughput: {
      name: "throughput",
      title: `throughput: ${o.events} events (${o.batch} per transaction, ${o.writers} writer${o.writers > 1 ? "s" : ""}) to one healthy endpoint`,
      stalls: [0],
      events: o.events,
      write: (db, t) => writeBurst(db, t, o.events, o.batch, o.writers),
    },
    latency: {
      name: "latency",
      title: `latency: ${o.rate} events/s for ${o.seconds} s (${o.perTx} per transaction) to one healthy endpoint`,
      stalls: [0],
      events: Math.round((o.rate * o.seconds) / o.perTx) * o.perTx,
      write: (db, t) => writePaced(db, t, o.rate, o.seconds, o.perTx),
    },
    stalled: {
      name: "stalled",
      title: `stalled receiver: ${o.stalledEvents} events (${o.batch} per transaction) to a healthy endpoint and ${o.stalledEndpoints === 1 ? "one" : o.stalledEndpoints} that hold${o.stalledEndpoints === 1 ? "s" : ""} each request ${STALL_MS / 1000} s`,
      stalls: [0, ...Array<number>(o.stalledEndpoints).fill(STALL_MS)],
      events: o.stalledEvents,
      write: (db, t) => writeBurst(db, t, o.stalledEvents, o.batch, o.writers),
    },
  };
}

function summary(kind: DbKind, results: Partial<Record<CaseName, CaseResult>>): boolean {
  const note = kind === "pg" ? "" : "   (targets are for PostgreSQL; for reference here)";
  console.log(`\n== webhooks on ${LABEL[kind]} (figures are noisy: ${os.cpus().length} shared cores) ==`);
  console.log(`${"case".padEnd(34)}${"events".padStart(8)}${"arrived".padStart(9)}${"deliv/s".padStart(9)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"max ms".padStart(8)}${"dups".padStart(6)}`);
  const row = (label: string, events: number, e: Arrivals) =>
    console.log(`${label.padEnd(34)}${String(events).padStart(8)}${String(e.delivered).padStart(9)}${e.perSecond.toFixed(0).padStart(9)}${String(e.lag.p50).padStart(8)}${String(e.lag.p99).padStart(8)}${String(e.lag.max).padStart(8)}${String(e.duplicates).padStart(6)}`);
  const { throughput: a, latency: b, stalled: c } = results;
  if (a) row("throughput, 1 endpoint (burst)", a.events, a.endpoints[0]!);
  if (b) row("latency, 1 endpoint (paced)", b.events, b.endpoints[0]!);
  if (c) {
    row("stalled case: healthy endpoint", c.events, c.endpoints[0]!);
    const stalled = c.endpoints.slice(1);
    const arrived = stalled.reduce((n, e) => n + e.delivered, 0);
    const label = stalled.length === 1 ? "stalled case: stalled endpoint" : `stalled case: ${stalled.length} stalled endpoints`;
    console.log(`${label.padEnd(34)}${String(c.events * stalled.length).padStart(8)}${String(arrived).padStart(9)}   (not waited for)`);
  }
  let ok = true;
  const complete = (r: CaseResult) => r.endpoints[0]!.complete && r.endpoints[0]!.delivered === r.events;
  // A healthy endpoint starved past the deadline by stalled ones is the stalled case's MISS, not a lost delivery.
  if (c && !complete(c)) console.log(`stalled case: the healthy endpoint had ${c.endpoints[0]!.delivered} of ${c.events} events when the bench stopped waiting`);
  for (const r of [a, b]) {
    if (r && !complete(r)) {
      console.log(`FAILURE: ${r.name}: ${r.endpoints[0]!.delivered} of ${r.events} events reached the healthy endpoint`);
      ok = false;
    }
  }
  if (a) console.log(`deliveries/s (throughput)                 ${a.endpoints[0]!.perSecond.toFixed(0)}  target >= ${TARGET.deliveriesPerSecond}  ${mark(complete(a) && a.endpoints[0]!.perSecond >= TARGET.deliveriesPerSecond)}${note}`);
  if (b) console.log(`p99 commit -> first attempt (latency)     ${b.endpoints[0]!.lag.p99} ms  target < ${TARGET.p99Ms} ms  ${mark(complete(b) && b.endpoints[0]!.lag.p99 < TARGET.p99Ms)}${note}`);
  if (c && a) {
    const share = c.endpoints[0]!.perSecond / a.endpoints[0]!.perSecond;
    console.log(
      `healthy beside a stalled endpoint         ${c.endpoints[0]!.perSecond.toFixed(0)}/s = ${(share * 100).toFixed(0)}% of the throughput case  target >= ${TARGET.healthyShareOfThroughput * 100}%  ${mark(complete(c) && share >= TARGET.healthyShareOfThroughput)}${note}`,
    );
  } else if (c) console.log(`healthy beside a stalled endpoint         ${c.endpoints[0]!.perSecond.toFixed(0)}/s  (run with the throughput case for the PASS/MISS rule)`);
  return ok;
}

export async function main(argv: string[] = []): Promise<void> {
  const usage =
    "usage: webhooks.ts [--db pg|pglite] [--case all|throughput|latency|stalled] [--events 20000] [--batch 100] [--writers 1] [--rate 200] [--seconds 10] [--per-tx 4] [--stalled-events 5000] [--stalled-endpoints 1] [--profile] [--concurrency 96] [--per-endpoint 16]";
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: "string", default: "pg" },
      case: { type: "string", default: "all" },
      events: { type: "string", default: "20000" },
      batch: { type: "string", default: "100" },
      writers: { type: "string", default: "1" },
      rate: { type: "string", default: "200" },
      seconds: { type: "string", default: "10" },
      "per-tx": { type: "string", default: "4" },
      "stalled-events": { type: "string", default: "5000" },
      "stalled-endpoints": { type: "string", default: "1" },
      profile: { type: "boolean", default: false },
      concurrency: { type: "string" },
      "per-endpoint": { type: "string" },
    },
  });
  const kind = values.db as DbKind;
  const o: Options = {
    events: Number(values.events),
    batch: Number(values.batch),
    writers: Number(values.writers),
    rate: Number(values.rate),
    seconds: Number(values.seconds),
    perTx: Number(values["per-tx"]),
    stalledEvents: Number(values["stalled-events"]),
    stalledEndpoints: Number(values["stalled-endpoints"]),
  };
  const cases: CaseName[] = values.case === "all" ? ["throughput", "latency", "stalled"] : [values.case as CaseName];
  const positive = Object.values(o).every((v) => Number.isSafeInteger(v) && v > 0);
  if ((kind !== "pg" && kind !== "pglite") || !positive || !cases.every((c) => ["throughput", "latency", "stalled"].includes(c))) throw new Error(usage);

  const dispatcher: Partial<DispatcherOptions> = {};
  if (values.concurrency) dispatcher.concurrency = Number(values.concurrency);
  if (values["per-endpoint"]) dispatcher.perEndpoint = Number(values["per-endpoint"]);
  if (Object.values(dispatcher).some((v) => !Number.isSafeInteger(v) || v < 1)) throw new Error(usage);
  if (Object.keys(dispatcher).length) console.log(`dispatcher options: ${JSON.stringify(dispatcher)} (not the production job's defaults)`);

  const all = specs(o);
  const results: Partial<Record<CaseName, CaseResult>> = {};
  for (const name of cases) results[name] = await runCase(kind, all[name], values.profile, dispatcher);
  if (!summary(kind, results)) {
    console.error("\nwebhooks: FAILED (see above)");
    process.exitCode = 1;
  }
}

if (isMain(import.meta.url)) await main(process.argv.slice(2));
