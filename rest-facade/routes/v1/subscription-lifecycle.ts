// Subscription write routes: cancel, cancel/undo, reschedule, remove-coupon. Each maps to one
// GraphQL mutation of the same stem; the core decides every status code.
import { Router, type Request } from "express";
import { AppError } from "../../../core/shared/errors.ts";
import type { CoreClient } from "../../core-client.ts";
import { loadOperation } from "../../operations.ts";
import { stringField } from "../../params.ts";
import {
  toCancelResult,
  toRemoveCouponResult,
  toRescheduleResult,
  toUndoCancelResult,
  type CancelSelection,
} from "../../serializers/subscription-actions.ts";
import type { SubscriptionSelection } from "../../serializers/subscription.ts";

type Json = Record<string, unknown>;

const ops = {
  cancelSubscription: loadOperation("cancel-subscription"),
  undoCancelSubscription: loadOperation("undo-cancel-subscription"),
  rescheduleSubscription: loadOperation("reschedule-subscription"),
  removeCoupon: loadOperation("remove-coupon"),
};

/** A boolean body field: JSON true/false; forms (strings only) may send "true"/"false". */
function booleanField(req: Request, body: Json, name: string): boolean | null {
  const v = body[name];
  if (v == null) return null;
  if (typeof v === "boolean") return v;
  if (!req.is("application/json") && (v === "true" || v === "false")) return v === "true";
  throw new AppError("invalid_body", { error: `${name} must be a boolean` });
}

export function subscriptionLifecycleRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  const body = (req: Request) => (req.body ?? {}) as Json;

  r.post("/subscriptions/:id/cancel", async (req, res) => {
    const b = body(req);
    const vars = { id: req.params.id, reason: stringField(b, "reason"), atPeriodEnd: booleanField(req, b, "at_period_end") };
    const data = await core.request<{ cancelSubscription: CancelSelection }>(ops.cancelSubscription, vars, headers(req));
    res.json(toCancelResult(data.cancelSubscription));
  });

  r.post("/subscriptions/:id/cancel/undo", async (req, res) => {
    const data = await core.request<{ undoCancelSubscription: { ok: boolean; cancelAtPeriodEnd: boolean } }>(
      ops.undoCancelSubscription,
      { id: req.params.id },
      headers(req),
    );
    res.json(toUndoCancelResult(data.undoCancelSubscription));
  });

  r.post("/subscriptions/:id/reschedule", async (req, res) => {
    const v = body(req).next_billing_at;
    // Anything but a string is not a date: the contract's data_invalida, like a malformed one.
    if (v != null && typeof v !== "string") throw new AppError("data_invalida");
    const data = await core.request<{ rescheduleSubscription: { subscription: SubscriptionSelection; nextBillingAt: string } }>(
      ops.rescheduleSubscription,
      { id: req.params.id, nextBillingAt: v ?? null },
      headers(req),
    );
    res.json(toRescheduleResult(data.rescheduleSubscription));
  });

  r.post("/subscriptions/:id/remove-coupon", async (req, res) => {
    const data = await core.request<{ removeCoupon: { removed: number } }>(ops.removeCoupon, { id: req.params.id }, headers(req));
    res.json(toRemoveCouponResult(data.removeCoupon));
  });

  return r;
}
