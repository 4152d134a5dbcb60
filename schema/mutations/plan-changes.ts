// Subscription mutations: changePlan, cancelPlanChange.
import { cancelPlanChange } from "../../core/subscriptions/cancel-plan-change.ts";
import { changePlan } from "../../core/subscriptions/change-plan.ts";
import type { PlanChangeObject } from "../../core/subscriptions/plan-change-result.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";

type PlanChangeAnswer = { subscription: Record<string, unknown>; plan_change: PlanChangeObject };

const PlanChangeRef = builder.objectRef<PlanChangeObject>("PlanChange").implement({
  description: "What a plan-change operation did (service-contract §5).",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "upgrade, downgrade, crossgrade, interval_change or gateway_migration." }),
    effect: t.exposeString("effect", { description: "immediate, scheduled or payment_link." }),
    chargeCents: t.exposeInt("charge_cents", { description: "Amount charged now on the saved card (proration); 0 when nothing is charged." }),
    appliesAt: t.exposeString("applies_at", { nullable: true, description: "When the change applies (ISO 8601); null for a payment link (applies when paid)." }),
  }),
});

const PlanChangeResultRef = builder.objectRef<PlanChangeAnswer>("PlanChangeResult").implement({
  description: "Result of changePlan or cancelPlanChange.",
  fields: (t) => ({
    planChange: t.field({ type: PlanChangeRef, description: "The plan_change object.", resolve: (r) => r.plan_change }),
    payload: t.field({ type: "JSON", description: "REST body {subscription, plan_change}.", resolve: (r) => r }),
  }),
});

// The read-only account rule is applied to every mutation by the builder (schema/scopes.ts).
const writeScope = { write: true } as const;

builder.mutationFields((t) => ({
  changePlan: t.field({
    type: PlanChangeResultRef,
    description: "Change the offer of an active or trialing subscription (immediate, scheduled or a payment link on another gateway). Needs write scope and an unlocked account.",
    authScopes: writeScope,
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      offerId: t.arg.string({ required: false, description: "Target offer_ id (required; missing is invalid_body)." }),
      keepCoupon: t.arg.boolean({ required: false, description: "Carry the active coupon to the new offer (default false)." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const now = (await clockFor(ctx, tenantId)).now();
      return changePlan(ctx.runtime, { tenantId, subscriptionId: args.id, offerId: args.offerId, keepCoupon: args.keepCoupon ?? false, now });
    },
  }),
  cancelPlanChange: t.field({
    type: PlanChangeResultRef,
    description: "Cancel the scheduled plan change (pending_offer) or open migration link of a subscription. Needs write scope and an unlocked account.",
    authScopes: writeScope,
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      return cancelPlanChange(ctx.runtime, { tenantId, subscriptionId: args.id, now: (await clockFor(ctx, tenantId)).now() });
    },
  }),
}));
