// Pix charges at a real provider whose payment notice never came (a lost webhook): the reconcile job
// asks the provider, and one it says was paid is settled approved, as the notice would have done
// (apply-gateway-notification.ts). Only "paid" is acted on: an unpaid QR expires on our side
// (issue-pix-charge.ts fails it when a fresh one is asked). The sandbox's Pix is paid only through
// simulatePixPayment, so it is left out. A charge gets a minute for its notice first (the in-flight
// window), and is asked about until a day past its expiry.
// A Pix we already gave up (FAILED: expired on our clock, its checkout or subscription ended) may still
// have been paid at the provider: for a day past its expiry it is asked about too, until the provider
// says it is dead (declined) or paid, and at most once an hour; paid, it is recorded as a late payment
// (record-late-pix-payment.ts), exactly as its notice would have recorded it.
import type { Payment } from "../../generated/prisma/client.ts";
import type { Runtime } from "../runtime.ts";
import { askChargeOutcome } from "../gateways/ask-charge-outcome.ts";
import { accountRef } from "../gateways/registry.ts";
import { tenantClock } from "../shared/clock.ts";
import { latePixKey, recordLatePixPayment } from "./record-late-pix-payment.ts";
import { settlePayment } from "./settle-payment.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export async function reconcilePixPayments(runtime: Runtime, opts: { olderThanMs?: number; limit?: number } = {}) {
  const prisma = runtime.db.prisma;
  const wall = runtime.wallClock.now();
  const cutoff = new Date(wall.getTime() - (opts.olderThanMs ?? runtime.leases.paymentInFlightMs));
  const atProvider = { method: "PIX" as const, provider: { not: "sandbox" }, gatewayChargeId: { not: "" }, createdAt: { lt: cutoff }, pixExpiresAt: { gt: new Date(wall.getTime() - DAY_MS) } };
  const include = { customer: { select: { tenant: { select: { mode: true, clockAt: true } } } } } as const;
  const waiting = await prisma.payment.findMany({ where: { ...atProvider, status: "PROCESSING" }, orderBy: { id: "asc" }, take: opts.limit ?? 200, include });
  const results: Record<string, number> = {};
  const count = (result: string) => void (results[result] = (results[result] ?? 0) + 1);
  for (const payment of waiting) {
    const now = tenantClock(payment.customer.tenant, runtime.wallClock).now();
    const answer = await askProvider(runtime, payment, now);
    count(answer?.verdict.outcome === "approved" ? await settlePayment(runtime, { tenantId: payment.tenantId, paymentId: payment.id, verdict: answer.verdict, now }) : "unresolved");
  }

  const givenUp = await prisma.payment.findMany({ where: { ...atProvider, status: "FAILED" }, orderBy: { id: "asc" }, take: opts.limit ?? 200, include });
  const asked = givenUp.length
    ? await prisma.gatewayEvent.findMany({
        where: { tenantId: { in: [...new Set(givenUp.map((p) => p.tenantId))] }, paymentId: { in: givenUp.map((p) => p.id) }, kind: "fetch_status" },
        select: { paymentId: true, outcome: true, createdAt: true },
      })
    : [];
  const recorded = new Set(
    (await prisma.payment.findMany({ where: { idempotencyKey: { in: givenUp.map(latePixKey) } }, select: { idempotencyKey: true } })).map((p) => p.idempotencyKey),
  );
  for (const payment of givenUp) {
    const now = tenantClock(payment.customer.tenant, runtime.wallClock).now();
    const answers = asked.filter((a) => a.paymentId === payment.id);
    const settled = answers.some((a) => a.outcome === "declined" || a.outcome === "approved");
    const recently = answers.some((a) => a.createdAt.getTime() > now.getTime() - HOUR_MS);
    if (recorded.has(latePixKey(payment)) || settled || recently) continue;
    const answer = await askProvider(runtime, payment, now);
    if (answer?.verdict.outcome !== "approved") {
      count("unresolved");
      continue;
    }
    try {
      count(`late_${await recordLatePixPayment(runtime, { failed: payment, chargeId: answer.verdict.chargeId, amountCents: answer.verdict.amountCents, now })}`);
    } catch (err) {
      // Its notice recorded it at the same moment (the derived key is UNIQUE): nothing left to do.
      if (!isUniqueViolation(err)) throw err;
      count("late_already_recorded");
    }
  }
  return results;
}

/** What the provider says about the Pix made under the payment's key (null: pending, or it could not be asked). */
async function askProvider(runtime: Runtime, payment: Payment, now: Date) {
  const prisma = runtime.db.prisma;
  const account = await prisma.gatewayAccount.findFirstOrThrow({ where: { id: payment.gatewayAccountId, tenantId: payment.tenantId } });
  return askChargeOutcome(
    { prisma, adapter: runtime.gateways.adapter(account.provider), account: accountRef(account), subscriptionId: payment.subscriptionId, paymentId: payment.id, now },
    payment.invoiceId ?? payment.orderId ?? payment.id,
    payment.idempotencyKey,
  );
}

/** PGlite reports a unique violation inside an interactive transaction by its message only. */
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === "P2002" || /unique constraint|payments_idempotency_key_key/i.test(String((err as Error)?.message));
