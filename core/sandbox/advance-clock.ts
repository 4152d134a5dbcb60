// Sandbox: move a tenant's clock forward to `to`, stopping at every instant where a duty falls due
// (renewals, Pix QRs, trial ends and their reminders 3 days before, retries, suspensions, scheduled cancellations, chargebacks, webhook
// retries) and running it there, in time order; refunds left pending are finished at each stop.
// Refused for LIVE tenants.
import type { Runtime } from "../runtime.ts";
import { emptySummary, runBillingPass, type BillingPassSummary } from "../billing/run-billing-pass.ts";
import { AppError, notFound } from "../shared/errors.ts";
import { attemptsMade, deliverDueNow } from "../webhooks/deliver-due-now.ts";
import { reconcilePendingRefunds } from "../refunds/reconcile-refunds.ts";
import { runDueSandboxChargebacks } from "./simulate-chargeback.ts";
import { voidOrphanCheckoutCharges } from "../checkout/void-orphan-charges.ts";
import { queueTrialReminders, type TrialReminders, TRIAL_REMINDER_LEAD_MS, trialReminderAt } from "../subscriptions/queue-trial-reminders.ts";
import { sqlExecute, sqlQuery } from "../../prisma/direct-sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface AdvanceClockSummary extends BillingPassSummary {
  from: Date;
  to: Date;
  /** Distinct instants the clock stopped at to run duties. */
  steps: number;
  chargebacks: number;
  /** Webhook delivery attempts made on the way. */
  webhook_attempts: number;
  /** Refunds left pending (gateway answer lost) that were finished on the way. */
  refunds_settled: number;
  /** Due subscriptions another worker was running (the background billing run, another instance) that were waited for. */
  held: number;
  /** "Trial ends in 3 days" e-mails queued on the way. */
  trial_reminders: number;
}

const MAX_STEPS = 10_000;
/** How long a call waits for due subscriptions another worker holds (a crashed holder's lease may outlast it). */
const WAIT_FOR_HELD_MS = 15_000;

export async function advanceClock(runtime: Runtime, input: { tenantId: string; to: Date }): Promise<AdvanceClockSummary> {
  const prisma = runtime.db.prisma;
  const tenant = await prisma.tenant.findUnique({ where: { id: input.tenantId } });
  if (!tenant) throw notFound("tenant");
  if (tenant.mode !== "SANDBOX") throw new AppError("sandbox_only", { error: "advanceClock is refused for LIVE tenants" });
  const from = tenant.clockAt ?? runtime.wallClock.now();
  if (Number.isNaN(input.to.getTime()) || input.to.getTime() < from.getTime()) {
    throw new AppError("invalid_argument", { error: `to must not be before the tenant's clock (${from.toISOString()})` });
  }
  const summary: AdvanceClockSummary = { ...emptySummary(), from, to: input.to, steps: 0, chargebacks: 0, webhook_attempts: 0, refunds_settled: 0, held: 0, trial_reminders: 0 };
  let clock = from;
  const waitUntil = runtime.wallClock.now().getTime() + WAIT_FOR_HELD_MS;
  const attemptsBefore = await attemptsMade(runtime, input.tenantId);
  // Deliveries due on the clock as it stands first, and those a background dispatcher is attempting right
  // now: their retries are scheduled from the clock when their outcome is stored, and must be before it moves.
  await deliverDueNow(runtime, input.tenantId);
  for (let i = 0; i < MAX_STEPS; i++) {
    const due = await nextDueInstant(runtime, input.tenantId, clock);
    const stepAt = due && due.getTime() > clock.getTime() ? due : clock;
    if (due && due.getTime() <= input.to.getTime()) {
      clock = stepAt;
      await setClock(runtime, input.tenantId, clock);
      const before = progress(summary);
      const reminders = await runDuties(runtime, input.tenantId, clock, summary, waitUntil);
      summary.webhook_attempts = (await attemptsMade(runtime, input.tenantId)) - attemptsBefore;
      summary.steps++;
      // A reminder stop counts even when its e-mail is off: later stops are strictly after it, so no spin.
      if (progress(summary) === before && reminders.due === 0) break; // nothing could run (paused tenant, unheard gateway): stop, do not spin
      continue;
    }
    break;
  }
  await setClock(runtime, input.tenantId, input.to);
  await runDuties(runtime, input.tenantId, input.to, summary, waitUntil);
  summary.webhook_attempts = (await attemptsMade(runtime, input.tenantId)) - attemptsBefore;
  return summary;
}

