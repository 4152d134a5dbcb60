// Settles card attempts whose gateway outcome was never heard and Pix paid at a real provider whose
// notice was lost, finishes refunds left pending, and gives back checkout charges whose sale was
// never recorded (the process died in between).
import type { Runtime } from "../core/runtime.ts";
import { reconcileUnknownPayments } from "../core/billing/reconcile-unknown-payments.ts";
import { reconcilePixPayments } from "../core/billing/reconcile-pix-payments.ts";
import { reconcilePendingRefunds } from "../core/refunds/reconcile-refunds.ts";
import { voidOrphanCheckoutCharges } from "../core/checkout/void-orphan-charges.ts";

export async function reconcilePayments(runtime: Runtime) {
  return {
    payments: await reconcileUnknownPayments(runtime),
    pixPayments: await reconcilePixPayments(runtime),
    refunds: await reconcilePendingRefunds(runtime),
    orphanCheckoutCharges: await voidOrphanCheckoutCharges(runtime),
  };
}
