// `npm start -- --workers N`: N processes share the port and the work on PostgreSQL; the embedded
// database refuses N > 1 before anything starts.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CHILD_METRICS_TOKEN, scratchPgDatabase, startChildService, type ChildService, type ScratchDb } from "./helpers/child-service.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PG = Boolean(process.env.DATABASE_URL);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** GET /metrics on a connection of its own (fetch would reuse one, and so one worker). */
function metricsOnNewConnection(baseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}/metrics`, { agent: false, headers: { authorization: `Bearer ${CHILD_METRICS_TOKEN}` } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve(body));
    });
    req.on("error", reject);
  });
}

/** main.ts with these arguments and no DATABASE_URL, until it exits. */
async function runMain(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "billing-workers-"));
  const full: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn", ...env };
  delete full.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "main.ts", ...args], { cwd: ROOT, env: full, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { code, stderr, stdout };
}

describe("--workers on the embedded database", () => {
  it("--workers 2 without DATABASE_URL is refused with a reason and exit code 2, nothing served", async () => {
    const out = await runMain(["--workers", "2"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("refusing to start: --workers 2 needs PostgreSQL (DATABASE_URL)");
    expect(out.stdout).not.toContain("billing service (");
  });

  it("WORKERS=3 is refused the same way", async () => {
    const out = await runMain([], { WORKERS: "3" });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("--workers 3 needs PostgreSQL");
  });

  it("a count that is not a whole number from 1 is a usage error", async () => {
    const out = await runMain(["--workers", "two"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("usage: npm start -- --workers N");
  });
});

describe.skipIf(!PG)("--workers 2 on PostgreSQL", () => {
  let scratch: ScratchDb | undefined;
  let svc: ChildService | undefined;
  afterAll(async () => {
    await svc?.kill();
    await scratch?.drop();
  });

  it("serves from two worker processes on one port, prints the banner once and stops them all on SIGTERM", { timeout: 120_000 }, async () => {
    scratch = await scratchPgDatabase("workers_test");
    svc = await startChildService({ databaseUrl: scratch.url, env: { WORKERS: "2" }, readyTimeoutMs: 90_000 });
    const primary = svc.proc.pid!;

    // Connections on the one port land on both workers (the cluster hands them out round-robin); the
    // second worker starts once the first has printed the banner, so give it time.
    const servedBy = new Map<string, string>();
    for (let i = 0; i < 240 && servedBy.size < 2; i++) {
      for (const m of (await metricsOnNewConnection(svc.baseUrl)).matchAll(/^billing_process_info\{pid="(\d+)",worker="(\d+)"\} 1$/gm)) servedBy.set(m[1]!, m[2]!);
      if (servedBy.size < 2) await new Promise((r) => setTimeout(r, 250));
    }
    expect([...servedBy.values()].sort()).toEqual(["1", "2"]);
    const workerPids = [...servedBy.keys()].map(Number);
    expect(workerPids).not.toContain(primary);
    // Both workers are children of the process started, and both answer the API.
    for (const pid of workerPids) expect(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[3]).toBe(String(primary));
    const healthy = await Promise.all(Array.from({ length: 8 }, () => fetch(`${svc!.baseUrl}/readyz`).then((r) => r.json() as Promise<{ ok: boolean; database: string }>)));
    expect(healthy.every((h) => h.ok && h.database === "postgres")).toBe(true);

    // One banner, naming the workers, and one demo tenant.
    expect(svc.output().match(/billing service \(/g)).toHaveLength(1);
    expect(svc.output()).toContain("billing service (all) on PostgreSQL, 2 workers");
    expect(svc.output().match(/demo tenant tn_/g)).toHaveLength(1);

    await svc.stop();
    expect(svc.proc.exitCode).toBe(0);
    for (let i = 0; i < 50 && workerPids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(workerPids.filter(alive)).toEqual([]);
    svc = undefined;
  });
});
