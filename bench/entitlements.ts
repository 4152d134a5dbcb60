// GET /v1/entitlements as a user would measure it, on PostgreSQL, in three kinds of process:
//   service: `main.ts --role all` in its own process, as `npm start` runs it, on a scratch database;
//   ceiling: bare Express in its own process answering the same bytes (what HTTP + Express cost alone);
//   load:    autocannon in a process of its own for each run (bench/load-generator.ts).
// Runs alternate (ceiling, service[, old service]) at each concurrency, for BENCH_ROUNDS rounds, so a
// host whose speed moves within minutes moves every column alike; the ratio of each round is taken
// against that round's ceiling run, and the median over the rounds is printed. While one column runs, the
// others' servers are paused (SIGSTOP), so each has the host to itself.
// Env: BENCH_PG_URL or DATABASE_URL (the server; default the local one), BENCH_SECONDS (per run, default
// 10), BENCH_ROUNDS (default 3), BENCH_SERVICE_ROOT (the checkout whose main.ts is "service", default
// this one), BENCH_OLD_ROOT (a second checkout, e.g. an older commit, run as "old" in the same
// alternation), BENCH_ONLY=service|old|ceiling (one column, e.g. under CHILD_NODE_ARGS=--cpu-prof).
import { spawn } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import { pgPoolConfig } from "../prisma/connection.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "../prisma/client.ts";
import { openDb } from "../prisma/client.ts";
import { newId } from "../core/shared/ids.ts";
import { freePort, scratchPgDatabase, startChildService, type ChildService, type ScratchDb } from "../test/helpers/child-service.ts";
import { isMain, liveSubscriptionFields, median, seedTenant } from "./harness.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LEVELS = [10, 100];
const EXTERNAL_ID = "bench-entitlements-customer";
export const PATH = `/v1/entitlements?external_id=${EXTERNAL_ID}`;
/** Issue targets, PostgreSQL on this 2-core host, three processes. */
const TARGET = { perCeiling: 0.25, p99Ms: 10 };

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

interface Row {
  /** CPU milliseconds per answered request: the server's process, and PostgreSQL's backends for it. */
  cpuMs?: number;
  pgCpuMs?: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface Column {
  name: string;
  url: string;
  authorization: string;
  /** The server's process, and the PostgreSQL backends serving it (none for the ceiling). */
  pids(): Promise<{ server: number; pg: number[] }>;
  stop(): Promise<void>;
}

/** utime + stime of a process in ms (/proc, 100 ticks/s), or undefined once gone. */
function cpuOf(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** CPU ms spent by the processes alive both before and after. */
function cpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, start] of before) {
    const end = cpuOf(pid);
    if (end !== undefined) total += end - start;
  }
  return total;
}

function snapshot(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const c = cpuOf(pid);
    if (c !== undefined) out.set(pid, c);
  }
  return out;
}

/** A node script of bench/ under tsx, its stdout collected; resolves with it when the process exits 0. */
function runScript(script: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(HERE, script), ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  const done = new Promise<string>((resolve, reject) =>
    proc.once("exit", (code, signal) => (code === 0 || signal === "SIGTERM" ? resolve(out) : reject(new Error(`${script} exited ${code ?? signal}: ${out}`)))),
  );
  return { proc, done, output: () => out };
}

