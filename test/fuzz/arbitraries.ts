// fast-check arbitraries for /v1 requests, generated from the operations of the OpenAPI document.
// A generated request is abstract (which tenant's id, which kind of bad value...); resolve.ts turns
// it into bytes against the seeded world at send time, so one seed replays the same choices.
import fc from "fast-check";
import type { BodyProperty, OperationSpec, ParamSpec } from "./operations.ts";
import type { RefKind } from "./world.ts";

/** A value for a slot: a reference to seeded data, or a literal. */
export type Value =
  | { ref: RefKind; src: "own" | "foreign" | "unknown" | "malformed"; n: number }
  | { lit: string }
  /** Any JSON value (wrong types, nulls, arrays, nested objects). */
  | { json: unknown };

export type Auth =
  | "own-write" | "own-read" | "other-write" | "other-read" // keys of tenant A and B ("own" is A)
  | "none" | "empty" | "bearer-only" | "basic" | "lowercase-bearer" | "double-space" | "truncated" | "suffixed"
  | "two-keys" | "unknown-key" | "revoked" | "operator" | "latin1";

export interface QueryItem {
  name: string;
  value: Value;
  style: "plain" | "array" | "object" | "bare" | "broken-escape";
}

export type ContentType =
  | "json" | "json-charset" | "json-upper" | "json-utf16" | "vnd-json" | "form" | "multipart" | "multipart-file"
  | "multipart-broken" | "multipart-no-boundary" | "text" | "xml" | "none" | "bogus" | "empty-type";

export type BodyShape =
  | { kind: "object"; fields: [string, Value][] }
  | { kind: "json"; value: unknown } // any JSON text (null, array, primitive, deep nesting)
  | { kind: "raw"; text: string } // broken JSON and other bytes
  | { kind: "big"; field: string; size: number }
  | { kind: "empty" };

export interface RequestSpec {
  operationId: string;
  auth: Auth;
  path: Record<string, Value>;
  query: QueryItem[];
  body?: { type: ContentType; shape: BodyShape };
  idempotency?: { kind: "fresh" | "pool" | "invalid"; n: number; raw?: string };
}

const ULID = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export const PREFIX: Partial<Record<RefKind, string>> = {
  subscription: "sub",
  payment: "pay",
  order: "ord",
  campaign: "cmp",
  offer: "offer",
};

/** The seeded kind a parameter or body field names, by its name or its documented id pattern. */
export function refKindOf(name: string, schema: Record<string, any> = {}): RefKind | undefined {
  const byName: Record<string, RefKind> = {
    subscription_id: "subscription",
    payment_id: "payment",
    order_id: "order",
    campaign_id: "campaign",
    offer_id: "offer",
    external_id: "customer",
    after: "cursor",
  };
  if (byName[name]) return byName[name];
  if (schema.format === "email" || name === "email") return "email";
  const m = typeof schema.pattern === "string" ? /^\^([a-z]+)_/.exec(schema.pattern) : null;
  return (Object.entries(PREFIX).find(([, p]) => p === m?.[1])?.[0] as RefKind | undefined) ?? undefined;
}

/** `arb` in `present` cases out of `present + absent`, else undefined. */
function maybe<T>(arb: fc.Arbitrary<T>, present: number, absent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: present, arbitrary: arb }, { weight: absent, arbitrary: fc.constant(undefined) });
}

// ---- strings that break things -------------------------------------------------------------

const nasty = fc.constantFrom(
  "", " ", "../../etc/passwd", "..%2F..%2F", "..", ".", "%", "%25", "%00", "\u0000", "a\u0000b", "' OR 1=1 --", "\"; DROP TABLE customers; --",
  "<script>alert(1)</script>", "${7*7}", "{{7*7}}", "\u202Etxt.exe", "\u200B", "\uFEFF", "💩", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "é", "\uD800", "\\", "/", "?", "#",
  "null", "undefined", "true", "0", "-1", "NaN", "Infinity", "[]", "{}", "__proto__", "constructor", "\r\n", "\t", "ＳＵＢ＿",
);
// Long, but under Node's 16 kB header limit once percent-encoded (a 431 comes from Node, not the service).
const longString = fc.tuple(fc.integer({ min: 256, max: 2500 }), fc.constantFrom("a", "é", "💩", "%")).map(([n, c]) => c.repeat(Math.floor(n / c.length / (c === "a" ? 1 : 4))));
const unicode = fc.string({ unit: "grapheme", maxLength: 40 });
const weirdString = fc.oneof({ weight: 4, arbitrary: nasty }, { weight: 1, arbitrary: longString }, { weight: 3, arbitrary: unicode }, { weight: 2, arbitrary: fc.string({ maxLength: 30 }) });

const ulidBody = fc.array(fc.constantFrom(...ULID), { minLength: 26, maxLength: 26 }).map((a) => "0" + a.slice(1).join(""));

