// The real service as a child process (`main.ts --role …`) on a scratch PostgreSQL database, or on a
// PGlite data directory that outlives the process: what crash drills, multi-instance runs and the
// soak kill, restart and measure from outside.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { pgPoolConfig } from "../../prisma/connection.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** A child runs main.ts, which refuses a guessable operator token: this one is random characters. */
export const CHILD_ADMIN_TOKEN = "adm_child_Q7vR2mXk9LpT4wZs8NbF3hYd6JcG1uEa";
/** METRICS_TOKEN of child services (bench/service-probes.ts scrapes /metrics with it). */
export const CHILD_METRICS_TOKEN = "mtr_child_Q7vK2pXe9LwN4sRb8TzH3mYc6JdF";

/** The PostgreSQL server drills run against: DATABASE_URL's server, else the local one. */
export const PG_SERVER = process.env.BENCH_PG_URL || process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

export interface ScratchDb {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database `<prefix>_<pid>_<n>`; the first service to start migrates it. */
let seq = 0;
export async function scratchPgDatabase(prefix: string): Promise<ScratchDb> {
  const name = `${prefix}_${process.pid}_${seq++}`;
  const admin = async (sql: string) => {
    const c = new pg.Client(pgPoolConfig(PG_SERVER));
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

export interface ChildService {
  baseUrl: string;
  proc: ChildProcess;
  /** Everything the process wrote (stdout + stderr), for assertions and post-mortems. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, as in a crash. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait (graceful). */
  stop(): Promise<void>;
}

/**
 * How the service runs (package.json "start"; docs/operations/production.md): V8's old space sized for a service
 * (its live set is ~100 MB under the /v1 loads), not the host's default (~4 GB on this 24 GB host),
 * which V8 fills with garbage before it collects: ~430-490 MB of RSS under bench/service-memory.ts
 * without the flag, ~270 MB with it (384 to 1024 MB measured alike; 2048 MB already ~430 MB).
 */
export const SERVICE_NODE_ARGS = ["--max-old-space-size=1024", "--max-semi-space-size=16"];

export interface ChildOptions {
  /** PostgreSQL URL; empty: embedded PGlite in `dataDir` (one process at a time). */
  databaseUrl: string;
  role?: "api" | "jobs" | "all";
  port?: number;
  env?: Record<string, string>;
  /** Wait for /healthz (api, all) up to this many ms. */
  readyTimeoutMs?: number;
  /** The checkout whose main.ts runs (default this one): a bench may start an older commit's worktree. */
  root?: string;
  /** Node flags of the service (default SERVICE_NODE_ARGS); CHILD_NODE_ARGS are added after them. */
  nodeArgs?: string[];
  /**
   * DATA_DIR kept across restarts (the PGlite data, the operator token); the caller removes it.
   * Default: a fresh temporary directory removed when the process is gone.
   */
  dataDir?: string;
}

/** A persistent data directory for `startChildService({ dataDir })`, removed by `remove()`. */
export function childDataDir(prefix = "billing-child-"): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function startChildService(opts: ChildOptions): Promise<ChildService> {
  const port = opts.port ?? (await freePort());
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "billing-child-"));
  const role = opts.role ?? "all";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_TOKEN: CHILD_ADMIN_TOKEN,
    METRICS_TOKEN: CHILD_METRICS_TOKEN,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.CHILD_LOG_LEVEL ?? "warn",
    // As `npm start` runs the service (docs/operations/production.md#memory).
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    ...opts.env,
  };
  if (!opts.databaseUrl) delete env.DATABASE_URL; // embedded PGlite under DATA_DIR
  // CHILD_NODE_ARGS: extra node flags for the child, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = [...(opts.nodeArgs ?? SERVICE_NODE_ARGS), ...(process.env.CHILD_NODE_ARGS ?? "").split(" ").filter(Boolean)];
  const proc = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "main.ts", "--role", role], { cwd: opts.root ?? ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const waitExit = async (signal: NodeJS.Signals) => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
    if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const child: ChildService = { baseUrl, proc, output: () => out, kill: () => waitExit("SIGKILL"), stop: () => waitExit("SIGTERM") };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  if (role === "jobs") {
    // No HTTP server: ready once the banner is printed.
    while (!out.includes("billing service (jobs)")) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`child did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return child;
  }
  for (;;) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      await child.kill();
      throw new Error(`child did not start:\n${out}`);
    }
    try {
      // Serving, and (the banner) done starting: scheduler and webhook dispatcher running, demo seeded.
      if ((await fetch(`${baseUrl}/healthz`)).ok && out.includes("billing service (")) return child;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs `main.ts --role api` on an embedded database of its own (or in `keptDataDir`, left in place) until
 * it exits (a refusal at start) or prints its banner (it started; then it is stopped). ADMIN_TOKEN
 * defaults to the child token.
 */
export async function startMainUntilBanner(env: Record<string, string>, keptDataDir?: string): Promise<{ code: number | null; stderr: string; stdout: string; started: boolean }> {
  const dataDir = keptDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "billing-start-"));
  const full: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: "warn", ADMIN_TOKEN: CHILD_ADMIN_TOKEN, ...env };
  delete full.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "main.ts", "--role", "api"], { cwd: ROOT, env: full, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  try {
    return await new Promise((resolve) => {
      const poll = setInterval(() => {
        if (!stdout.includes("billing service (")) return;
        clearInterval(poll);
        child.kill("SIGTERM");
      }, 100);
      // One exit listener: a start is told by its banner (then the exit is our SIGTERM's).
      child.once("exit", (code) => {
        clearInterval(poll);
        const started = stdout.includes("billing service (");
        resolve({ code: started ? null : code, stderr, stdout, started });
      });
    });
  } finally {
    if (!keptDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
