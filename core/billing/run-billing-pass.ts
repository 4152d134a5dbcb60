// One billing pass: claim due subscriptions in bounded batches, renew the plain card renewals of the
// batch set-wise, run every other duty one by one with a few in flight, repeat until nothing is due. Memory holds one batch and the counters, whatever N is.
import type { Runtime } from "../runtime.ts";
import { claimDueSubscriptions } from "./claim-due-subscriptions.ts";
import { processDueSubscription, type DutyOutcome } from "./process-due-subscription.ts";
import { billingDuties } from "./metrics.ts";
import { renewCardBatch } from "./renew-card-batch.ts";

export interface BillingPassOptions {
  tenantId?: string | null;
  batchSize?: number;
  /** Duties in flight at once (PostgreSQL); PGlite has one connection, so 1 there. */
  concurrency?: number;
  leaseMs?: number;
}

export type BillingPassSummary = Record<DutyOutcome | "errors", number>;

export function emptySummary(): BillingPassSummary {
  return { renewed: 0, charge_failed: 0, past_due: 0, suspended: 0, pix_issued: 0, canceled: 0, unknown: 0, blocked: 0, idle: 0, closed: 0, surplus: 0, settled: 0, errors: 0 };
}

export async function runBillingPass(runtime: Runtime, opts: BillingPassOptions = {}): Promise<BillingPassSummary> {
  const summary = emptySummary();
  const concurrency = runtime.db.kind === "pglite" ? 1 : (opts.concurrency ?? 8);
  // Rows that made no progress this pass (gateway unheard, errors) are not claimed again until the next pass.
  const skip: string[] = [];
  for (;;) {
    const batch = await claimDueSubscriptions(runtime.db, {
      wallNow: runtime.wallClock.now(),
      leaseMs: opts.leaseMs ?? runtime.leases.billingMs,
      limit: opts.batchSize ?? 200,
      tenantId: opts.tenantId,
      skip,
    });
    if (batch.length === 0) return summary;
    const fast = await renewCardBatch(runtime, batch, concurrency);
    for (const [k, v] of Object.entries(fast.summary)) {
      summary[k as keyof BillingPassSummary] += v;
      billingDuties.inc({ outcome: k }, v);
    }
    skip.push(...fast.stuck);
    if (fast.handled.size) runtime.faults?.("billing-mid-batch");
    const rest = batch.filter((item) => !fast.handled.has(item.id));
    let next = 0;
    const worker = async () => {
      while (next < rest.length) {
        const item = rest[next++]!;
        try {
          const outcome = await processDueSubscription(runtime, { tenantId: item.tenantId, subscriptionId: item.id, now: item.now });
          summary[outcome]++;
          billingDuties.inc({ outcome });
          if (outcome === "unknown" || outcome === "blocked" || outcome === "idle") skip.push(item.id);
          runtime.faults?.("billing-mid-batch");
        } catch (err) {
          summary.errors++;
          billingDuties.inc({ outcome: "errors" });
          skip.push(item.id);
          runtime.logger.error({ err, subscriptionId: item.id }, "billing duty failed");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rest.length) }, worker));
  }
}