function malformedId(prefix: string): fc.Arbitrary<string> {
  return fc.oneof(
    ulidBody.map((u) => `${prefix}_${u.toLowerCase()}`),
    ulidBody.map((u) => `${prefix}_${u.slice(1)}`),
    ulidBody.map((u) => `${prefix}_${u}0`),
    ulidBody.map((u) => `${prefix}_${u.slice(0, 20)}ILOU${u.slice(24)}`),
    ulidBody.map((u) => `${prefix.toUpperCase()}_${u}`),
    ulidBody.map((u) => `${prefix}-${u}`),
    ulidBody.map((u) => ` ${prefix}_${u}`),
    ulidBody.map((u) => `${prefix}_${u}\u0000`),
    ulidBody.map((u) => `${prefix === "pay" ? "sub" : "pay"}_${u}`),
    fc.constant(`${prefix}_`),
    fc.constant(prefix),
    fc.constant(`${prefix}_${"Z".repeat(3000)}`),
    weirdString,
  );
}

/** A reference to seeded data: the caller's own, the other tenant's, unknown or malformed. */
function refValue(kind: RefKind): fc.Arbitrary<Value> {
  const prefix = PREFIX[kind] ?? (kind === "cursor" ? "sub" : "cus");
  return fc.oneof(
    { weight: 14, arbitrary: fc.nat().map((n): Value => ({ ref: kind, src: "own", n })) },
    { weight: 4, arbitrary: fc.nat().map((n): Value => ({ ref: kind, src: "foreign", n })) },
    { weight: 2, arbitrary: fc.nat().map((n): Value => ({ ref: kind, src: "unknown", n })) },
    { weight: 3, arbitrary: malformedId(prefix).map((lit): Value => ({ lit })) },
  );
}

// ---- values by schema ----------------------------------------------------------------------

const wrongType: fc.Arbitrary<Value> = fc
  .oneof(
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxKeys: 3 }),
    fc.constant({ $gt: "" }),
    fc.constant([[[[]]]]),
  )
  .map((json): Value => ({ json }));

const isoDate = fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2199-12-31T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
const dateTime = fc.oneof(
  isoDate,
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 800 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString()) },
  fc.constantFrom("2027-02-30T00:00:00Z", "2027-13-01T00:00:00Z", "2027-01-01", "2027-01-01T00:00:00", "2027-01-01T25:00:00Z", "tomorrow", "0", "2027-06-01T00:00:00+03:00", "+275760-09-13T00:00:00.000Z", "9999-12-31T23:59:59.999Z"),
);

const emailValue = fc.oneof(
  { weight: 3, arbitrary: refValue("email") },
  { weight: 3, arbitrary: fc.nat({ max: 5000 }).map((n): Value => ({ lit: `fz-new-${n}@example.com` })) },
  { weight: 1, arbitrary: fc.constantFrom("not-an-email", "a@b", "@x.com", "x@", "A@B.CO", " spaced@example.com ", "x@sync-fail.example", "ü@exämple.com").map((lit): Value => ({ lit })) },
);

function stringFor(name: string, schema: Record<string, any>): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  const byName: Record<string, fc.Arbitrary<string>> = {
    name: fc.constantFrom("Maria Souza", "Zé", "J", "  Ana  ", "Ñandú Ölçü", "x".repeat(201)),
    phone: fc.constantFrom("+5511987654321", "11987654321", "+551133334444", "123", "+1 415 555 2671", "+55119876543210000", "abc"),
    reason: fc.constantFrom("too expensive", "", "motivo com acentuação", "r".repeat(300), "r".repeat(301)),
  };
  const boundary = max !== undefined ? [fc.constant("x".repeat(max)), fc.constant("x".repeat(max + 1))] : [];
  return fc.oneof({ weight: 6, arbitrary: byName[name] ?? fc.string({ maxLength: 20 }) }, ...boundary);
}

