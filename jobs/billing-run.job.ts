// The billing run tick: claims due subscriptions row by row (leases + SKIP LOCKED), so every instance
// may run it at once without double work.
import type { Runtime } from "../core/runtime.ts";
import { runBillingPass } from "../core/billing/run-billing-pass.ts";

export function billingRun(runtime: Runtime) {
  return runBillingPass(runtime, {});
}
