// The one PrismaClient factory. PostgreSQL (adapter-pg) when a URL is given, embedded PGlite otherwise.
import fs from "node:fs";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import { pgPoolConfig, pgliteDataDir } from "./connection.ts";
import { applyMigrations, type SqlRunner } from "./migrate.ts";
import { enableDirectSql, pgValue, statementName, TIMESTAMP_OID, TransactionTrackingPool, utcTimestamp, utcTypes } from "./direct-sql.ts";

export type { PrismaClient };

export interface Db {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** Raw SQL for migrations and LISTEN/NOTIFY-free maintenance. */
  sql: SqlRunner;
  /**
   * A hot-path read (`$1`… parameters) on Prisma's own connections, without Prisma's query compiler:
   * 6.19 compiles every query in wasm, raw ones too, with no plan cache, so a hot read through
   * `$queryRaw` spends most of its CPU compiling. On PostgreSQL each text is a named prepared statement,
   * parsed and planned once per connection (planning a join can cost the server more than running it),
   * so its parameters must not pick between plans (one text per
   * shape). Timestamps come back as UTC Dates, as through Prisma.
   * Never inside `prisma.$transaction`: it does not see the transaction, and on PGlite it would wait
   * for the transaction to end.
   */
  read<T>(sql: string, params: unknown[]): Promise<T[]>;
  /**
   * Subscribe to a PostgreSQL NOTIFY channel (cache invalidation, webhook wake-ups); delivered after
   * commit. `onLost`: the listening connection broke (notifications from then on are lost; listen again).
   */
  listen(channel: string, onMessage: (payload: string) => void, onLost?: () => void): Promise<void>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** PostgreSQL URL; defaults to DATABASE_URL. Empty means embedded PGlite. */
  url?: string;
  /** PGlite data directory, or "memory://" for an in-memory database (tests). */
  pgliteDir?: string;
  poolSize?: number;
  migrate?: boolean;
}

export async function openDb(opts: OpenDbOptions = {}): Promise<Db> {
  const url = opts.url ?? process.env.DATABASE_URL ?? "";
  const db = url ? openPostgres(url, opts.poolSize) : await openPglite(opts.pgliteDir ?? pgliteDataDir());
  if (opts.migrate !== false) await applyMigrations(db.sql);
  return db;
}

/**
 * Any other format makes Prisma capture a stack trace (`new Error()`) on every model call, for a code
 * frame in its error messages that nothing here shows, on the hot path of every query. Errors are
 * mapped by code (P2002, P2028) and logged with their own stack.
 */
const ERROR_FORMAT = "minimal";

function openPostgres(url: string, poolSize = 10): Db {
  const config = pgPoolConfig(url, poolSize);
  // A burst waits for a free connection up to 10 s (Prisma's default is 2 s) before it is a 503.
  // One pool for Prisma and `read`; Prisma leaves an external pool open, close() ends it.
  const shared = new TransactionTrackingPool(config);
  shared.on("error", () => undefined); // an idle connection dropped by the server; the pool replaces it
  const prisma = new PrismaClient({ adapter: new PrismaPg(shared), errorFormat: ERROR_FORMAT, transactionOptions: { maxWait: 10_000, timeout: 15_000 } });
  enableDirectSql(prisma, shared);
  const pool = new pg.Pool({ ...config, max: 2 });
  const listeners: pg.Client[] = [];
  let closed = false;
  return {
    prisma,
    kind: "postgres",
    async read<T>(text: string, values: unknown[]) {
      return (await shared.query({ name: statementName(text), text, values: values.map(pgValue), types: utcTypes })).rows as T[];
    },
    sql: {
      async exec(sql) {
        await pool.query(sql);
      },
      async query(sql, params = []) {
        return (await pool.query(sql, params)).rows;
      },
      async withLock(fn) {
        const client = await pool.connect();
        try {
          await client.query("SELECT pg_advisory_lock(7242001)");
          // Everything under the lock runs on the locking connection; the lock is not re-entrant.
          const locked: SqlRunner = {
            exec: async (s) => void (await client.query(s)),
            query: async (s, p = []) => (await client.query(s, p)).rows,
            withLock: (f) => f(locked),
          };
          return await fn(locked);
        } finally {
          await client.query("SELECT pg_advisory_unlock(7242001)").catch(() => undefined);
          client.release();
        }
      },
    },
    async listen(channel, onMessage, onLost) {
      // Keep-alive: a listener whose peer vanished is found out, not left waiting for notifications.
      const client = new pg.Client({ ...config, keepAlive: true });
      let closing = false;
      const lost = () => {
        if (closing || closed) return;
        closing = true;
        listeners.splice(listeners.indexOf(client) >>> 0, 1);
        onLost?.();
        void client.end().catch(() => undefined);
      };
      client.on("notification", (m) => onMessage(m.payload ?? ""));
      client.on("error", lost);
      client.on("end", lost);
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (err) {
        closing = true;
        void client.end().catch(() => undefined);
        throw err;
      }
      listeners.push(client);
    },
    async notify(channel, payload) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      closed = true;
      await Promise.all(listeners.map((c) => c.end().catch(() => undefined)));
      await prisma.$disconnect();
      await Promise.all([pool.end(), shared.end()]);
    },
  };
}

async function openPglite(dir: string): Promise<Db> {
  if (!dir.startsWith("memory://")) fs.mkdirSync(dir, { recursive: true });
  // Loaded only here: the embedded engine costs tens of megabytes of RSS from its import alone, in a process on PostgreSQL too.
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const pglite = new PGlite(dir);
  await pglite.waitReady;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), errorFormat: ERROR_FORMAT });
  const sql: SqlRunner = {
    async exec(s) {
      await pglite.exec(s);
    },
    async query(s, params = []) {
      return (await pglite.query<Record<string, unknown>>(s, params)).rows;
    },
    withLock: (fn) => fn(sql), // one process owns a PGlite directory
  };
  return {
    prisma,
    kind: "pglite",
    sql,
    async read<T>(text: string, params: unknown[]) {
      return (await pglite.query<T>(text, params, { parsers: { [TIMESTAMP_OID]: utcTimestamp } })).rows;
    },
    // One process owns the directory, but the webhook dispatcher still wants the commit-time wake-up.
    async listen(channel, onMessage) {
      await pglite.listen(channel, (payload) => onMessage(payload ?? ""));
    },
    async notify(channel, payload) {
      await pglite.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