async function getText(url: string, authorization: string): Promise<string> {
  const res = await fetch(url + PATH, { headers: { authorization } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}${PATH} answered ${res.status}: ${text}`);
  return text;
}

/** A service checkout in its own process on a scratch database of its own, seeded after it migrated it. */
async function startService(name: string, root: string | undefined): Promise<{ column: Column; body: string }> {
  const scratch: ScratchDb = await scratchPgDatabase(`bench_ent_${name}`);
  let child: ChildService | undefined;
  let db: Db | undefined;
  try {
    child = await startChildService({ databaseUrl: scratch.url, role: "all", root });
    // The service applied its own migrations; this process only adds rows. An older checkout's schema
    // lacks this checkout's newer columns, which the seeding's client selects: add them (additive only;
    // the old service never reads them).
    db = await openDb({ url: scratch.url, poolSize: 2, migrate: !!root });
    const t = await seedEntitlements(db);
    await db.close();
    db = undefined;
    const authorization = `Bearer ${t.key}`;
    const body = await getText(child.baseUrl, authorization);
    if ((JSON.parse(body) as { subscriptions: unknown[] }).subscriptions.length !== 2) throw new Error(`expected 2 live subscriptions: ${body}`);
    const c = child;
    // Asks PostgreSQL which backends serve the service's database (its pool, its LISTEN sessions).
    const admin = new pg.Client(pgPoolConfig(scratch.url));
    await admin.connect();
    const pids = async () => {
      const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      return { server: c.proc.pid!, pg: rows.map((r) => r.pid) };
    };
    const stop = async () => {
      await admin.end().catch(() => undefined);
      await c.stop();
      await scratch.drop().catch((err) => console.error(`could not drop ${scratch.url}: ${err}`));
    };
    console.log(`${name}: ${root ?? "this checkout"}, pid ${child.proc.pid}, ${child.baseUrl}`);
    return { column: { name, url: child.baseUrl, authorization, pids, stop }, body };
  } catch (err) {
    await db?.close();
    await child?.stop();
    await scratch.drop().catch(() => undefined);
    throw err;
  }
}

async function startCeiling(body: string): Promise<Column> {
  const port = await freePort();
  const script = runScript("ceiling-server.ts", [], { ...process.env, CEILING_BODY: body, PORT: String(port) });
  while (!script.output().includes("listening")) {
    if (script.proc.exitCode !== null) throw new Error("the ceiling server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    name: "ceiling",
    url,
    authorization: "Bearer none",
    pids: async () => ({ server: script.proc.pid!, pg: [] }),
    stop: async () => {
      script.proc.kill("SIGTERM");
      await script.done.catch(() => undefined);
    },
  };
}

async function load(column: Column, connections: number, seconds: number): Promise<Row> {
  const pids = await column.pids();
  const server = snapshot([pids.server]);
  const backends = snapshot(pids.pg);
  const out = await runScript("load-generator.ts", [column.url + PATH, String(connections), String(seconds), column.authorization]).done;
  const serverMs = cpuSince(server);
  const pgMs = cpuSince(backends);
  const row = JSON.parse(out.trim().split("\n").pop()!) as Row;
  const answered = row.rps * seconds;
  return { ...row, cpuMs: serverMs / answered, pgCpuMs: pgMs / answered };
}

/**
 * Runs one column's load with the other columns' servers paused (SIGSTOP): each server then has the host
 * to itself, as a user's would. An idle service is not idle: its jobs poll, and its collector and
 * compiler threads run, which moved the measured service's p99 by a millisecond or two.
 */
async function alone<T>(column: Column, all: Column[], run: () => Promise<T>): Promise<T> {
  const others = await Promise.all(all.filter((c) => c !== column).map(async (c) => (await c.pids()).server));
  for (const pid of others) process.kill(pid, "SIGSTOP");
  try {
    return await run();
  } finally {
    for (const pid of others) process.kill(pid, "SIGCONT");
  }
}

const mark = (ok: boolean) => (ok ? "PASS" : "MISS");
const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9);

export interface EntitlementsFigures {
  /** column -> connections -> median over rounds */
  perCeiling: Record<string, Record<number, number>>;
  p99: Record<string, Record<number, number>>;
}

function report(columns: string[], runs: Map<string, Row[]>): EntitlementsFigures {
  const figures: EntitlementsFigures = { perCeiling: {}, p99: {} };
  console.log(`\n== GET /v1/entitlements on PostgreSQL: service, ceiling and load generator in separate processes; ${ROUNDS} rounds of ${SECONDS} s per run, alternated ==`);
  console.log("(2 cores shared by all three processes, PostgreSQL and anything else on the host: figures are noisy; compare columns of one run)");
  console.log("(CPU µs: the server process's CPU per answered request; PG µs: its PostgreSQL backends'. They hold still when the host is busy; req/s does not)");
  for (const c of LEVELS) {
    console.log(`\n${c} connections (median of ${ROUNDS} rounds)`);
    console.log(`${"column".padEnd(9)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"/ceiling".padStart(9)}${"CPU µs".padStart(9)}${"PG µs".padStart(9)}${"non-2xx".padStart(9)}${"errors".padStart(9)}`);
    const ceiling = runs.get(`ceiling ${c}`)!;
    for (const name of columns) {
      const rows = runs.get(`${name} ${c}`)!;
      const ratio = median(rows.map((r, i) => r.rps / ceiling[i]!.rps));
      const p99 = median(rows.map((r) => r.p99));
      (figures.perCeiling[name] ??= {})[c] = ratio;
      (figures.p99[name] ??= {})[c] = p99;
      const sum = (k: "non2xx" | "errors") => rows.reduce((n, r) => n + r[k], 0);
      console.log(
        `${name.padEnd(9)}${fmt(median(rows.map((r) => r.rps)))}${fmt(median(rows.map((r) => r.p50)), 1)}${fmt(p99, 1)}${fmt(name === "ceiling" ? 1 : ratio, 3)}` +
          `${fmt(median(rows.map((r) => (r.cpuMs ?? 0) * 1000)))}${fmt(median(rows.map((r) => (r.pgCpuMs ?? 0) * 1000)))}${fmt(sum("non2xx"))}${fmt(sum("errors"))}`,
      );
    }
  }
  console.log("");
  const cpu = (name: string, c: number, pgToo: boolean) => median(runs.get(`${name} ${c}`)!.map((r) => (r.cpuMs ?? 0) + (pgToo ? (r.pgCpuMs ?? 0) : 0)));
  for (const name of columns.filter((n) => n !== "ceiling")) {
    console.log(
      `${name.padEnd(8)} CPU per request against the ceiling's (what the ratio tends to when CPU is the limit): c10 ${(cpu("ceiling", 10, false) / cpu(name, 10, true)).toFixed(3)}, c100 ${(cpu("ceiling", 100, false) / cpu(name, 100, true)).toFixed(3)} (service + its PostgreSQL backends)`,
    );
  }
  for (const name of columns.filter((n) => n !== "ceiling")) {
    const r = figures.perCeiling[name]!;
    const p = figures.p99[name]![10]!;
    console.log(
      `${name.padEnd(8)} facade/ceiling c10 ${r[10]!.toFixed(3)}, c100 ${r[100]!.toFixed(3)}  target >= ${TARGET.perCeiling} at both  ${mark(r[10]! >= TARGET.perCeiling && r[100]! >= TARGET.perCeiling)}` +
        `;  p99 at c10 ${p.toFixed(1)} ms  target < ${TARGET.p99Ms} ms  ${mark(p < TARGET.p99Ms)}`,
    );
  }
  const failed = [...runs.entries()].filter(([, rows]) => rows.some((r) => r.non2xx || r.errors)).map(([k]) => k);
  console.log(failed.length ? `WARNING: non-2xx or errors in: ${failed.join(", ")}` : "non-2xx and errors: 0 on every run");
  return figures;
}

