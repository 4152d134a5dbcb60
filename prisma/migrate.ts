// Applies the committed prisma/migrations/*/migration.sql files at start-up, in order, once each.
// The same path serves PGlite and PostgreSQL, so no migration CLI runs at run time; an advisory
// lock keeps concurrent instances from racing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  withLock<T>(fn: (runner: SqlRunner) => Promise<T>): Promise<T>;
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8") }));
}

export async function applyMigrations(sql: SqlRunner): Promise<string[]> {
  return sql.withLock(async (runner) => {
    await runner.exec(
      `CREATE TABLE IF NOT EXISTS "_app_migrations" (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await runner.query(`SELECT name FROM "_app_migrations"`)).map((r) => String(r.name)));
    const applied: string[] = [];
    for (const m of listMigrations()) {
      if (done.has(m.name)) continue;
      // One transaction per migration: a failing script leaves nothing half-applied and is not recorded.
      await runner.exec(`BEGIN;\n${m.sql}\n;INSERT INTO "_app_migrations"(name) VALUES ('${m.name.replace(/'/g, "''")}');\nCOMMIT;`).catch(
        async (e: unknown) => {
          await runner.exec("ROLLBACK").catch(() => undefined);
          throw new Error(`migration ${m.name} failed: ${(e as Error).message}`);
        },
      );
      applied.push(m.name);
    }
    return applied;
  });
}
