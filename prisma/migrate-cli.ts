// `npm run db:migrate`: apply pending migrations to the configured database and exit.
import { openDb } from "./client.ts";
import { applyMigrations } from "./migrate.ts";

const db = await openDb({ migrate: false });
const applied = await applyMigrations(db.sql);
console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
await db.close();
