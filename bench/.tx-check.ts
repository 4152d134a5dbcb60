import { openDb } from "../prisma/client.ts";
import { sqlQuery, sqlExecute } from "../prisma/direct-sql.ts";
import { scratchPgDatabase } from "../test/helpers/child-service.ts";
const scratch = await scratchPgDatabase("txcheck");
const db = await openDb({ url: scratch.url });
await db.prisma.tenant.create({ data: { id: "ten_x", name: "x", mode: "SANDBOX" } as any });
const r = await db.prisma.$transaction(async (tx) => {
  const pid1 = await sqlQuery<{ p: number }>(tx, "SELECT pg_backend_pid() AS p");
  const pid2 = await tx.$queryRaw<{ p: number }[]>`SELECT pg_backend_pid() AS p`;
  await sqlExecute(tx, "UPDATE tenants SET name = $1 WHERE id = $2", ["inside", "ten_x"]);
  const seen = await tx.tenant.findUnique({ where: { id: "ten_x" } });
  const outside = await sqlQuery<{ name: string }>(db.prisma, "SELECT name FROM tenants WHERE id = $1", ["ten_x"]);
  const at = await sqlQuery<{ c: Date }>(tx, "SELECT $1::timestamp(3) AS c", [new Date("2026-01-02T03:04:05.678Z")]);
  return { pid1, pid2, seen: seen?.name, outside: outside[0]?.name, at: at[0]!.c.toISOString() };
});
console.log(r);
// concurrency: 20 parallel transactions each sees its own pid
const res = await Promise.all(Array.from({ length: 20 }, (_, i) => db.prisma.$transaction(async (tx) => {
  const a = await sqlQuery<{ p: number }>(tx, "SELECT pg_backend_pid() AS p");
  const b = await tx.$queryRaw<{ p: number }[]>`SELECT pg_backend_pid() AS p`;
  return a[0]!.p === b[0]!.p;
})));
console.log("all same connection:", res.every(Boolean));
try { await db.prisma.$transaction(async (tx) => { await sqlExecute(tx, "INSERT INTO tenants (id, name, mode, created_at, updated_at) VALUES ('ten_x','y','SANDBOX', now(), now())"); }); } catch (e) { console.log("err", (e as any).code, (e as any).constructor.name); }
await db.close(); await scratch.drop();
