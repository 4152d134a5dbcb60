// Refunds left PENDING (the gateway did not answer, or the process died between reserving and
// recording) are finished by asking the gateway again with the refund's own idempotency key: a
// refund that happened is replayed, one that did not happens now, once. Claimed with a wall-clock
// lease and SKIP LOCKED, so several instances never work on the same refund.
import type { Runtime } from "../runtime.ts";
import { tenantClock } from "../shared/clock.ts";
import { cents } from "../shared/money.ts";
import { finishRefund, type RefundState } from "./finish-refund.ts";
import { callGatewayRefund } from "./gateway-refund.ts";

interface Claimed {
  id: string;
  tenant_id: string;
  payment_id: string;
  amount_cents: number;
  idempotency_key: string;
}

/**
 * `tenantId` with `ignoreLease` is the sandbox clock's call (advanceClock): the gateway key makes a
 * second call harmless, so it need not wait for the request's lease.
 */
export async function reconcilePendingRefunds(runtime: Runtime, opts: { tenantId?: string; ignoreLease?: boolean; limit?: number } = {}) {
  const prisma = runtime.db.prisma;
  const wall = runtime.wallClock.now();
  const until = new Date(wall.getTime() + runtime.leases.refundMs);
  const claimed = await prisma.$queryRaw<Claimed[]>`
    UPDATE refunds SET lease_until = ${until}
    WHERE id IN (
      SELECT id FROM refunds
      WHERE status = 'PENDING'
        AND (${opts.tenantId ?? null}::text IS NULL OR tenant_id = ${opts.tenantId ?? null}::text)
        AND (${opts.ignoreLease ?? false}::boolean OR lease_until IS NULL OR lease_until < ${wall}::timestamp(3))
      ORDER BY id LIMIT ${opts.limit ?? 100}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, tenant_id, payment_id, amount_cents, idempotency_key`;
  const results: Partial<Record<RefundState, number>> = {};
  for (const r of claimed) {
    const tenant = await prisma.tenant.findUniqueOrThrow({ where: { id: r.tenant_id }, select: { mode: true, clockAt: true } });
    const now = tenantClock(tenant, runtime.wallClock).now();
    const reserved = { refundId: r.id, tenantId: r.tenant_id, paymentId: r.payment_id, amountCents: cents(r.amount_cents), idempotencyKey: r.idempotency_key };
    const result = await callGatewayRefund(runtime, reserved, now);
    runtime.faults?.("after-gateway-refund");
    const state = await finishRefund(runtime, { tenantId: r.tenant_id, refundId: r.id, result, now });
    results[state] = (results[state] ?? 0) + 1;
  }
  return results;
}
