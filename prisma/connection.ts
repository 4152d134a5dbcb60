// Where the database lives: DATABASE_URL (PostgreSQL) or the embedded PGlite data directory.
import path from "node:path";
import type { PoolConfig } from "pg";

export function dataDir(): string {
  return path.resolve(process.env.DATA_DIR ?? "data");
}

export function pgliteDataDir(): string {
  return path.join(dataDir(), "pglite");
}

/** Pool config from discrete parts: adapter-pg built from a connectionString ignored the database name of shadow dbs. */
export function pgPoolConfig(url: string, max = 10): PoolConfig {
  const u = new URL(url);
  return {
    host: u.hostname || "127.0.0.1",
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username || "postgres"),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, "")) || "postgres",
    max,
  };
}
