// How a PostgreSQL jsonb column gives its keys back: shorter keys first, equal lengths bytewise.
// Bodies whose objects were read from such a column (tracking, event data) keep that order when they
// are rebuilt from typed fields, so the wire bytes stay those of the stored JSON.
const utf8 = new TextEncoder();

function compareKeys(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

export function jsonbOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(jsonbOrder) as T;
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareKeys(a, b));
  return Object.fromEntries(entries.map(([k, v]) => [k, jsonbOrder(v)])) as T;
}
