// Pix charges at a real provider whose payment notice never came (a lost webhook): the reconcile job
// asks the provider, and one it says was paid is settled approved, as the notice would have done
// (apply-gateway-notification.ts). Only "paid" is acted on: an unpaid QR expires on our side
// (issue-pix-charge.ts fails it when a fresh one is asked). The sandbox's Pix is paid only through
// simulatePixPayment, so it is left out. A charge gets a minute for its notice first (the in-flight
// window), and is asked about until a day past its expiry.
import type { Runtime } from "../runtime.ts";
import { fetchChargeStatus } from "../gateways/gateway-calls.ts";
import { accountRef } from "../gateways/registry.ts";
import { tenantClock } from "../shared/clock.ts";
import { settlePayment } from "./settle-payment.ts";

const DAY_MS = 86_400_000;

export async function reconcilePixPayments(runtime: Runtime, opts: { olderThanMs?: number; limit?: number } = {}) {
  const prisma = runtime.db.prisma;
  const wall = runtime.wallClock.now();
  const cutoff = new Date(wall.getTime() - (opts.olderThanMs ?? runtime.leases.paymentInFlightMs));
  const waiting = await prisma.payment.findMany({
    where: {
      method: "PIX",
      status: "PROCESSING",
      provider: { not: "sandbox" },
      gatewayChargeId: { not: "" },
      createdAt: { lt: cutoff },
      pixExpiresAt: { gt: new Date(wall.getTime() - DAY_MS) },
    },
    orderBy: { id: "asc" },
    take: opts.limit ?? 200,
    include: { customer: { select: { tenant: { select: { mode: true, clockAt: true } } } } },
  });
  const results: Record<string, number> = {};
  for (const payment of waiting) {
    const now = tenantClock(payment.customer.tenant, runtime.wallClock).now();
    const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: payment.gatewayAccountId, tenantId: payment.tenantId } });
    const status = await fetchChargeStatus(
      { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: payment.subscriptionId, paymentId: payment.id, now },
      payment.invoiceId ?? payment.orderId ?? payment.id,
      payment.idempotencyKey,
    );
    const result =
      status?.outcome === "approved"
        ? await settlePayment(runtime, { tenantId: payment.tenantId, paymentId: payment.id, verdict: { outcome: "approved", chargeId: status.chargeId, detailCode: "" }, now })
        : "unresolved";
    results[result] = (results[result] ?? 0) + 1;
  }
  return results;
}