/** A body field's value, from its schema: mostly valid, sometimes the wrong type or a nasty string. */
function fieldValue(p: BodyProperty): fc.Arbitrary<Value> {
  const s = p.schema;
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
  const kind = refKindOf(p.name, s);
  let valid: fc.Arbitrary<Value>;
  if (kind === "email") valid = emailValue;
  else if (kind) valid = refValue(kind);
  else if (Array.isArray(s.enum)) valid = fc.constantFrom(...(s.enum as string[]), "bogus", "SUBSCRIPTION").map((lit): Value => ({ lit }));
  else if (s.format === "date-time") valid = dateTime.map((lit): Value => ({ lit }));
  else if (types.includes("integer"))
    valid = fc
      .oneof(
        { weight: 4, arbitrary: fc.constantFrom(1, 100, 2990, 4990, 9980, 0, -1, 2 ** 31, 2 ** 53, 1e21).map((json): Value => ({ json })) },
        { weight: 3, arbitrary: fc.integer({ min: -10, max: 10_000 }).map((json): Value => ({ json })) },
        fc.constantFrom("100", " 100 ", "1e3", "10.5", "0x10", "abc", "-0", "99999999999999999999").map((lit): Value => ({ lit })),
        fc.constantFrom(10.5, -0.0001).map((json): Value => ({ json })),
      );
  else if (types.includes("boolean"))
    valid = fc.oneof({ weight: 3, arbitrary: fc.boolean().map((json): Value => ({ json })) }, fc.constantFrom("true", "false", "1", "0", "yes", "").map((lit): Value => ({ lit })));
  else valid = stringFor(p.name, s).map((lit): Value => ({ lit }));
  if (types.includes("null")) valid = fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: fc.constant<Value>({ json: null }) });
  return fc.oneof(
    { weight: 14, arbitrary: valid },
    { weight: 1, arbitrary: wrongType },
    { weight: 1, arbitrary: weirdString.map((lit): Value => ({ lit })) },
  );
}

const EXTRA_FIELDS = ["status", "tenant_id", "amount_cents", "id", "customer_id", "subscription_id", "doc", "external_id", "__proto__", "constructor", "price_cents", "currency", "plan_id"];
const extraField: fc.Arbitrary<[string, Value]> = fc.tuple(
  fc.oneof(fc.constantFrom(...EXTRA_FIELDS), fc.string({ maxLength: 12 })),
  fc.oneof(fc.constantFrom("canceled", "tn_01ARZ3NDEKTSV4RRFFQ69G5FAV", "1").map((lit): Value => ({ lit })), wrongType, fc.constant<Value>({ json: null })),
);

function nested(depth: number, leaf: unknown, asArray: boolean): string {
  return asArray ? "[".repeat(depth) + JSON.stringify(leaf) + "]".repeat(depth) : '{"a":'.repeat(depth) + JSON.stringify(leaf) + "}".repeat(depth);
}

function bodyShape(op: OperationSpec): fc.Arbitrary<BodyShape> {
  const props = op.bodyProperties;
  const documented = props.length
    ? fc
        .tuple(
          ...props.map((p) =>
            p.required ? maybe(fieldValue(p), 12, 1) : maybe(fieldValue(p), 1, 1),
          ),
        )
        .map((vals) => vals.flatMap((v, i) => (v === undefined ? [] : [[props[i]!.name, v] as [string, Value]])))
    : fc.constant<[string, Value][]>([]);
  const object = fc
    .tuple(documented, maybe(fc.array(extraField, { minLength: 1, maxLength: 3 }), 1, 4))
    .map(([fields, extras]): BodyShape => ({ kind: "object", fields: [...fields, ...(extras ?? [])] }));
  const json = fc
    .oneof(
      fc.constantFrom<unknown>(null, [], [1, 2], "text", 42, true, {}),
      fc.jsonValue({ maxDepth: 3 }),
    )
    .map((value): BodyShape => ({ kind: "json", value }));
  const deep = fc
    .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
    .map(([depth, asArray]): BodyShape => ({ kind: "raw", text: nested(depth, 1, asArray) }));
  const broken = fc
    .constantFrom("{bad json", '{"a":}', '{"email": "x@y.co",}', "{", "}", '{"a":1}{"b":2}', "\uFEFF{}", "\u0000", "nul\u0000l", '{"a":"\\ud800"}', '{"a":1e400}', "'single'", "%7B%7D", "---")
    .map((text): BodyShape => ({ kind: "raw", text }));
  const big = fc
    .tuple(fc.constantFrom(...(props.length ? props.map((p) => p.name) : ["x"]), "filler"), fc.oneof(fc.integer({ min: 10_000, max: 99_000 }), fc.integer({ min: 101_000, max: 160_000 })))
    .map(([field, size]): BodyShape => ({ kind: "big", field, size }));
  return fc.oneof(
    { weight: 30, arbitrary: object },
    { weight: 3, arbitrary: json },
    { weight: 1, arbitrary: deep },
    { weight: 2, arbitrary: broken },
    { weight: 1, arbitrary: big },
    { weight: 2, arbitrary: fc.constant<BodyShape>({ kind: "empty" }) },
  );
}

const contentType: fc.Arbitrary<ContentType> = fc.oneof(
  { weight: 14, arbitrary: fc.constant<ContentType>("json") },
  { weight: 5, arbitrary: fc.constant<ContentType>("form") },
  { weight: 5, arbitrary: fc.constant<ContentType>("multipart") },
  {
    weight: 4,
    arbitrary: fc.constantFrom<ContentType>("json-charset", "json-upper", "json-utf16", "vnd-json", "multipart-file", "multipart-broken", "multipart-no-boundary", "text", "xml", "none", "bogus", "empty-type"),
  },
);

