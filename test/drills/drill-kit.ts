// Shared pieces of the drills: a seeded PRNG (the seed is printed, DRILL_SEED replays it), a recorder
// of every /v1 call (each validated against the OpenAPI document by the http helper) and the figures table.
import { call, type HttpResult } from "../helpers/http.ts";
import { mulberry32 } from "../helpers/prng.ts";

/** mulberry32 (test/helpers/prng.ts) with helpers to pick actions. */
export function prng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
    /** One of the keys, by weight. */
    weighted: <K extends string>(w: Record<K, number>): K => {
      const entries = Object.entries(w) as [K, number][];
      let r = next() * entries.reduce((s, [, v]) => s + v, 0);
      for (const [k, v] of entries) if ((r -= v) < 0) return k;
      return entries.at(-1)![0];
    },
  };
}

export type Prng = ReturnType<typeof prng>;

export function drillSeed(): number {
  const env = process.env.DRILL_SEED;
  return env ? Number(env) : Math.floor(Math.random() * 2 ** 31);
}

export interface CallRecord {
  client: number;
  step: number;
  route: string;
  /** The drill's own name of the subscription (or payment's subscription). */
  target: string;
  path: string;
  body: unknown;
  key: string | null;
  status: number;
  text: string;
  json: any;
  replayed: boolean;
  ms: number;
}

export class Recorder {
  readonly calls: CallRecord[] = [];

  async post(meta: Pick<CallRecord, "client" | "step" | "route" | "target">, path: string, key: string, body: unknown, idemKey: string | null): Promise<CallRecord> {
    const started = performance.now();
    const headers: Record<string, string> = idemKey ? { "idempotency-key": idemKey } : {};
    const res: HttpResult = await call("POST", path, { key, body: body ?? {}, headers });
    const rec: CallRecord = {
      ...meta,
      path,
      body,
      key: idemKey,
      status: res.status,
      text: res.text,
      json: res.body,
      replayed: res.headers.get("idempotent-replayed") === "true",
      ms: performance.now() - started,
    };
    this.calls.push(rec);
    return rec;
  }

  of(route: string) {
    return this.calls.filter((c) => c.route === route);
  }
}

/** The figures table: requests per route and status, then named figures. */
export function figuresTable(title: string, recorder: Recorder, figures: Record<string, string | number>): string {
  const routes = [...new Set(recorder.calls.map((c) => c.route))].sort();
  const statuses = [...new Set(recorder.calls.map((c) => c.status))].sort((a, b) => a - b);
  const lines = [`== ${title} ==`, ["route".padEnd(24), ...statuses.map((s) => String(s).padStart(6)), "total".padStart(7), "replays".padStart(8), "p95 ms".padStart(8)].join("")];
  for (const r of routes) {
    const rows = recorder.of(r);
    const ms = rows.map((c) => c.ms).sort((a, b) => a - b);
    lines.push(
      [
        r.padEnd(24),
        ...statuses.map((s) => String(rows.filter((c) => c.status === s).length).padStart(6)),
        String(rows.length).padStart(7),
        String(rows.filter((c) => c.replayed).length).padStart(8),
        (ms[Math.floor(ms.length * 0.95)] ?? 0).toFixed(0).padStart(8),
      ].join(""),
    );
  }
  for (const [k, v] of Object.entries(figures)) lines.push(`${k.padEnd(40)} ${v}`);
  return lines.join("\n");
}
