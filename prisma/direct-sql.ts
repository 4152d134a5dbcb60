// Hot statements without Prisma's query compiler. Prisma 6.19 compiles every query in wasm, raw ones
// too, with no plan cache: a model call costs about 0.6-0.9 ms of CPU and `$queryRaw` about 0.2 ms,
// where the same statement sent by node-postgres costs about 0.05 ms. On PostgreSQL, `sqlQuery` and
// `sqlExecute` send a statement straight to the connection Prisma already holds: the pool's for the
// client, the transaction's own for an interactive transaction's `tx`, so the statement is part of
// that transaction exactly as `tx.$queryRaw` would be. Anywhere else (PGlite, a client this file was
// not told about) they fall back to `$queryRawUnsafe`, so callers write one text for both databases.
//
// Write texts whose answers are the same both ways: cast counts to int, enums to text, and leave
// numeric columns out (node-postgres answers int8 and numeric as strings, Prisma as BigInt and Decimal).
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import { Prisma, type PrismaClient } from "../generated/prisma/client.ts";

/** The Prisma client or one of its interactive transactions. */
export type SqlClient = Pick<PrismaClient, "$queryRawUnsafe" | "$executeRawUnsafe">;

/** `timestamp(3)` columns hold UTC (Prisma's convention); node-postgres would read them as local time. */
export const TIMESTAMP_OID = 1114;
export const utcTimestamp = (text: string) => new Date(`${text.replace(" ", "T")}Z`);
export const utcTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? utcTimestamp : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** A stable name per text: node-postgres prepares a name once per connection and refuses one name for two texts. */
const statementNames = new Map<string, string>();
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `q_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`));
  return name;
}

/**
 * A Date as UTC text: node-postgres would send local time with an offset, which a `timestamp` column
 * (no zone) keeps as written; the ISO form is right for `timestamp` and `timestamptz` alike.
 */
export function pgValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** A connection a statement can be sent to: the pool, or the transaction's checked-out client. */
interface Target {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  /** The transaction ended (committed, rolled back, or timed out): its connection is someone else's now. */
  closed?: boolean;
}

const targets = new WeakMap<object, Target>();

/** The transaction whose connection is being checked out, while Prisma starts it. */
const starting = new AsyncLocalStorage<{ client?: pg.PoolClient; target?: Target }>();

/**
 * The pool to give Prisma's PostgreSQL adapter: a connection checked out while an interactive
 * transaction starts is noted as that transaction's, until it goes back to the pool.
 */
export class TransactionTrackingPool extends pg.Pool {
  override connect(...args: unknown[]): never {
    if (args.length > 0) return (super.connect as (...a: unknown[]) => never)(...args);
    return (super.connect() as Promise<pg.PoolClient>).then((client) => {
      const start = starting.getStore();
      if (start && !start.client) {
        start.client = client;
        const target: Target = { query: (config) => client.query(config) };
        start.target = target;
        const release = client.release.bind(client);
        client.release = (err?: Error | boolean) => {
          target.closed = true;
          client.release = release;
          return release(err);
        };
      }
      return client;
    }) as never;
  }
}

/**
 * Lets `sqlQuery`/`sqlExecute` reach `prisma`'s connections: the pool for the client itself, and each
 * interactive transaction's own connection for its `tx` (the client's `$transaction` is wrapped so the
 * connection checked out for it is known by the time the callback runs).
 */
export function enableDirectSql(prisma: PrismaClient, pool: pg.Pool): void {
  targets.set(prisma, { query: (config) => pool.query(config) });
  const original = prisma.$transaction.bind(prisma) as (arg: unknown, options?: unknown) => Promise<unknown>;
  const wrapped = (arg: unknown, options?: unknown) => {
    if (typeof arg !== "function") return original(arg, options);
    const start: { client?: pg.PoolClient; target?: Target } = {};
    const started = startWatching();
    const running = starting.run(start, () =>
      original((tx: object) => {
        started();
        if (start.target) targets.set(tx, start.target);
        return (arg as (tx: object) => unknown)(tx);
      }, options),
    );
    return running.then(
      (value) => (started(), value),
      (err: unknown) => (started(), Promise.reject(err)),
    );
  };
  Object.defineProperty(prisma, "$transaction", { value: wrapped, configurable: true, writable: true });
}

