// Keyset pagination of the contract: limit 1..500 (default 100), `after` is the last id seen,
// ordering by ULID id. A deleted row's id still works as a cursor.
import { AppError } from "./errors.ts";
import { isId, type IdKind } from "./ids.ts";

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

export interface PageArgs {
  limit?: number | null;
  after?: string | null;
}

export interface Keyset {
  take: number;
  afterId: string | undefined;
  limit: number;
}

export function keyset(args: PageArgs, kind: IdKind): Keyset {
  const limit = args.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new AppError("invalid_limit");
  if (args.after != null && !isId(kind, args.after)) throw new AppError("invalid_cursor");
  // One extra row tells whether a next page exists without a COUNT.
  return { take: limit + 1, afterId: args.after ?? undefined, limit };
}

export interface Page<T> {
  rows: T[];
  next: string | null;
}

export function toPage<T extends { id: string }>(rows: T[], k: Keyset): Page<T> {
  const page = rows.slice(0, k.limit);
  return { rows: page, next: rows.length > k.limit ? page[page.length - 1]!.id : null };
}
