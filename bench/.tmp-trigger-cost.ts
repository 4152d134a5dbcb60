import { openDb } from "../prisma/client.ts";
import { seedDue } from "./harness.ts";
const db = await openDb({ url: process.env.DATABASE_URL!, poolSize: 2 });
const tenant = await seedDue(db, 10_000, { paused: true, name: "trigger cost" });
const time = async (replica: boolean) => {
  const t0 = performance.now();
  await db.sql.exec(`BEGIN; ${replica ? "SET LOCAL session_replication_role = replica;" : ""} UPDATE subscriptions SET current_period_end = current_period_end + interval '1 day' WHERE tenant_id = '${tenant}'; COMMIT;`);
  return performance.now() - t0;
};
for (let i = 0; i < 3; i++) console.log(`10k-row UPDATE: triggers on ${(await time(false)).toFixed(0)} ms, off ${(await time(true)).toFixed(0)} ms`);
await db.close();
