// `npm run bench`: the issue's table of hot paths, old and new measured in one session, then every other
// benchmark in bench/ in turn (each prints its own figures at its end).
//
// The hot paths (bench/hot-paths.ts) run with the service in its own process, as `npm start` starts it
// on PostgreSQL, and the load generator in this one's child. "old" is another checkout's main.ts (a git
// worktree of the older commit: BENCH_OLD_ROOT, default ../base when it exists), one worker; "new" is
// this checkout with 1 and with 2 workers. The runs alternate (old, new, new x2, old, ...) because the
// host's speed moves within minutes; each cell is the median of its runs, with the range.
//
// npm run bench -- [--rounds 2] [--only hot-paths]
// Env: DATABASE_URL or BENCH_PG_URL: the PostgreSQL server (scratch databases are made and dropped);
//      BENCH_QUICK=1: smaller backlog and checkout counts (bench/hot-paths.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { TARGETS, type HotPathsResult } from "./hot-paths.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");

interface Variant {
  label: string;
  root?: string;
  workers: number;
}

function runHotPaths(v: Variant): Promise<HotPathsResult | null> {
  const args = ["--import", "tsx", path.join(HERE, "hot-paths.ts"), "--json", "--workers", String(v.workers), ...(v.root ? ["--root", v.root] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let last = "";
    child.stdout.on("data", (d: Buffer) => {
      const text = d.toString();
      for (const line of text.split("\n")) if (line.startsWith("{")) last = line;
      process.stdout.write(text.replace(/^\{.*$/gm, "").replace(/\n+$/, "\n"));
    });
    child.on("exit", () => {
      try {
        resolve(JSON.parse(last) as HotPathsResult);
      } catch {
        resolve(null);
      }
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function cell(runs: (HotPathsResult | null)[], pick: (r: HotPathsResult) => number, digits: number): string {
  const xs = runs.filter((r): r is HotPathsResult => !!r).map(pick);
  if (xs.length === 0) return "n/a";
  const f = (x: number) => x.toFixed(digits);
  return xs.length === 1 ? f(xs[0]!) : `${f(median(xs))} (${f(Math.min(...xs))}-${f(Math.max(...xs))})`;
}

export async function hotPathsTable(rounds: number): Promise<boolean> {
  const oldRoot = process.env.BENCH_OLD_ROOT ?? path.resolve(ROOT, "../base");
  const variants: Variant[] = [
    ...(fs.existsSync(path.join(oldRoot, "main.ts")) ? [{ label: "old", root: oldRoot, workers: 1 }] : []),
    { label: "new", workers: 1 },
    { label: "new, 2 workers", workers: 2 },
  ];
  const runs = new Map<string, (HotPathsResult | null)[]>(variants.map((v) => [v.label, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const v of variants) {
      console.log(`\n--- round ${round}/${rounds}: ${v.label}${v.root ? ` (${v.root})` : ""} ---`);
      runs.get(v.label)!.push(await runHotPaths(v));
    }
  }
  const rows: [string, string, (r: HotPathsResult) => number, number][] = [
    ["Card checkouts on the sandbox, concurrency 8, steady: after 1,500 (checkouts/s)", `>= ${TARGETS.checkoutsPerSecond}`, (r) => r.checkoutsPerSecond, 1],
    ["Card checkouts, cold: right after the first 40 (checkouts/s)", "(information)", (r) => r.coldCheckoutsPerSecond, 1],
    ["Renewals, one advanceClock over 2,000 subscriptions (renewals/s)", `>= ${TARGETS.renewalsPerSecond}`, (r) => r.renewalsPerSecond, 0],
    ["Webhook deliveries from a backlog to a fast local receiver (/s)", `>= ${TARGETS.deliveriesPerSecond}`, (r) => r.deliveriesPerSecond, 0],
    ["Dunning: 50 subscriptions from D to suspension, 11 clock moves (s)", `< ${TARGETS.dunningSeconds}`, (r) => r.dunningSeconds, 2],
    ["Service peak RSS, largest process (MiB)", `< ${TARGETS.peakRssMb}`, (r) => r.peakRssMb, 0],
    ["Service peak RSS, all its processes together (MiB)", "(information)", (r) => r.peakTotalRssMb, 0],
  ];
  console.log(`\n######## The hot paths: service in its own process on PostgreSQL, load from another; median (range) of ${rounds} alternated run(s) ########\n`);
  const header = ["Path", "Target", ...variants.map((v) => v.label)];
  const table = [header, ...rows.map(([name, target, pick, digits]) => [name, target, ...variants.map((v) => cell(runs.get(v.label)!, pick, digits))])];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const [i, r] of table.entries()) {
    console.log(`| ${r.map((c, j) => c.padEnd(widths[j]!)).join(" | ")} |`);
    if (i === 0) console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  }
  console.log("GET /v1/entitlements (ceiling ratio, p99): bench/entitlements.ts, below.");
  const failed = [...runs.entries()].flatMap(([label, rs]) => rs.flatMap((r, i) => (r ? r.failures.map((f) => `${label} run ${i + 1}: ${f}`) : [`${label} run ${i + 1}: no result`])));
  for (const f of failed) console.log(`FAIL  ${f}`);
  return failed.length === 0;
}

const { values } = parseArgs({ options: { rounds: { type: "string", default: "2" }, only: { type: "string" } } });
const ok = await hotPathsTable(Number(values.rounds));
if (values.only !== "hot-paths") {
  const { main: entitlements } = await import("./entitlements.ts");
  const { main: pagination } = await import("./pagination.ts");
  const { main: billingRun } = await import("./billing-run.ts");
  const { main: webhooks } = await import("./webhooks.ts");
  const { main: serviceMemory } = await import("./service-memory.ts");
  console.log("\n######## GET /v1/entitlements: the service vs bare Express, each in its own process, autocannon in a third ########\n");
  await entitlements();
  console.log("\n######## GET /v1/subscriptions: keyset pagination over the whole tenant ########\n");
  await pagination();
  console.log("\n######## Billing run: one pass over 10k and 100k due renewals, and a dunning cycle (in process) ########\n");
  await billingRun();
  console.log("\n######## Webhooks: 20k deliveries to a loopback receiver, commit -> first attempt, a stalled receiver (in process) ########\n");
  await webhooks();
  console.log("\n######## The service's own memory under the /v1 loads: main.ts in a child process ########\n");
  await serviceMemory();
}
process.exitCode = ok ? 0 : 1;
