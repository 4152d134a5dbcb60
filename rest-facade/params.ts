// HTTP strings to typed GraphQL variables. Only syntax lives here; ranges and rules are the core's.
import type { Request } from "express";
import { AppError, type ErrorKey } from "../core/shared/errors.ts";

const INT32_MAX = 2 ** 31 - 1;

/** A single query value; a repeated parameter is refused with `key`. */
export function queryString(req: Request, name: string, key: ErrorKey = "invalid_parameter"): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw new AppError(key, { error: `${name} must be given once, as a string` });
  return v;
}

/** An integer query value; out-of-int32 values pass as the nearest bound so the core refuses them by its rule. */
export function queryInt(req: Request, name: string, key: ErrorKey): number | undefined {
  const v = queryString(req, name, key);
  if (v === undefined || v === "") return undefined;
  if (!/^-?\d+$/.test(v)) throw new AppError(key);
  return Math.max(-INT32_MAX, Math.min(INT32_MAX, Number(v)));
}

export function pageArgs(req: Request) {
  const after = queryString(req, "after", "invalid_cursor");
  return { first: queryInt(req, "limit", "invalid_limit"), after: after === "" ? undefined : after };
}

/** Relay connection to the contract's page: {results, next}. */
/** A Relay connection as the GraphQL operations return it. */
export type Connection<N = Record<string, unknown>> = { edges: { node: N }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

export function toPage<N>(conn: Connection<N>, pick: (n: N) => unknown) {
  return { results: conn.edges.map((e) => pick(e.node)), next: conn.pageInfo.hasNextPage ? conn.pageInfo.endCursor : null };
}

/** A body field that must be a string when present (forms send strings; JSON may not). */
export function stringField(body: Record<string, unknown>, name: string): string | null {
  const v = body[name];
  if (v == null) return null;
  if (typeof v !== "string") throw new AppError("invalid_body", { error: `${name} must be a string` });
  return v;
}

/**
 * A body integer: a JSON integer or, as forms send it, a string of digits. Absent (or null) is null;
 * anything else (a float, "10.5", "abc", an array) is 400 invalid_body. Ranges are the core's.
 */
export function integerField(body: Record<string, unknown>, name: string): number | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d{1,16}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new AppError("invalid_body", { error: `${name} must be an integer` });
  return n;
}

/** A body boolean: JSON true/false or the form strings true/false/1/0; absent is null. */
export function booleanField(body: Record<string, unknown>, name: string): boolean | null {
  const v = body[name];
  if (v === undefined || v === null || v === "") return null;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new AppError("invalid_body", { error: `${name} must be true or false` });
}
