// Subscription mutations: changePlan, cancelPlanChange.
import { cancelPlanChange } from "../../core/subscriptions/cancel-plan-change.ts";
import { changePlan } from "../../core/subscriptions/change-plan.ts";
import type { PlanChangeObject, PlanChangeResult } from "../../core/subscriptions/plan-change-result.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { subscriptionPayloadInclude } from "../../core/payloads/subscription-payload.ts";
import { SubscriptionRef } from "../types/subscription.ts";

type PlanChangeAnswer = PlanChangeResult & { tenantId: string };
type MigrationLink = NonNullable<PlanChangeObject["paymentLink"]>;

const PlanChangePaymentLinkRef = builder.objectRef<MigrationLink>("PlanChangePaymentLink").implement({
  description: "Where the customer pays to move to an offer on another gateway (effect PAYMENT_LINK).",
  fields: (t) => ({
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    offerId: t.exposeString("offerId", { description: "offer_ id the subscription moves to when paid." }),
    expiresAt: t.field({ type: "DateTime", description: "When the link stops working.", resolve: (l) => l.expiresAt }),
  }),
});

const PlanChangeRef = builder.objectRef<PlanChangeObject>("PlanChange").implement({
  description: "What a plan-change operation did (service-contract §5).",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "upgrade, downgrade, crossgrade, interval_change or gateway_migration." }),
    effect: t.exposeString("effect", { description: "immediate, scheduled or payment_link." }),
    chargeCents: t.exposeInt("chargeCents", { description: "Amount charged now on the saved card (proration); 0 when nothing is charged." }),
    appliesAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the change applies; null for a payment link (applies when paid).",
      resolve: (c) => c.appliesAt,
    }),
    paymentLink: t.field({
      type: PlanChangePaymentLinkRef,
      nullable: true,
      description: "Only for effect payment_link: where the customer pays on the new gateway.",
      resolve: (c) => c.paymentLink,
    }),
  }),
});

const PlanChangeResultRef = builder.objectRef<PlanChangeAnswer>("PlanChangeResult").implement({
  description: "Result of changePlan or cancelPlanChange.",
  fields: (t) => ({
    subscription: t.field({
      type: SubscriptionRef,
      description: "The subscription as it stands after the change.",
      resolve: (r, _a, ctx) => ctx.db.prisma.subscription.findFirstOrThrow({ where: { id: r.subscriptionId, tenantId: r.tenantId }, include: subscriptionPayloadInclude }),
    }),
    planChange: t.field({ type: PlanChangeRef, description: "The plan_change object.", resolve: (r) => r.planChange }),
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
      return { ...(await changePlan(ctx.runtime, { tenantId, subscriptionId: args.id, offerId: args.offerId, keepCoupon: args.keepCoupon ?? false, now })), tenantId };
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
      return { ...(await cancelPlanChange(ctx.runtime, { tenantId, subscriptionId: args.id, now: (await clockFor(ctx, tenantId)).now() })), tenantId };
    },
  }),
}));
