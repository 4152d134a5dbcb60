// Sends generated requests and applies the oracles to every answer: no 5xx, the answer validates
// against the OpenAPI document, no identifier of a tenant the key does not belong to, and a foreign
// reference answered byte for byte like an unknown one. Shared by the vitest file and `npm run fuzz`.
import http from "node:http";
import fc from "fast-check";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { requestArbitrary, type RequestSpec } from "./arbitraries.ts";
import { deriveOperations, type OperationSpec } from "./operations.ts";
import { resolveRequest, type ConcreteRequest } from "./resolve.ts";
import type { Label, World } from "./world.ts";

export interface Answer {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

export interface Finding {
  kind: "5xx" | "openapi" | "leak" | "foreign-vs-unknown" | "transport";
  operationId: string;
  detail: string;
  request: ConcreteRequest;
  status: number;
  response: string;
  twin?: { request: ConcreteRequest; status: number; response: string };
}

export interface RouteStats {
  method: string;
  template: string;
  requests: number;
  statuses: Record<string, number>;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  requests: number;
  durationMs: number;
  routes: Map<string, RouteStats>;
  findings: Finding[];
}

export interface FuzzOptions {
  world: World;
  baseUrl: string;
  seed: number;
  runs: number;
  /** Requests generated per batch (pools are re-read from the database between batches). */
  batch?: number;
  /** Add fresh records every this many batches (0: never). */
  replenishEvery?: number;
  onBatch?: (done: number, report: FuzzReport) => void;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function send(baseUrl: string, req: ConcreteRequest): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers["content-length"] = req.body.length;
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent, timeout: 60_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
        res.on("error", reject);
      },
    );
    r.on("timeout", () => r.destroy(new Error("request timed out")));
    r.on("error", reject);
    r.end(req.body);
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const ID = /\b[a-z]+_[0-9A-HJKMNP-TV-Z]{26}\b/g;
const EXT = /fz[AB]-\d+-\d+-[a-z0-9]+/gi;
const EMAIL = /[^\s"'<>,;:()[\]{}\\/]+@[^\s"'<>,;:()[\]{}\\/]+/g;

function strings(v: unknown, out: string[]): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** Identifiers in a body that belong only to a tenant the caller is not, and that the request did not carry. */
export function leakedIdentifiers(w: World, caller: Label | null, requestText: string, body: unknown, text: string): string[] {
  const mine = caller ? w[caller].idents : new Set<string>();
  const forbidden = caller ? [w[caller === "A" ? "B" : "A"].idents] : [w.A.idents, w.B.idents];
  const candidates = new Set([...(text.match(ID) ?? []), ...(text.match(EXT) ?? []), ...(text.match(EMAIL) ?? []), ...strings(body, [])]);
  const sent = requestText.toLowerCase();
  return [...candidates].filter((c) => forbidden.some((s) => s.has(c)) && !mine.has(c) && !sent.includes(c.toLowerCase()));
}

function requestText(req: ConcreteRequest): string {
  let path = req.path;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    /* broken escapes stay as sent */
  }
  return `${path} ${req.body?.toString("utf8") ?? ""}`;
}

/** An e-mail a customer edit just set belongs to the caller's tenant from now on. */
function track(w: World, caller: Label | null, req: ConcreteRequest, status: number, body: any) {
  if (!caller || status !== 200 || !/^updateCustomer/.test(req.operationId)) return;
  if (typeof body?.email === "string") {
    w[caller].idents.add(body.email);
    w[caller].pools.email.push(body.email);
  }
}

const clip = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function describeRequest(req: ConcreteRequest): string {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `  ${k}: ${clip(JSON.stringify(v), 120)}`)
    .join("\n");
  return `${req.method} ${clip(req.path, 400)}\n${headers}${req.body ? `\n  body: ${clip(JSON.stringify(req.body.toString("utf8")), 400)}` : ""}`;
}

export function formatFinding(f: Finding): string {
  let s = `[${f.kind}] ${f.operationId}: ${f.detail}\n${describeRequest(f.request)}\n  -> ${f.status} ${clip(f.response, 500)}`;
  if (f.twin) s += `\n  twin (foreign ids replaced by unknown ones):\n${describeRequest(f.twin.request)}\n  -> ${f.twin.status} ${clip(f.twin.response, 300)}`;
  return s;
}

