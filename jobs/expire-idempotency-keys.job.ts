// Drops Idempotency-Key records older than the 24 h replay window (wall clock).
import { IDEMPOTENCY_WINDOW_MS } from "../core/idempotency/idempotent-request.ts";
import type { Runtime } from "../core/runtime.ts";

export async function expireIdempotencyKeys(runtime: Runtime): Promise<number> {
  const before = new Date(runtime.wallClock.now().getTime() - IDEMPOTENCY_WINDOW_MS);
  const { count } = await runtime.db.prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: before } } });
  return count;
}
