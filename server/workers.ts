// `npm start -- --workers N` (or WORKERS=N): N core processes on one host sharing the port (node:cluster:
// the primary forks the workers and hands out connections) and the work (each worker runs the jobs; they
// claim work with database leases, as separate instances do). The first worker starts alone: it migrates,
// seeds the demo tenant and prints the banner; the others start once it serves. PostgreSQL only: the
// embedded database lives in one process.
import cluster, { type Worker } from "node:cluster";
import client from "prom-client";
import { registry } from "../core/shared/metrics.ts";

/** `--workers N`, else WORKERS, else 1; a usage error (exit 2) on anything but a positive integer. */
export function workerCount(argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): number {
  const i = argv.indexOf("--workers");
  const raw = i > 0 ? argv[i + 1] : env.WORKERS;
  if (raw === undefined || raw === "") return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`usage: npm start -- --workers N (N a whole number from 1 to 64; got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return n;
}

/** Set in a worker after the first: it neither seeds the demo tenant nor prints the banner. */
export const FOLLOWER_ENV = "BILLING_WORKER_FOLLOWER";

/** The primary: forks the first worker, then the others once it is ready; relays SIGTERM/SIGINT to all. */
export async function runPrimary(n: number): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.error(
      `refusing to start: --workers ${n} needs PostgreSQL (DATABASE_URL).\n` +
        "  The embedded database (PGlite) is one process's; run one worker on it, or set DATABASE_URL.",
    );
    process.exit(2);
  }
  let stopping = false;
  const live = new Set<Worker>();
  const fork = (follower: boolean): Worker => {
    const w = cluster.fork(follower ? { [FOLLOWER_ENV]: "1" } : {});
    live.add(w);
    w.once("exit", (code, signal) => {
      live.delete(w);
      if (stopping) {
        if (live.size === 0) process.exit(0);
        return;
      }
      if (!ready) {
        // The first worker refused to start (a weak secret, an unreachable database): so would the rest.
        process.exit(code ?? 1);
      }
      console.error(`worker ${w.process.pid} exited (${signal ?? code}); starting another`);
      fork(true);
    });
    return w;
  };
  let ready = false;
  const first = fork(false);
  // Sent after its banner: migrated, seeded and serving (a jobs role has no listener to wait for).
  await new Promise<void>((resolve) => first.on("message", (m) => m === "started" && resolve()));
  ready = true;
  for (let i = 1; i < n; i++) fork(true);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const w of live) w.process.kill(signal);
    if (live.size === 0) process.exit(0);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

const processInfo = new client.Gauge({
  name: "billing_process_info",
  help: "1 per serving process: its pid and cluster worker id (0 without --workers), to tell workers apart in scrapes",
  labelNames: ["pid", "worker"],
  registers: [registry],
});

/** In a worker: tells the primary this worker is done starting (no-op outside a cluster). */
export function reportStarted(): void {
  processInfo.set({ pid: String(process.pid), worker: String(cluster.worker?.id ?? 0) }, 1);
  if (cluster.isWorker) process.send?.("started");
}
