// POST /v1/subscriptions/{id}/charge-now: the billing run of one subscription, now. It runs the very
// duty the run would (processDueSubscription) and only when next_billing_at has come on the tenant's
// clock, so it never anticipates a cycle, never ends a trial early and never advances a retry (a
// past_due subscription's next_billing_at IS its next retry). The run's lease is taken first with a
// single-row claim, so two calls (or a call and the billing run) never run the duty twice; the
// invoice/payment unique constraints back that up. It runs synchronously and answers 202 after.
import type { Runtime } from "../runtime.ts";
import { processDueSubscription, type DutyOutcome } from "../billing/process-due-subscription.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { isIn, LIVING } from "../shared/status-sets.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface ChargeNowResult {
  ok: boolean;
  message: string;
}

const LEASE_MS = 5 * 60_000;

const MESSAGES: Record<DutyOutcome, string> = {
  renewed: "the due charge was run and paid; follow invoice.paid",
  charge_failed: "the due charge was run and refused; follow invoice.payment_failed",
  past_due: "the due charge was run and refused; follow invoice.payment_failed",
  suspended: "the due charge was run and refused; follow invoice.payment_failed",
  pix_issued: "the Pix QR of the due invoice was issued",
  canceled: "the subscription reached its scheduled end and was canceled",
  unknown: "the gateway has not answered yet; the outcome is reconciled before any new attempt",
  blocked: "an earlier attempt is still unheard at the gateway; it is reconciled first",
  idle: "nothing is due now",
  closed: "the due invoice was closed meanwhile (the subscription was canceled or its cancellation scheduled, or the invoice voided); neither invoice.paid nor invoice.payment_failed follows",
  surplus: "the due charge was approved after its invoice was closed; it is refunded in full, follow payment.refunded",
  settled: "the due charge had already been settled by another attempt (the billing run's); nothing was charged by this call, and its events were sent then",
};

export async function chargeNow(runtime: Runtime, input: { tenantId: string; subscriptionId: string; now: Date }): Promise<ChargeNowResult> {
  const prisma = runtime.db.prisma;
  const { tenantId, subscriptionId, now } = input;
  if (!isId("subscription", subscriptionId)) throw notFound("subscription");
  const sub = await prisma.subscription.findFirst({
    where: { id: subscriptionId, tenantId },
    select: { status: true, nextBillingAt: true, tenant: { select: { renewalsPaused: true } } },
  });
  if (!sub) throw notFound("subscription");
  const status = sub.status.toLowerCase();
  if (!isIn(LIVING, sub.status)) {
    throw new AppError("conflict", { error: `a ${status} subscription is not chargeable`, extra: { code: "not_chargeable", status } });
  }
  if (sub.tenant.renewalsPaused) throw new AppError("conflict", { error: "renewals are paused for this account", extra: { code: "renewals_paused" } });
  if (!sub.nextBillingAt || sub.nextBillingAt.getTime() > now.getTime()) return { ok: true, message: notDueMessage(sub.status, sub.nextBillingAt) };
  if (!(await claimSubscription(runtime, tenantId, subscriptionId, now))) {
    return { ok: true, message: "this subscription's billing run is already in progress; nothing was charged twice" };
  }
  const outcome = await processDueSubscription(runtime, { tenantId, subscriptionId, now });
  return { ok: true, message: MESSAGES[outcome] };
}

function notDueMessage(status: string, next: Date | null): string {
  if (!next) return "nothing is due now";
  const at = next.toISOString();
  if (status === "PAST_DUE") return `nothing is due now: the next retry is at ${at} (charge-now never advances the retry schedule)`;
  if (status === "TRIALING") return `nothing is due now: the trial ends at ${at}`;
  return `nothing is due now: the next charge is at ${at}`;
}

/** The billing run's lease on one row, only when its duty is due and no one holds it (wall-clock lease). */
async function claimSubscription(runtime: Runtime, tenantId: string, subscriptionId: string, now: Date): Promise<boolean> {
  const wallNow = runtime.wallClock.now();
  const leaseUntil = new Date(wallNow.getTime() + LEASE_MS);
  const rows = await sqlQuery<{ id: string }>(runtime.db.prisma, Prisma.sql`
    UPDATE subscriptions SET billing_lease_until = ${leaseUntil}
    WHERE id = ${subscriptionId} AND tenant_id = ${tenantId}
      AND next_billing_at IS NOT NULL AND next_billing_at <= ${now}
      AND (billing_lease_until IS NULL OR billing_lease_until < ${wallNow})
    RETURNING id`);
  return rows.length === 1;
}
