// "Last used" stays off the request path: many uses of a key make one batched write, a key is written at
// most once a minute, and several keys share one statement.
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../core/shared/logger.ts";
import { KeyUsage, LAST_USED_EVERY_MS } from "../../../core/auth/key-usage.ts";

function fakePrisma() {
  const writes: { ids: string[]; at: Date }[] = [];
  const prisma = {
    apiKey: {
      updateMany: async (q: { where: { id: { in: string[] } }; data: { lastUsedAt: Date } }) => {
        writes.push({ ids: [...q.where.id.in].sort(), at: q.data.lastUsedAt });
        return { count: q.where.id.in.length };
      },
    },
  };
  return { prisma: prisma as never, writes };
}

describe("key usage", () => {
  it("writes a key once however many requests it serves, and again only after a minute", async () => {
    const { prisma, writes } = fakePrisma();
    const usage = new KeyUsage(prisma, createLogger("silent"));
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 1000; i++) usage.touch("key_a", t0 + i);
    usage.touch("key_b", t0 + 5);
    await usage.flush();
    expect(writes).toEqual([{ ids: ["key_a", "key_b"], at: new Date(t0 + 5) }]);

    for (let i = 0; i < 100; i++) usage.touch("key_a", t0 + LAST_USED_EVERY_MS - 1);
    await usage.flush();
    expect(writes).toHaveLength(1);

    usage.touch("key_a", t0 + LAST_USED_EVERY_MS);
    await usage.flush();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toEqual({ ids: ["key_a"], at: new Date(t0 + LAST_USED_EVERY_MS) });
  });

  it("writes on its own within about a second, without being asked", async () => {
    const { prisma, writes } = fakePrisma();
    const usage = new KeyUsage(prisma, createLogger("silent"));
    usage.touch("key_c", Date.now());
    expect(writes).toHaveLength(0); // nothing on the request path
    await expect.poll(() => writes.length, { timeout: 3_000 }).toBe(1);
  });
});
