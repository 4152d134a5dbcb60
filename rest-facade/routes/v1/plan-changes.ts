// Subscription write routes: change-plan, cancel-plan-change.
import { Router, type Request } from "express";
import { AppError } from "../../../core/shared/errors.ts";
import type { CoreClient } from "../../core-client.ts";
import { loadOperation } from "../../operations.ts";
import { stringField } from "../../params.ts";
import { toPlanChangeResult, type PlanChangeSelection } from "../../serializers/subscription-actions.ts";

const changePlanOp = loadOperation("change-plan");
const cancelPlanChangeOp = loadOperation("cancel-plan-change");

/** keep_coupon: a JSON boolean, or "true"/"false" from a form. */
function booleanField(body: Record<string, unknown>, name: string): boolean | null {
  const v = body[name];
  if (v == null) return null;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  throw new AppError("invalid_body", { error: `${name} must be a boolean` });
}

export function planChangeRoutes(core: CoreClient, headers: (req: Request) => Record<string, string>): Router {
  const r = Router();
  r.post("/subscriptions/:id/change-plan", async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const offerId = stringField(body, "offer_id");
    if (!offerId) throw new AppError("invalid_body", { error: "offer_id is required" });
    const keepCoupon = booleanField(body, "keep_coupon");
    const data = await core.request<{ changePlan: PlanChangeSelection }>(changePlanOp, { id: req.params.id, offerId, keepCoupon }, headers(req));
    res.json(toPlanChangeResult(data.changePlan));
  });
  r.post("/subscriptions/:id/cancel-plan-change", async (req, res) => {
    const data = await core.request<{ cancelPlanChange: PlanChangeSelection }>(cancelPlanChangeOp, { id: req.params.id }, headers(req));
    res.json(toPlanChangeResult(data.cancelPlanChange));
  });
  return r;
}
