// Turns an abstract generated request into bytes against the seeded world: whose key, whose ids,
// how the body is encoded. Also builds the "twin": the same request with every foreign reference
// replaced by an unknown one, whose answer must be byte-identical (contract fact 8).
import type { Auth, BodyShape, ContentType, QueryItem, RequestSpec, Value } from "./arbitraries.ts";
import { PREFIX } from "./arbitraries.ts";
import type { OperationSpec } from "./operations.ts";
import type { Label, RefKind, World } from "./world.ts";

export interface ConcreteRequest {
  operationId: string;
  method: string;
  /** Path and query string, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Resolved {
  request: ConcreteRequest;
  /** The tenant whose data the caller may see; null when the request must not authenticate. */
  caller: Label | null;
  /** Same request with foreign references made unknown; present when there is a foreign reference. */
  twin?: ConcreteRequest;
}

const ULID = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BOUNDARY = "----fuzzB0undary7MA4YWxkTrZu0gW";
const other = (l: Label): Label => (l === "A" ? "B" : "A");

function ulidOf(n: number): string {
  let s = "";
  for (let v = n; v > 0; v = Math.floor(v / 32)) s = ULID[v % 32] + s;
  return "0" + s.padStart(25, "0").slice(-25);
}

function unknownValue(kind: RefKind, n: number): string {
  if (kind === "customer") return `nx-${n}`;
  if (kind === "email") return `nobody-${n}@example.com`;
  return `${PREFIX[kind] ?? "sub"}_${ulidOf(n)}`;
}

const safe = (s: string) => (typeof (s as any).toWellFormed === "function" ? (s as any).toWellFormed() : s) as string;
const enc = (s: string) => encodeURIComponent(safe(s));

export function authHeader(auth: Auth, w: World): { header?: string; caller: Label | null; own: Label } {
  const a = w.A.t;
  const b = w.B.t;
  switch (auth) {
    case "own-write": return { header: `Bearer ${a.writeKey}`, caller: "A", own: "A" };
    case "own-read": return { header: `Bearer ${a.readKey}`, caller: "A", own: "A" };
    case "other-write": return { header: `Bearer ${b.writeKey}`, caller: "B", own: "B" };
    case "other-read": return { header: `Bearer ${b.readKey}`, caller: "B", own: "B" };
    // The same key spelled loosely: if accepted it is still A's key.
    case "lowercase-bearer": return { header: `bearer ${a.readKey}`, caller: "A", own: "A" };
    case "double-space": return { header: `Bearer  ${a.readKey}`, caller: "A", own: "A" };
    case "none": return { caller: null, own: "A" };
    case "empty": return { header: "", caller: null, own: "A" };
    case "bearer-only": return { header: "Bearer", caller: null, own: "A" };
    case "basic": return { header: `Basic ${Buffer.from(`${a.writeKey}:`).toString("base64")}`, caller: null, own: "A" };
    case "truncated": return { header: `Bearer ${a.writeKey.slice(0, -1)}`, caller: null, own: "A" };
    case "suffixed": return { header: `Bearer ${a.writeKey}x`, caller: null, own: "A" };
    case "two-keys": return { header: `Bearer ${a.writeKey} ${b.writeKey}`, caller: null, own: "A" };
    case "unknown-key": return { header: `Bearer bk_test_${"Q".repeat(32)}`, caller: null, own: "A" };
    case "revoked": return { header: `Bearer ${w.A.revokedKey}`, caller: null, own: "A" };
    case "operator": return { header: `Bearer ${w.adminToken}`, caller: null, own: "A" };
    case "latin1": return { header: `Bearer bk_test_\u00e9\u00e9\u00ff`, caller: null, own: "A" };
  }
}

interface Ctx {
  w: World;
  own: Label;
  /** Resolve foreign references as unknown ones (the twin). */
  twin: boolean;
  foreign: boolean;
}

function value(v: Value, ctx: Ctx, twinnable: boolean): unknown {
  if ("lit" in v) return v.lit;
  if ("json" in v) return v.json;
  const { ref, src, n } = v;
  if (src === "unknown") return unknownValue(ref, n);
  const mine = ctx.w[ctx.own];
  const theirs = ctx.w[other(ctx.own)];
  if (src === "own") {
    const pool = mine.pools[ref];
    return pool.length ? pool[n % pool.length] : unknownValue(ref, n);
  }
  // Foreign: the other tenant's value that is not also ours (e-mails may be shared).
  const pool = theirs.pools[ref].filter((x) => !mine.idents.has(x));
  if (!pool.length) return unknownValue(ref, n);
  if (twinnable) {
    ctx.foreign = true;
    if (ctx.twin) return unknownValue(ref, n);
  }
  return pool[n % pool.length];
}

const asString = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));

function queryString(items: QueryItem[], ctx: Ctx): string {
  const parts = items.map((q) => {
    const name = enc(q.name);
    const val = enc(asString(value(q.value, ctx, q.name !== "after")));
    switch (q.style) {
      case "plain": return `${name}=${val}`;
      case "array": return `${name}[]=${val}`;
      case "object": return `${name}[x]=${val}`;
      case "bare": return name;
      case "broken-escape": return `${name}=%E0%A4%A${val}%`;
    }
  });
  return parts.length ? `?${parts.join("&")}` : "";
}

