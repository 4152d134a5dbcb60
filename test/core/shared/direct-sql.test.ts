// prisma/direct-sql.ts: a statement sent for a transaction's `tx` runs inside that transaction (sees its
// uncommitted writes, rolls back with it), never on another one's connection, and answers like Prisma.
import { describe, expect, it } from "vitest";
import { Prisma } from "../../../generated/prisma/client.ts";
import { sqlExecute, sqlQuery } from "../../../prisma/direct-sql.ts";
import { testService } from "../../helpers/service.ts";
import { newTenant } from "../../helpers/tenant.ts";

describe("direct SQL on Prisma's connections", () => {
  it("runs inside the caller's transaction: sees its writes, rolls back with it, never shows them outside before commit", async () => {
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    const t = await newTenant();
    const rename = (name: string): [string, unknown[]] => ["UPDATE tenants SET name = $1 WHERE id = $2", [name, t.tenantId]];
    const nameOf = async (client: Parameters<typeof sqlQuery>[0]) => (await sqlQuery<{ name: string }>(client, "SELECT name FROM tenants WHERE id = $1", [t.tenantId]))[0]!.name;
    const before = await nameOf(prisma);
    await expect(
      prisma.$transaction(async (tx) => {
        await sqlExecute(tx, ...rename("inside"));
        expect(await nameOf(tx)).toBe("inside");
        expect((await tx.tenant.findUniqueOrThrow({ where: { id: t.tenantId } })).name).toBe("inside");
        // On PostgreSQL another connection does not see it yet (PGlite has one connection: not asked there).
        if (runtime.db.kind === "postgres") expect(await nameOf(prisma)).toBe(before);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await nameOf(prisma)).toBe(before);
  });

  it("gives each of many concurrent transactions its own connection", async () => {
    const { runtime } = await testService();
    const same = await Promise.all(
      Array.from({ length: 12 }, () =>
        runtime.db.prisma.$transaction(async (tx) => {
          const [direct] = await sqlQuery<{ pid: number }>(tx, "SELECT pg_backend_pid() AS pid");
          const [viaPrisma] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          return direct!.pid === viaPrisma!.pid;
        }),
      ),
    );
    expect(same.every(Boolean)).toBe(true);
  });

  it("answers a unique violation as Prisma does, takes Prisma.sql templates, and keeps timestamps UTC", async () => {
    const { runtime } = await testService();
    const t = await newTenant();
    const err = await runtime.db.prisma
      .$transaction((tx) => sqlExecute(tx, Prisma.sql`INSERT INTO products (id, tenant_id, name) SELECT ${`prod_dup`}, tenant_id, name FROM products WHERE id = ${t.productId}
        UNION ALL SELECT ${`prod_dup`}, tenant_id, name FROM products WHERE id = ${t.productId}`))
      .catch((e: unknown) => e);
    // Both paths (node-postgres on PostgreSQL, Prisma's raw query on PGlite) answer Prisma's P2002.
    expect(err).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((err as { code: string }).code).toBe("P2002");
    const at = new Date("2026-02-03T04:05:06.789Z");
    const [row] = await sqlQuery<{ at: Date }>(runtime.db.prisma, Prisma.sql`SELECT ${at}::timestamp(3) AS at`);
    expect(row!.at.toISOString()).toBe(at.toISOString());
  });

  it("refuses a statement for a transaction that has ended (its connection is another caller's by then)", async () => {
    const { runtime } = await testService();
    if (runtime.db.kind !== "postgres") return; // PGlite takes the $queryRawUnsafe path, which Prisma guards itself
    let leaked: Prisma.TransactionClient | undefined;
    await runtime.db.prisma.$transaction(async (tx) => {
      leaked = tx;
    });
    await expect(sqlQuery(leaked!, "SELECT 1")).rejects.toThrow(/transaction has ended/);
  });

  it("prepares a statement once per connection, and a custom-plan statement never (planned with its values each time)", async () => {
    const { runtime } = await testService();
    if (runtime.db.kind !== "postgres") return; // PGlite takes the $queryRawUnsafe path
    const prepared = (tx: Prisma.TransactionClient, marker: string) =>
      sqlQuery<{ n: number }>(tx, "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE $1", [`%${marker}%`]);
    const named = await runtime.db.prisma.$transaction(async (tx) => {
      await sqlQuery(tx, "SELECT 1 AS one /* direct-sql-named */");
      return (await prepared(tx, "direct-sql-named"))[0]!.n;
    });
    const custom = await runtime.db.prisma.$transaction(async (tx) => {
      await sqlQuery(tx, "SELECT 1 AS one /* direct-sql-custom */", [], { customPlan: true });
      return (await prepared(tx, "direct-sql-custom"))[0]!.n;
    });
    expect(named).toBe(1);
    expect(custom).toBe(0);
  });

  it("still finds each transaction's own connection after the promise hook was switched off and on again", async () => {
    const { runtime } = await testService();
    if (runtime.db.kind !== "postgres") return; // PGlite takes the $queryRawUnsafe path
    // Sent on the transaction's own connection as a prepared statement (the direct path), not through
    // Prisma's raw query (the fallback, unnamed): that connection lists it among its prepared statements.
    const directly = (marker: string) =>
      runtime.db.prisma.$transaction(async (tx) => {
        await new Promise((r) => setTimeout(r, 5));
        await sqlQuery(tx, `SELECT 1 AS one /* ${marker} */`);
        const [seen] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE ${`%${marker}%`}`;
        return seen!.n === 1;
      });
    // One after another (the hook goes off between them), then overlapping ones.
    const run = `${Date.now()}`;
    for (let i = 0; i < 3; i++) expect(await directly(`hook-seq-${run}-${i}`)).toBe(true);
    const overlapping = await Promise.all(Array.from({ length: 6 }, (_, i) => new Promise((r) => setTimeout(r, i * 3)).then(() => directly(`hook-par-${run}-${i}`))));
    expect(overlapping.every(Boolean)).toBe(true);
  });
});