// While an AsyncLocalStorage is enabled, Node 20 runs a hook on every promise the process makes (every
// request's, not only a transaction's). It is needed only while a transaction is starting: enabled by
// the first start, disabled when none is. A start that somehow lost its store only means its `tx` takes
// the `$queryRawUnsafe` path (no target known), which is correct, only slower.
let startsInFlight = 0;
function startWatching(): () => void {
  startsInFlight++;
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    if (--startsInFlight === 0) starting.disable();
  };
}

function textOf(sql: string | Prisma.Sql, values: unknown[]): { text: string; values: unknown[] } {
  return typeof sql === "string" ? { text: sql, values } : { text: sql.text, values: sql.values };
}

/**
 * A unique violation answered the way Prisma's model calls answer it (P2002), whichever path ran it:
 * node-postgres's error (code 23505), or a raw query's P2010 that wraps the driver's 23505.
 */
function asPrismaError(err: unknown): unknown {
  const e = err as { code?: string; constraint?: string; message?: string; meta?: { driverAdapterError?: { cause?: { code?: string; message?: string } } } };
  const cause = e?.code === "23505" ? { message: e.message, constraint: e.constraint } : e?.meta?.driverAdapterError?.cause?.code === "23505" ? { message: e.meta.driverAdapterError.cause.message } : null;
  if (!cause) return err;
  return new Prisma.PrismaClientKnownRequestError(`Unique constraint failed: ${cause.message}`, { code: "P2002", clientVersion: Prisma.prismaVersion.client, meta: { constraint: cause.constraint } });
}

/**
 * `customPlan`: planned for its values at each run (an unnamed statement), never with a cached generic
 * plan. For the claims of the job queues: with their parameters unknown, PostgreSQL estimates one pending
 * row, and a generic plan that reads and sorts the whole backlog then looks cheapest; planned with the
 * values (and the statistics), the claim walks the pending index in due order and stops at its batch.
 */
export interface SqlOptions {
  customPlan?: boolean;
}

async function run(client: SqlClient, sql: string | Prisma.Sql, params: unknown[], opts: SqlOptions): Promise<pg.QueryResult | null> {
  const target = targets.get(client);
  if (!target) return null;
  if (target.closed) throw new Error("the transaction has ended; its connection is no longer this caller's");
  const { text, values } = textOf(sql, params);
  try {
    return await target.query({ ...(opts.customPlan ? {} : { name: statementName(text) }), text, values: values.map(pgValue), types: utcTypes });
  } catch (err) {
    throw asPrismaError(err);
  }
}

/** Rows of a statement (`$1`… parameters, or a `Prisma.sql` template) run in `client`, a client or a transaction. */
export async function sqlQuery<T>(client: SqlClient, sql: string | Prisma.Sql, values: unknown[] = [], opts: SqlOptions = {}): Promise<T[]> {
  const result = await run(client, sql, values, opts);
  if (result) return result.rows as T[];
  const { text, values: v } = textOf(sql, values);
  return client.$queryRawUnsafe<T[]>(text, ...v).catch((err: unknown) => Promise.reject(asPrismaError(err)));
}

/** How many rows a statement changed, run in `client`, a client or a transaction. */
export async function sqlExecute(client: SqlClient, sql: string | Prisma.Sql, values: unknown[] = [], opts: SqlOptions = {}): Promise<number> {
  const result = await run(client, sql, values, opts);
  if (result) return result.rowCount ?? 0;
  const { text, values: v } = textOf(sql, values);
  return client.$executeRawUnsafe(text, ...v).catch((err: unknown) => Promise.reject(asPrismaError(err)));
}
