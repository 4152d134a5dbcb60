// node-cron only: each task fires on its schedule, runs where its database lease is won, and never
// overlaps itself. Webhook delivery runs beside them: its work is claimed row by row with leases.
import cron, { type ScheduledTask } from "node-cron";
import { ulid } from "../core/shared/ids.ts";
import type { Runtime } from "../core/runtime.ts";
import { billingRun } from "./billing-run.job.ts";
import { expireIdempotencyKeys } from "./expire-idempotency-keys.job.ts";
import { expirePanelSessions } from "../core/team/expire-panel-sessions.ts";
import { reconcilePayments } from "./reconcile-payments.job.ts";
import { releaseLease, tryLease } from "./lease.ts";
import { sendEmails } from "./send-emails.job.ts";
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
  // Every 5 s: the shortest retry backoff; each message is claimed with its own lease.
  { name: "send-emails", schedule: "*/5 * * * * *", leaseMs: 60_000, run: (runtime) => sendEmails(runtime), exclusive: false },
  { name: "expire-idempotency-keys", schedule: "*/10 * * * *", leaseMs: 5 * 60_000, run: expireIdempotencyKeys },
  { name: "expire-panel-sessions", schedule: "17 * * * *", leaseMs: 5 * 60_000, run: expirePanelSessions },
];

/**
 * JOB_SCHEDULES overrides schedules by job name: `name=<cron>` pairs separated by `;`, e.g.
 * `reconcile-payments=* * * * * *` (every second: node-cron takes an optional seconds field).
 */
export function jobSchedules(env: string | undefined = process.env.JOB_SCHEDULES): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (env ?? "").split(";").map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq).trim();
    const schedule = part.slice(eq + 1).trim();
    if (eq < 1 || !JOBS.some((j) => j.name === name) || !cron.validate(schedule)) throw new Error(`JOB_SCHEDULES: bad entry ${JSON.stringify(part)}`);
    out.set(name, schedule);
  }
  return out;
}

export async function startScheduler(runtime: Runtime): Promise<{ stop(): Promise<void> }> {
  const webhooks = await startWebhookDelivery(runtime);
  const owner = `instance-${ulid()}`;
  const schedules = jobSchedules();
  const tasks: ScheduledTask[] = JOBS.map((job) =>
    cron.schedule(
      schedules.get(job.name) ?? job.schedule,
      async () => {
        const exclusive = job.exclusive !== false;
        if (exclusive && !(await tryLease(runtime.db, job.name, owner, runtime.leases.jobMs ?? job.leaseMs, runtime.wallClock.now()))) return;
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