/** Findings grouped by kind, route, status and first line of detail, with the first example of each. */
export function summarizeFindings(findings: Finding[], max = 20): string {
  const groups = new Map<string, { n: number; first: Finding }>();
  for (const f of findings) {
    const key = `${f.kind} ${f.operationId} ${f.status} ${f.detail.split("\n")[0]!.slice(0, 160)}`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { n: 1, first: f });
  }
  return [...groups.values()]
    .slice(0, max)
    .map((g) => `${g.n}× ${formatFinding(g.first)}`)
    .join("\n\n");
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const ops = deriveOperations();
  const byId = new Map<string, OperationSpec>(ops.map((o) => [o.operationId, o]));
  const validator = createOpenApiValidator();
  const arb = requestArbitrary(ops);
  const report: FuzzReport = { seed: opts.seed, runs: opts.runs, requests: 0, durationMs: 0, routes: new Map(), findings: [] };
  for (const o of ops) report.routes.set(o.operationId, { method: o.method, template: o.template, requests: 0, statuses: {} });
  const batch = opts.batch ?? 250;
  const runTag = `${opts.seed}-${Date.now().toString(36)}`;
  const started = Date.now();
  let counter = 0;

  const exchange = async (req: ConcreteRequest): Promise<Answer> => {
    const stats = report.routes.get(req.operationId)!;
    report.requests++;
    stats.requests++;
    let answer: Answer;
    try {
      answer = await send(opts.baseUrl, req);
    } catch (err) {
      answer = { status: 0, text: String(err), headers: {} };
    }
    stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
    return answer;
  };

  for (let b = 0; counter < opts.runs; b++) {
    if (b > 0 && opts.replenishEvery && b % opts.replenishEvery === 0) await opts.world.replenish();
    else await opts.world.refresh();
    const specs: RequestSpec[] = fc.sample(arb, { seed: opts.seed + b, numRuns: Math.min(batch, opts.runs - counter) });
    for (const spec of specs) {
      counter++;
      const op = byId.get(spec.operationId)!;
      const { request, caller, twin } = resolveRequest(spec, op, opts.world, runTag, counter);
      const answer = await exchange(request);
      const body = parse(answer.text);
      const finding = (kind: Finding["kind"], detail: string, extra: Partial<Finding> = {}) =>
        report.findings.push({ kind, operationId: op.operationId, detail, request, status: answer.status, response: answer.text, ...extra });

      if (answer.status === 0) {
        finding("transport", answer.text);
        continue;
      }
      if (answer.status >= 500) finding("5xx", `status ${answer.status}`);
      const check = validator.validateResponse(request.method, request.path, answer.status, body);
      if (!check.ok) finding("openapi", check.errors.slice(0, 5).join("; "));
      track(opts.world, caller, request, answer.status, body);
      const leaked = leakedIdentifiers(opts.world, caller, requestText(request), body, answer.text);
      if (leaked.length) finding("leak", `${caller ? `tenant ${caller}'s key` : "an unauthenticated request"} sees ${leaked.slice(0, 5).join(", ")}`);
      if (twin) {
        const other = await exchange(twin);
        if (other.status !== answer.status || other.text !== answer.text) {
          finding("foreign-vs-unknown", `a foreign reference answers ${answer.status}, an unknown one ${other.status}`, {
            twin: { request: twin, status: other.status, response: other.text },
          });
        }
      }
    }
    report.durationMs = Date.now() - started;
    opts.onBatch?.(counter, report);
  }
  report.durationMs = Date.now() - started;
  return report;
}

/** The end-of-run figures: totals, per-route requests and status codes, findings. */
export function formatReport(r: FuzzReport): string {
  const lines = [
    `seed ${r.seed}, ${r.runs} generated requests, ${r.requests} sent (twins included)`,
    `duration ${(r.durationMs / 1000).toFixed(1)} s, ${(r.requests / (r.durationMs / 1000)).toFixed(1)} requests/s`,
    "",
    "route                                                           requests  statuses",
  ];
  for (const [, s] of r.routes) {
    const statuses = Object.entries(s.statuses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([k, v]) => `${k}:${v}`)
      .join(" ");
    lines.push(`${`${s.method} ${s.template}`.padEnd(64)}${String(s.requests).padStart(8)}  ${statuses}`);
  }
  lines.push("", `findings: ${r.findings.length}`);
  if (r.findings.length) lines.push(summarizeFindings(r.findings));
  return lines.join("\n");
}
