import { openDb } from "../prisma/client.ts";
import { scratchPgDatabase } from "../test/helpers/child-service.ts";
import { Prisma } from "../generated/prisma/client.ts";
const scratch = await scratchPgDatabase("micro");
const db = await openDb({ url: scratch.url });
const t = await db.prisma.tenant.create({ data: { id: "ten_x", name: "x", mode: "SANDBOX" } as any });
const N = 2000;
async function time(name: string, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await fn(-i - 1);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn(i);
  const c = process.cpuUsage(c0); const ms = performance.now() - t0;
  console.log(name.padEnd(30), (ms / N * 1000).toFixed(0), "µs wall", ((c.user + c.system) / N).toFixed(0), "µs cpu");
}
await time("prisma findUnique", (i) => db.prisma.tenant.findUnique({ where: { id: "ten_x" } }));
await time("prisma $queryRaw", (i) => db.prisma.$queryRaw`SELECT id, name FROM tenants WHERE id = ${"ten_x"}`);
await time("db.read", (i) => db.read(`SELECT id, name FROM tenants WHERE id = $1`, ["ten_x"]));
await time("prisma customer.create", (i) => db.prisma.customer.create({ data: { id: `c${i}a`, tenantId: "ten_x", externalId: `e${i}a`, email: `a${i}@b.c`, name: "n" } }));
await time("prisma $executeRaw insert", (i) => db.prisma.$executeRaw`INSERT INTO customers (id, tenant_id, external_id, email, name, created_at, updated_at) VALUES (${`c${i}b`}, 'ten_x', ${`e${i}b`}, ${`b${i}@b.c`}, 'n', now(), now())`);
await time("db.read insert", (i) => db.read(`INSERT INTO customers (id, tenant_id, external_id, email, name, created_at, updated_at) VALUES ($1, 'ten_x', $2, $3, 'n', now(), now())`, [`c${i}c`, `e${i}c`, `c${i}@b.c`]));
await time("tx empty", () => db.prisma.$transaction(async () => 1));
await db.close(); await scratch.drop();
