// Looking at a child service (test/helpers/child-service.ts) from outside: its /metrics counters, its
// RSS from /proc, and operator GraphQL calls. Shared by bench/multi-instance.ts and bench/soak.ts.
import fs from "node:fs";
import type { Db } from "../prisma/client.ts";
import { CHILD_ADMIN_TOKEN, CHILD_METRICS_TOKEN, type ChildService, type ScratchDb } from "../test/helpers/child-service.ts";
import type { Receivers } from "./webhook-receiver.ts";

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status), or NaN where there is no /proc. */
export function rssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Parsed Prometheus text: `name{labels}` -> value (labels as printed, e.g. `outcome="renewed"`). */
export type Scrape = Map<string, number>;

export async function scrapeMetrics(baseUrl: string): Promise<Scrape> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${CHILD_METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`${baseUrl}/metrics answered ${res.status}`);
  const out: Scrape = new Map();
  for (const line of (await res.text()).split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m) out.set(`${m[1]}${m[2] ?? ""}`, Number(m[3]));
  }
  return out;
}

/** One counter value; 0 when the series was never incremented (prom-client prints nothing then). */
export function counter(scrape: Scrape, name: string, labels = ""): number {
  return scrape.get(labels ? `${name}{${labels}}` : name) ?? 0;
}

/** An operator GraphQL call on a child service; throws on GraphQL errors. */
export async function operatorGql<T = any>(baseUrl: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${CHILD_ADMIN_TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as { data?: T; errors?: unknown[] };
  if (json.errors?.length || !json.data) throw new Error(`GraphQL failed (${res.status}): ${JSON.stringify(json.errors)}`);
  return json.data;
}

/** Error-level pino lines (level >= 50) a child wrote, and anything it wrote that is not JSON (crashes). */
export function errorLines(output: string): string[] {
  return output.split("\n").filter((line) => {
    if (!line.trim()) return false;
    if (!line.startsWith("{")) return /error|unhandled|exception/i.test(line);
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return true;
    }
  });
}

/** Prints PASS/FAIL per check and the verdict line; true when every check passed. */
export function verdict(name: string, results: [string, boolean][]): boolean {
  for (const [label, ok] of results) console.log(`${ok ? "PASS" : "FAIL"}  ${label}`);
  const ok = results.every(([, pass]) => pass);
  console.log(ok ? `\n${name}: PASS` : `\n${name}: FAILED (see above)`);
  return ok;
}

/** A bench script's entry: exit 0 when main passed, 1 when it failed or threw. */
export async function exitWith(main: () => Promise<boolean>): Promise<never> {
  const ok = await main().catch((err) => {
    console.error(err);
    return false;
  });
  process.exit(ok ? 0 : 1);
}

/** The multi-process benches' clean-up: services, receivers, the bench's own connection, the scratch database. */
export async function tearDown(run: { children: ChildService[]; receivers?: Receivers; db: Db; scratch: ScratchDb }): Promise<void> {
  await Promise.all(run.children.map((c) => c.stop()));
  await run.receivers?.close();
  await run.db.close();
  await run.scratch.drop().catch((err) => console.error(`could not drop the scratch database: ${err}`));
}
