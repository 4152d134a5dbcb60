// The reconciliation sweep: card attempts left `unknown` (timeout, crash) are settled from the
// gateway's own record. The billing run also does this before retrying an invoice; the sweep makes
// sure an unknown outcome never waits for the next due date.
import type { Runtime } from "../runtime.ts";
import { tenantClock } from "../shared/clock.ts";
import { reconcilePayment } from "./reconcile-payment.ts";

export async function reconcileUnknownPayments(runtime: Runtime, opts: { olderThanMs?: number; limit?: number } = {}) {
  const cutoff = new Date(runtime.wallClock.now().getTime() - (opts.olderThanMs ?? runtime.leases.paymentInFlightMs));
  const unheard = await runtime.db.prisma.payment.findMany({
    where: { method: "CARD", OR: [{ status: "UNKNOWN" }, { status: "PROCESSING", createdAt: { lt: cutoff } }] },
    orderBy: { id: "asc" },
    take: opts.limit ?? 200,
    include: { customer: { select: { tenant: { select: { mode: true, clockAt: true } } } } },
  });
  const results: Record<string, number> = {};
  for (const payment of unheard) {
    const now = tenantClock(payment.customer.tenant, runtime.wallClock).now();
    const result = await reconcilePayment(runtime, payment, now);
    results[result] = (results[result] ?? 0) + 1;
  }
  return results;
}