export async function main(): Promise<EntitlementsFigures> {
  const only = process.env.BENCH_ONLY;
  const columns: Column[] = [];
  try {
    const service = await startService("service", process.env.BENCH_SERVICE_ROOT);
    columns.push(service.column);
    if (process.env.BENCH_OLD_ROOT) {
      const old = await startService("old", process.env.BENCH_OLD_ROOT);
      columns.push(old.column);
      // Same bytes but for ids and the seeding instant.
      const shape = (body: string) => body.replace(/"[a-z]+_[0-9A-Za-z]+"/g, '"id"').replace(/"\d{4}-\d\d-\d\dT[^"]+"/g, '"time"');
      if (shape(old.body) !== shape(service.body)) {
        throw new Error(`old and new answer different bodies:\n${old.body}\n${service.body}`);
      }
    }
    columns.unshift(await startCeiling(service.body));
    console.log(`body (${Buffer.byteLength(service.body)} bytes): ${service.body}`);
    const running = columns.filter((c) => !only || c.name === only);
    console.log("warming up (2 s each)…");
    for (const c of running) await alone(c, columns, () => load(c, 10, 2));
    const runs = new Map<string, Row[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const connections of LEVELS) {
        for (const c of running) {
          const row = await alone(c, columns, () => load(c, connections, SECONDS));
          console.log(`round ${round}, ${c.name} at ${connections}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms, CPU ${((row.cpuMs ?? 0) * 1000).toFixed(0)} µs + PG ${((row.pgCpuMs ?? 0) * 1000).toFixed(0)} µs per request`);
          let list = runs.get(`${c.name} ${connections}`);
          if (!list) runs.set(`${c.name} ${connections}`, (list = []));
          list.push(row);
        }
      }
    }
    if (only) return { perCeiling: {}, p99: {} };
    return report(running.map((c) => c.name), runs);
  } finally {
    for (const c of columns) await c.stop();
  }
}

if (isMain(import.meta.url)) await main();
