// "Your trial ends in 3 days": one e-mail per trial, queued once the tenant's clock reaches three days
// before the trial end. Set-based: each pass finds the trials in that window still without their
// e-mail and queues them in one transaction; the outbox's unique (tenant, template, source) means
// passes run by several instances at once never queue one twice.
import type { Runtime } from "../runtime.ts";
import { queueEmails, type QueuedEmail } from "../emails/queue-email.ts";
import { nextChargeAmountCents } from "../shared/next-charge.ts";
import { cents } from "../shared/money.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export const TRIAL_REMINDER_LEAD_MS = 3 * 86_400_000;

/** The e-mail's source: a trial moved to another end (reschedule) is a new reminder. */
export function trialReminderKey(subscriptionId: string, trialEndsAt: Date): string {
  return `${subscriptionId}:${trialEndsAt.toISOString()}`;
}

/** When the reminder of a trial ending at `trialEndsAt` falls due. */
export function trialReminderAt(trialEndsAt: Date): Date {
  return new Date(trialEndsAt.getTime() - TRIAL_REMINDER_LEAD_MS);
}

export interface TrialReminders {
  /** Trials found in their last three days without their e-mail. */
  due: number;
  /** E-mails queued (fewer when the tenant turned the template off or the customer has no address). */
  queued: number;
}

export async function queueTrialReminders(runtime: Runtime, input: { tenantId?: string | null; batchSize?: number } = {}): Promise<TrialReminders> {
  const prisma = runtime.db.prisma;
  const tenantId = input.tenantId ?? null;
  const limit = input.batchSize ?? 200;
  const wallNow = runtime.wallClock.now();
  const result: TrialReminders = { due: 0, queued: 0 };
  let after = "";
  for (;;) {
    // Trials in their last three days on their tenant's clock, that will be charged (no scheduled cancel).
    // A trial of 3 days or less began inside that window: its checkout page already said when it ends.
    const due = await sqlQuery<{ id: string; tenant_id: string; trial_ends_at: Date; now: Date }>(prisma, Prisma.sql`
      SELECT s.id, s.tenant_id, s.trial_ends_at,
             (CASE WHEN t.mode = 'SANDBOX' AND t.clock_at IS NOT NULL THEN t.clock_at ELSE ${wallNow} END) AS now
        FROM subscriptions s JOIN tenants t ON t.id = s.tenant_id JOIN offers o ON o.id = s.offer_id
       WHERE s.status = 'TRIALING' AND o.trial_days > 3 AND s.cancel_at_period_end = false AND s.trial_ends_at IS NOT NULL
         AND t.suspended = false
         AND (${tenantId}::text IS NULL OR s.tenant_id = ${tenantId}::text)
         AND s.id > ${after}
         AND s.trial_ends_at - interval '3 days' <= (CASE WHEN t.mode = 'SANDBOX' AND t.clock_at IS NOT NULL THEN t.clock_at ELSE ${wallNow} END)
         AND s.trial_ends_at > (CASE WHEN t.mode = 'SANDBOX' AND t.clock_at IS NOT NULL THEN t.clock_at ELSE ${wallNow} END)
       ORDER BY s.id
       LIMIT ${limit}`);
    if (due.length === 0) return result;
    after = due[due.length - 1]!.id;
    const batch = await queueBatch(runtime, due);
    result.due += batch.due;
    result.queued += batch.queued;
  }
}

async function queueBatch(runtime: Runtime, due: { id: string; tenant_id: string; trial_ends_at: Date; now: Date }[]): Promise<TrialReminders> {
  const prisma = runtime.db.prisma;
  const keys = due.map((d) => trialReminderKey(d.id, new Date(d.trial_ends_at)));
  const tenantIds = [...new Set(due.map((d) => d.tenant_id))];
  const done = new Set(
    (await prisma.emailMessage.findMany({ where: { tenantId: { in: tenantIds }, kind: "trial_ending", sourceKey: { in: keys } }, select: { tenantId: true, sourceKey: true } })).map((e) => `${e.tenantId}/${e.sourceKey}`),
  );
  const todo = due.filter((d) => !done.has(`${d.tenant_id}/${trialReminderKey(d.id, new Date(d.trial_ends_at))}`));
  if (todo.length === 0) return { due: 0, queued: 0 };
  const subs = await prisma.subscription.findMany({
    where: { id: { in: todo.map((d) => d.id) }, tenantId: { in: tenantIds } },
    include: {
      customer: { select: { email: true } },
      plan: { select: { name: true } },
      offer: { select: { priceCents: true } },
      paymentMethod: { select: { brand: true, last4: true } },
      redemptions: { where: { active: true }, orderBy: { id: "asc" }, take: 1, include: { coupon: true } },
    },
  });
  const byId = new Map(subs.map((s) => [s.id, s]));
  const emails: QueuedEmail[] = [];
  for (const d of todo) {
    const sub = byId.get(d.id);
    if (!sub || sub.tenantId !== d.tenant_id || !sub.customer.email) continue;
    const trialEndsAt = new Date(d.trial_ends_at);
    const redemption = sub.redemptions[0];
    // The first charge: the offer price less the coupon's first cycle, as the trial-end invoice will be.
    const amountCents = nextChargeAmountCents(
      cents(sub.offer.priceCents),
      redemption ? { percentOff: redemption.coupon.percentOff, amountOffCents: redemption.coupon.amountOffCents, cyclesRemaining: redemption.cyclesRemaining } : null,
    );
    const method =
      sub.collectionMethod === "PIX_MANUAL"
        ? ({ kind: "pix" } as const)
        : sub.paymentMethod
          ? ({ kind: "card", brand: sub.paymentMethod.brand, last4: sub.paymentMethod.last4 } as const)
          : null;
    emails.push({
      tenantId: sub.tenantId,
      content: { template: "trial_ending", params: { planName: sub.plan.name, trialEndsAt: trialEndsAt.toISOString(), amountCents, currency: sub.currency, method } },
      sourceKey: trialReminderKey(sub.id, trialEndsAt),
      to: sub.customer.email,
      customerId: sub.customerId,
      at: new Date(d.now),
    });
  }
  const queued = emails.length ? await prisma.$transaction((tx) => queueEmails(tx, emails)) : 0;
  return { due: todo.length, queued };
}