const CONTENT_TYPES: Record<ContentType, string | undefined> = {
  json: "application/json",
  "json-charset": "application/json; charset=utf-8",
  "json-upper": "APPLICATION/JSON",
  "json-utf16": "application/json; charset=utf-16",
  "vnd-json": "application/vnd.api+json",
  form: "application/x-www-form-urlencoded",
  multipart: `multipart/form-data; boundary=${BOUNDARY}`,
  "multipart-file": `multipart/form-data; boundary=${BOUNDARY}`,
  "multipart-broken": `multipart/form-data; boundary=${BOUNDARY}`,
  "multipart-no-boundary": "multipart/form-data",
  text: "text/plain",
  xml: "application/xml",
  none: undefined,
  bogus: "foo/bar; baz",
  "empty-type": "",
};

function formPairs(entries: [string, unknown][]): [string, string][] {
  return entries.flatMap(([k, v]): [string, string][] =>
    Array.isArray(v) ? v.map((x): [string, string] => [k, asString(x)]) : [[k, v === null ? "" : asString(v)]],
  );
}

function multipart(pairs: [string, string][], file: boolean, broken: boolean): string {
  const parts = pairs.map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "%22")}"\r\n\r\n${v}\r\n`);
  if (file) parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`);
  return parts.join("") + (broken ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\nunterminated` : `--${BOUNDARY}--\r\n`);
}

function encodeBody(type: ContentType, shape: BodyShape, ctx: Ctx, op: OperationSpec): string {
  let entries: [string, unknown][] | undefined;
  if (shape.kind === "object") {
    // Only offer ids are references to another record; e-mails in a body are new values.
    entries = shape.fields.map(([k, v]) => [k, value(v, ctx, !("ref" in v) || v.ref !== "email")]);
  } else if (shape.kind === "big") {
    entries = [[shape.field, "x".repeat(shape.size)]];
  } else if (shape.kind === "empty") {
    return "";
  }
  const text = shape.kind === "json" ? JSON.stringify(shape.value) ?? "null" : shape.kind === "raw" ? shape.text : undefined;
  if (type.startsWith("multipart") && type !== "multipart-no-boundary") {
    const pairs = entries ? formPairs(entries) : [["raw", text ?? ""] as [string, string]];
    return type === "multipart" && !entries ? text ?? "" : multipart(pairs, type === "multipart-file", type === "multipart-broken");
  }
  if (type === "form") return entries ? new URLSearchParams(formPairs(entries)).toString() : text ?? "";
  if (entries) {
    // Written by hand so "__proto__" and repeated keys reach the server as sent.
    return "{" + entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`).join(",") + "}";
  }
  void op;
  return text ?? "";
}

function build(spec: RequestSpec, op: OperationSpec, w: World, twin: boolean, runTag: string, counter: number): { request: ConcreteRequest; caller: Label | null; foreign: boolean } {
  const auth = authHeader(spec.auth, w);
  const ctx: Ctx = { w, own: auth.own, twin, foreign: false };
  let path = op.template;
  for (const p of op.pathParams) {
    const v = asString(value(spec.path[p.name]!, ctx, true));
    path = path.replace(`{${p.name}}`, v === "" ? "%20" : enc(v));
  }
  // Node answers 431 itself above 16 kB of headers: keep the request line well under it.
  const query = [...spec.query];
  let qs = queryString(query, ctx);
  while (path.length + qs.length > 9_000 && query.length) qs = queryString(query.slice(0, -1), ctx), query.pop();
  path += qs;
  const headers: Record<string, string> = {};
  if (auth.header !== undefined) headers.authorization = auth.header;
  let body: Buffer | undefined;
  if (spec.body) {
    body = Buffer.from(safe(encodeBody(spec.body.type, spec.body.shape, ctx, op)), "utf8");
    const ct = CONTENT_TYPES[spec.body.type];
    if (ct !== undefined) headers["content-type"] = ct;
  }
  if (spec.idempotency) {
    const i = spec.idempotency;
    headers["idempotency-key"] = i.kind === "fresh" ? `fz-${runTag}-${counter}-${i.n}` : i.kind === "pool" ? `fz-pool-${i.n}` : i.raw!;
  }
  return { request: { operationId: op.operationId, method: op.method, path, headers, body }, caller: auth.caller, foreign: ctx.foreign };
}

export function resolveRequest(spec: RequestSpec, op: OperationSpec, w: World, runTag: string, counter: number): Resolved {
  const first = build(spec, op, w, false, runTag, counter);
  // A twin only makes sense for an authenticated caller and without idempotency replays in the way.
  const wantTwin = first.foreign && first.caller !== null && !spec.idempotency;
  return {
    request: first.request,
    caller: first.caller,
    twin: wantTwin ? build(spec, op, w, true, runTag, counter).request : undefined,
  };
}
