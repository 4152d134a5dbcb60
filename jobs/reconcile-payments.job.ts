// Settles card attempts whose gateway outcome was never heard, and finishes refunds left pending.
import type { Runtime } from "../core/runtime.ts";
import { reconcileUnknownPayments } from "../core/billing/reconcile-unknown-payments.ts";
import { reconcilePendingRefunds } from "../core/refunds/reconcile-refunds.ts";

export async function reconcilePayments(runtime: Runtime) {
  return { payments: await reconcileUnknownPayments(runtime), refunds: await reconcilePendingRefunds(runtime) };
}
