// Settles card attempts whose gateway outcome was never heard.
import type { Runtime } from "../core/runtime.ts";
import { reconcileUnknownPayments } from "../core/billing/reconcile-unknown-payments.ts";

export function reconcilePayments(runtime: Runtime) {
  return reconcileUnknownPayments(runtime);
}
