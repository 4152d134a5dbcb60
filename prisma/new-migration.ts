// `npm run db:diff -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql from the
// difference between the schema at the last migration (schema.snapshot.prisma) and schema.prisma.
// Shadow databases do not work with PGlite here, so this diffs two schema files and needs no replay.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run db:diff -- <migration_name>");
  process.exit(2);
}
const dir = path.join("prisma", "migrations");
const snapshot = path.join(dir, "schema.snapshot.prisma");
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const sql = execFileSync(
  "npx",
  ["prisma", "migrate", "diff", "--from-schema-datamodel", snapshot, "--to-schema-datamodel", path.join("prisma", "schema.prisma"), "--script"],
  { encoding: "utf8", env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" } },
);
if (!/\b(CREATE|ALTER|DROP)\b/.test(sql)) {
  console.log("schema.prisma matches the last migration: nothing to write");
  process.exit(0);
}
const target = path.join(dir, `${stamp}_${name}`);
fs.mkdirSync(target, { recursive: true });
fs.writeFileSync(path.join(target, "migration.sql"), sql);
fs.copyFileSync(path.join("prisma", "schema.prisma"), snapshot);
console.log(`wrote ${target}/migration.sql; review it, then npm run db:migrate`);
