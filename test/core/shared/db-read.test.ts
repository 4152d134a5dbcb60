// db.read (the hot-path read past Prisma's compiler) must read timestamp(3) columns as UTC, as Prisma
// does: both drivers would parse them in the process's time zone.
import { afterEach, describe, expect, it } from "vitest";
import { testService } from "../../helpers/service.ts";

const TZ = process.env.TZ;
afterEach(() => {
  if (TZ === undefined) delete process.env.TZ;
  else process.env.TZ = TZ;
});

describe("db.read", () => {
  it("returns timestamp(3) values as UTC instants in any process time zone, and other types as the driver does", async () => {
    const { runtime } = await testService();
    for (const zone of ["America/Sao_Paulo", "Asia/Tokyo", "UTC"]) {
      process.env.TZ = zone;
      const [row] = await runtime.db.read<{ at: Date; none: Date | null; n: number; j: unknown; flag: boolean }>(
        `SELECT $1::timestamp(3) AS at, NULL::timestamp(3) AS none, $2::int AS n, '{"a":[1]}'::jsonb AS j, $3::boolean AS flag`,
        ["2026-01-02 03:04:05.678", 7, true],
      );
      expect(row!.at).toBeInstanceOf(Date);
      expect(row!.at.toISOString()).toBe("2026-01-02T03:04:05.678Z");
      expect(row!.none).toBeNull();
      expect(row).toMatchObject({ n: 7, j: { a: [1] }, flag: true });
    }
  });
});
