// POST /v1/subscriptions/{id}/reschedule: the next charge (end of the current cycle, or of the
// trial) moves to `next_billing_at`. Nothing is charged; the cadence follows the new date (the
// anchor day becomes its day of month). Allowed for active and trialing (service-contract §5).
import type { Runtime } from "../runtime.ts";
import { pixIssueAt } from "../shared/periods.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { isId } from "../shared/ids.ts";
import { emitSubscriptionEvents } from "../events/emit-subscription-events.ts";
import { lockSubscription } from "../shared/lock-subscription.ts";
import { IN_GOOD_STANDING, isIn } from "../shared/status-sets.ts";

// Date and time with an explicit offset: a time without one would mean a different instant per reader.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/i;

export interface RescheduleSubscriptionInput {
  tenantId: string;
  subscriptionId: string;
  /** The body's next_billing_at as sent (null when missing). */
  nextBillingAt: string | null;
  now: Date;
}

/** An ISO 8601 date-time with offset that names a real calendar instant, else null. */
export function parseIsoDateTime(value: string | null): Date | null {
  const m = value ? ISO_DATE_TIME.exec(value.trim()) : null;
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour! > 23 || minute! > 59 || second! > 59) return null;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return null;
  const at = new Date(value!.trim());
  return Number.isNaN(at.getTime()) ? null : at;
}

export async function rescheduleSubscription(runtime: Runtime, input: RescheduleSubscriptionInput) {
  const { tenantId, subscriptionId, now } = input;
  if (!isId("subscription", subscriptionId)) throw notFound("subscription");
  return runtime.db.prisma.$transaction(async (tx) => {
    await lockSubscription(tx, tenantId, subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: subscriptionId, tenantId } });
    if (!sub) throw notFound("subscription");
    const at = parseIsoDateTime(input.nextBillingAt);
    if (!at) throw new AppError("data_invalida");
    if (at.getTime() <= now.getTime()) throw new AppError("data_passada");
    if (!isIn(IN_GOOD_STANDING, sub.status)) {
      throw new AppError("reschedule_status", { extra: { status: sub.status.toLowerCase() } });
    }
    // An open invoice means a charge is being collected (card attempt or Pix QR) in this cycle.
    const open = await tx.invoice.findFirst({ where: { tenantId, subscriptionId, status: "OPEN" }, select: { id: true } });
    if (open) throw new AppError("fatura_em_voo");
    // The billing run's lease (run or charge-now) means the due cycle is being charged right now, its
    // invoice perhaps not written yet: moving the period under it would be overwritten by the renewal.
    if (sub.billingLeaseUntil && sub.billingLeaseUntil.getTime() > runtime.wallClock.now().getTime()) throw new AppError("fatura_em_voo");
    const trialing = sub.status === "TRIALING";
    const oldEnd = trialing ? sub.trialEndsAt : sub.currentPeriodEnd;
    await tx.subscription.update({
      where: { id: sub.id },
      data: {
        ...(trialing ? { trialEndsAt: at } : { currentPeriodEnd: at }),
        anchorDay: at.getUTCDate(),
        // Pix renewals get their QR 3 days before the due date; card renewals and trial ends run at it.
        nextBillingAt: !trialing && sub.collectionMethod === "PIX_MANUAL" ? pixIssueAt(at) : at,
        // A change scheduled for the old period end follows it.
        ...(sub.pendingOfferEffectiveAt && oldEnd && sub.pendingOfferEffectiveAt.getTime() === oldEnd.getTime() ? { pendingOfferEffectiveAt: at } : {}),
      },
    });
    await emitSubscriptionEvents(tx, { tenantId, subscriptionId, types: ["subscription.updated"], at: now });
    return { subscriptionId, nextBillingAt: at };
  });
}
