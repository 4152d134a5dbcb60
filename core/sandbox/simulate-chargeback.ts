// Sandbox: the card network files a chargeback on a paid payment (simulateChargeback), and the
// scheduled ones of test card 4000000000000259 falling due on the tenant's clock.
import type { Runtime } from "../runtime.ts";
import { paymentRowInclude } from "../payloads/payment-payload.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { tenantClock } from "../shared/clock.ts";
import { recordChargeback } from "../payments/record-chargeback.ts";

export async function simulateChargeback(runtime: Runtime, input: { paymentId: string; tenantId?: string | null }) {
  const prisma = runtime.db.prisma;
  if (!isId("payment", input.paymentId)) throw notFound("payment");
  const payment = await prisma.payment.findFirst({
    where: { id: input.paymentId, ...(input.tenantId ? { tenantId: input.tenantId } : {}) },
    include: { customer: { select: { tenant: { select: { mode: true, clockAt: true } } } } },
  });
  if (!payment) throw notFound("payment");
  const tenant = payment.customer.tenant;
  if (tenant.mode !== "SANDBOX") throw new AppError("sandbox_only");
  if (payment.status !== "PAID") throw new AppError("conflict", { error: "only a paid payment can be charged back" });
  const now = tenantClock(tenant, runtime.wallClock).now();
  if (payment.provider === "sandbox" && payment.gatewayChargeId) await runtime.gateways.sandbox.fileChargeback(payment.tenantId, payment.gatewayChargeId, now);
  await recordChargeback(runtime, { tenantId: payment.tenantId, paymentId: payment.id, now });
  return prisma.payment.findUniqueOrThrow({ where: { id: payment.id }, include: paymentRowInclude });
}

/** Chargebacks the sandbox scheduled (card 0259) that fell due at `now`; returns how many were filed. */
export async function runDueSandboxChargebacks(runtime: Runtime, input: { tenantId: string | null; now: Date }): Promise<number> {
  const prisma = runtime.db.prisma;
  let filed = 0;
  for (;;) {
    const due = await runtime.gateways.sandbox.dueChargebacks(input.tenantId, input.now, 100);
    if (due.length === 0) return filed;
    for (const charge of due) {
      await runtime.gateways.sandbox.fileChargeback(charge.tenantId, charge.id, input.now);
      const payment = await prisma.payment.findFirst({ where: { tenantId: charge.tenantId, idempotencyKey: charge.idempotencyKey } });
      if (payment && (await recordChargeback(runtime, { tenantId: charge.tenantId, paymentId: payment.id, now: input.now }))) filed++;
    }
  }
}