async function runDuties(runtime: Runtime, tenantId: string, now: Date, summary: AdvanceClockSummary, waitUntil: number): Promise<TrialReminders> {
  // Refunds first: one that revokes access ends the subscription before a renewal could charge it.
  const refunds = await reconcilePendingRefunds(runtime, { tenantId, ignoreLease: true });
  summary.refunds_settled += (refunds.succeeded ?? 0) + (refunds.failed ?? 0);
  await voidOrphanCheckoutCharges(runtime, { tenantId });
  await billDueNow(runtime, tenantId, summary, waitUntil);
  const reminders = await queueTrialReminders(runtime, { tenantId });
  summary.trial_reminders += reminders.queued;
  summary.chargebacks += await runDueSandboxChargebacks(runtime, { tenantId, now });
  await deliverDueNow(runtime, tenantId);
  return reminders;
}

/**
 * The billing pass for the tenant, then a wait for the due subscriptions another worker holds: the
 * call promises every duty due on the clock ran when it returns, and a background pass that claimed
 * one first would otherwise leave it running (or a crashed holder's lease unexpired). Once a holder
 * lets go, the pass runs again and picks up whatever that left due.
 */
async function billDueNow(runtime: Runtime, tenantId: string, summary: AdvanceClockSummary, waitUntil: number): Promise<void> {
  let held = new Set<string>();
  for (;;) {
    const pass = await runBillingPass(runtime, { tenantId });
    for (const [k, v] of Object.entries(pass)) summary[k as keyof BillingPassSummary] += v;
    const holding = await sqlQuery<{ id: string }>(runtime.db.prisma, Prisma.sql`
      SELECT s.id FROM subscriptions s JOIN tenants t ON t.id = s.tenant_id
      WHERE s.tenant_id = ${tenantId} AND s.next_billing_at <= t.clock_at
        AND s.billing_lease_until >= ${runtime.wallClock.now()}`);
    const still = new Set(holding.map((r) => r.id));
    for (const id of held) if (!still.has(id)) summary.held++;
    held = still;
    if (still.size === 0 || runtime.wallClock.now().getTime() > waitUntil) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function progress(s: AdvanceClockSummary): number {
  return s.renewed + s.charge_failed + s.past_due + s.suspended + s.pix_issued + s.canceled + s.chargebacks + s.idle + s.unknown + s.closed + s.surplus + s.webhook_attempts + s.refunds_settled + s.held + s.trial_reminders;
}

// Read at every stop of the clock: one statement without Prisma's compiler (prisma/direct-sql.ts). The
// candidates: the next renewal duty (unless renewals are paused), the next sandbox chargeback, the next
// webhook retry after the clock, and the next "trial ends in 3 days" instant after it.
const NEXT_DUE = `
  SELECT (SELECT CASE WHEN t.renewals_paused THEN NULL ELSE
            (SELECT min(s.next_billing_at) FROM subscriptions s WHERE s.tenant_id = t.id) END) AS renewal,
         (SELECT min(c.chargeback_at) FROM sandbox_charges c WHERE c.tenant_id = t.id AND c.chargeback_at IS NOT NULL AND c.charged_back_at IS NULL) AS chargeback,
         (SELECT min(d.next_attempt_at) FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
           WHERE d.tenant_id = t.id AND d.status = 'PENDING' AND d.next_attempt_at > $2 AND ep.active) AS delivery,
         (SELECT min(s.trial_ends_at) FROM subscriptions s JOIN offers o ON o.id = s.offer_id
           WHERE s.tenant_id = t.id AND s.status = 'TRIALING' AND NOT s.cancel_at_period_end AND o.trial_days > 3 AND s.trial_ends_at > $3) AS trial_end
    FROM tenants t WHERE t.id = $1`;

/** The earliest instant anything of this tenant falls due. */
async function nextDueInstant(runtime: Runtime, tenantId: string, clock: Date): Promise<Date | null> {
  const [row] = await sqlQuery<{ renewal: Date | null; chargeback: Date | null; delivery: Date | null; trial_end: Date | null }>(runtime.db.prisma, NEXT_DUE, [
    tenantId,
    clock,
    new Date(clock.getTime() + TRIAL_REMINDER_LEAD_MS),
  ]);
  if (!row) throw notFound("tenant");
  const candidates = [row.renewal, row.chargeback, row.delivery, row.trial_end ? trialReminderAt(row.trial_end) : null].filter((d): d is Date => d !== null);
  return candidates.length ? new Date(Math.min(...candidates.map((d) => d.getTime()))) : null;
}

async function setClock(runtime: Runtime, tenantId: string, at: Date): Promise<void> {
  await sqlExecute(runtime.db.prisma, `UPDATE tenants SET clock_at = $2, updated_at = $3 WHERE id = $1`, [tenantId, at, runtime.wallClock.now()]);
  // Tenant keys carry the clock in the key cache: refresh it so /v1 reads see the new time.
  await runtime.keyCache.invalidateTenant(tenantId);
}
