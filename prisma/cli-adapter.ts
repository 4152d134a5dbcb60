// Driver adapter for the Prisma CLI only. PostgreSQL when DATABASE_URL is set, else PGlite opened on connect.
import fs from "node:fs";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { pgPoolConfig, pgliteDataDir } from "./connection.ts";

export async function cliAdapterFactory(): Promise<SqlMigrationAwareDriverAdapterFactory> {
  if (process.env.DATABASE_URL) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return new PrismaPg(pgPoolConfig(process.env.DATABASE_URL)) as unknown as SqlMigrationAwareDriverAdapterFactory;
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const dir = pgliteDataDir();
  fs.mkdirSync(dir, { recursive: true });
  const db = new PGlite(dir);
  return new PrismaPGlite(db) as unknown as SqlMigrationAwareDriverAdapterFactory;
}
