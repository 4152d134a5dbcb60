// The billing run tick: claims due subscriptions row by row (leases + SKIP LOCKED), so every instance
// may run it at once without double work.
import type { Runtime } from "../core/runtime.ts";
import { runBillingPass } from "../core/billing/run-billing-pass.ts";
import { queueTrialReminders } from "../core/subscriptions/queue-trial-reminders.ts";

export async function billingRun(runtime: Runtime) {
  // Trial reminders are set-based and idempotent (one e-mail per trial end): any instance may queue them.
  await queueTrialReminders(runtime, {});
  return runBillingPass(runtime, {});
}
