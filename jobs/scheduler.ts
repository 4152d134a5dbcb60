// node-cron only: each task fires on its schedule, runs where its database lease is won, and never
// overlaps itself. Webhook delivery runs beside them: its work is claimed row by row with leases.
import cron, { type ScheduledTask } from "node-cron";
import { ulid } from "ulid";
import type { Runtime } from "../core/runtime.ts";
import { billingRun } from "./billing-run.job.ts";
import { expireIdempotencyKeys } from "./expire-idempotency-keys.job.ts";
import { reconcilePayments } from "./reconcile-payments.job.ts";
import { releaseLease, tryLease } from "./lease.ts";
import { startWebhookDelivery } from "./webhook-delivery.job.ts";

interface JobSpec {
  name: string;
  schedule: string;
  leaseMs: number;
  run: (runtime: Runtime) => Promise<unknown>;
  /** false: every instance may run it at once (its work items are claimed row by row). */
  exclusive?: boolean;
}

export const JOBS: JobSpec[] = [
  { name: "billing-run", schedule: "* * * * *", leaseMs: 10 * 60_000, run: billingRun, exclusive: false },
  { name: "reconcile-payments", schedule: "* * * * *", leaseMs: 5 * 60_000, run: reconcilePayments },
  { name: "expire-idempotency-keys", schedule: "*/10 * * * *", leaseMs: 5 * 60_000, run: expireIdempotencyKeys },
];

export async function startScheduler(runtime: Runtime): Promise<{ stop(): Promise<void> }> {
  const webhooks = await startWebhookDelivery(runtime);
  const owner = `instance-${ulid()}`;
  const tasks: ScheduledTask[] = JOBS.map((job) =>
    cron.schedule(
      job.schedule,
      async () => {
        const exclusive = job.exclusive !== false;
        if (exclusive && !(await tryLease(runtime.db, job.name, owner, job.leaseMs, runtime.wallClock.now()))) return;
        try {
          const result = await job.run(runtime);
          runtime.logger.debug({ job: job.name, result }, "job done");
        } catch (err) {
          runtime.logger.error({ err, job: job.name }, "job failed");
        } finally {
          if (exclusive) await releaseLease(runtime.db, job.name, owner);
        }
      },
      { name: job.name, noOverlap: true },
    ),
  );
  return {
    async stop() {
      await Promise.all(tasks.map((t) => t.stop()));
      await webhooks.stop();
    },
  };
}