// ---- query strings ---------------------------------------------------------------------------

function queryValue(p: ParamSpec): fc.Arbitrary<Value> {
  const s = p.schema;
  const kind = refKindOf(p.name, s);
  if (p.name === "limit")
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 500 }).map((n): Value => ({ lit: String(n) })) },
      fc.constantFrom("0", "501", "-1", "abc", "1.5", "", " 5", "0x10", "1e2", "99999999999999999999", "500", "1").map((lit): Value => ({ lit })),
    );
  if (kind) return refValue(kind);
  const items = s.type === "array" ? s.items : s;
  if (Array.isArray(items?.enum)) {
    const values = items.enum as string[];
    return fc.oneof(
      { weight: 3, arbitrary: fc.subarray(values, { minLength: 1 }).map((v): Value => ({ lit: v.join(",") })) },
      fc.constantFrom("bogus", "", ",", "ACTIVE", `${values[0]},bogus`, "active,,past_due").map((lit): Value => ({ lit })),
    );
  }
  return weirdString.map((lit): Value => ({ lit }));
}

function queryItems(op: OperationSpec): fc.Arbitrary<QueryItem[]> {
  const style = fc.oneof(
    { weight: 12, arbitrary: fc.constant<QueryItem["style"]>("plain") },
    { weight: 1, arbitrary: fc.constantFrom<QueryItem["style"]>("array", "object", "bare", "broken-escape") },
  );
  const documented = op.queryParams.map((p) =>
    fc.tuple(queryValue(p), style, fc.integer({ min: 0, max: 7 })).map(([value, st, dice]): QueryItem[] => {
      const twice = dice === 0;
      const one = { name: p.name, value, style: st };
      return twice && st === "plain" ? [one, { ...one }] : [one];
    }),
  );
  const unknown = fc
    .tuple(fc.oneof(fc.constantFrom("foo", "expand", "tenant_id", "status", "limit", "callback", "__proto__"), fc.string({ minLength: 1, maxLength: 10 })), weirdString, style)
    .map(([name, lit, st]): QueryItem[] => [{ name, value: { lit }, style: st }]);
  const perParam = documented.map((a, i) => (op.queryParams[i]!.name === "after" ? maybe(a, 1, 3) : maybe(a, 1, 1)));
  return fc
    .tuple(fc.tuple(...perParam), maybe(unknown, 1, 3))
    .map(([params, extra]) => [...params.flatMap((p) => p ?? []), ...(extra ?? [])]);
}

// ---- headers ---------------------------------------------------------------------------------

const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 30, arbitrary: fc.constant<Auth>("own-write") },
  { weight: 10, arbitrary: fc.constant<Auth>("own-read") },
  { weight: 18, arbitrary: fc.constant<Auth>("other-write") },
  { weight: 6, arbitrary: fc.constant<Auth>("other-read") },
  {
    weight: 12,
    arbitrary: fc.constantFrom<Auth>("none", "empty", "bearer-only", "basic", "lowercase-bearer", "double-space", "truncated", "suffixed", "two-keys", "unknown-key", "revoked", "operator", "latin1"),
  },
);

const idempotency = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((n) => ({ kind: "fresh" as const, n })) },
  { weight: 3, arbitrary: fc.nat({ max: 6 }).map((n) => ({ kind: "pool" as const, n })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(" ", "a b", "é", "x".repeat(256), "\t", "\u00a0key").map((raw) => ({ kind: "invalid" as const, n: 0, raw })),
  },
);

// ---- requests --------------------------------------------------------------------------------

export function operationArbitrary(op: OperationSpec): fc.Arbitrary<RequestSpec> {
  const path = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, refValue(refKindOf(p.name, p.schema) ?? "customer")])) as Record<string, fc.Arbitrary<Value>>);
  const isPost = op.method === "POST";
  // Routes without a documented body still get one now and then (and GETs rarely).
  const [withBody, without] = isPost ? (op.contentTypes.length ? (op.bodyRequired ? [20, 1] : [4, 1]) : [1, 4]) : [1, 15];
  const body = maybe(fc.record({ type: contentType, shape: bodyShape(op) }), withBody!, without!);
  const idem = isPost ? maybe(idempotency, 1, 3) : fc.constant(undefined);
  return fc
    .record({ auth, path, query: queryItems(op), body, idempotency: idem })
    .map((r): RequestSpec => ({ operationId: op.operationId, ...r, body: r.body ?? undefined, idempotency: r.idempotency ?? undefined }));
}

/** Any documented /v1 operation, each equally likely. */
export function requestArbitrary(ops: OperationSpec[]): fc.Arbitrary<RequestSpec> {
  return fc.oneof(...ops.map((o) => operationArbitrary(o)));
}
