// Subscription mutations: cancelSubscription, undoCancelSubscription, rescheduleSubscription, removeCoupon,
// and the read of the recorded e-mails (emailMessages) the cancellation writes.
import { listEmailMessages } from "../../core/emails/list-email-messages.ts";
import { cancelSubscription, type CancelSubscriptionResult } from "../../core/subscriptions/cancel-subscription.ts";
import { removeCoupon, type RemoveCouponResult } from "../../core/subscriptions/remove-coupon.ts";
import { rescheduleSubscription } from "../../core/subscriptions/reschedule-subscription.ts";
import { undoCancel, type UndoCancelResult } from "../../core/subscriptions/undo-cancel.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";
import { SubscriptionStatusEnum } from "../types/enums.ts";
import { subscriptionPayloadInclude } from "../../core/payloads/subscription-payload.ts";
import { SubscriptionRef } from "../types/subscription.ts";

// The read-only account rule is applied to every mutation by the builder (schema/scopes.ts).
const writeScope = { write: true } as const;

const CancelSubscriptionResultRef = builder.objectRef<CancelSubscriptionResult>("CancelSubscriptionResult").implement({
  description: "Result of a cancellation (immediate or scheduled for the period end).",
  fields: (t) => ({
    status: t.field({
      type: SubscriptionStatusEnum,
      description: "Status after the call: CANCELED in immediate mode and for a trial without card.",
      resolve: (r) => r.status,
    }),
    ok: t.exposeBoolean("ok", { description: "True: the cancellation is done or scheduled." }),
    cancelAtPeriodEnd: t.exposeBoolean("cancelAtPeriodEnd", { description: "True when the cancellation is scheduled for the end of the period." }),
    currentPeriodEnd: t.field({
      type: "DateTime",
      nullable: true,
      description: "Until when access continues, when scheduled.",
      resolve: (r) => r.currentPeriodEnd,
    }),
  }),
});

const UndoCancelResultRef = builder.objectRef<UndoCancelResult>("UndoCancelResult").implement({
  description: "Result of undoing a scheduled cancellation.",
  fields: (t) => ({
    ok: t.exposeBoolean("ok", { description: "True: the scheduled cancellation is undone." }),
    cancelAtPeriodEnd: t.exposeBoolean("cancelAtPeriodEnd", { description: "False after undo." }),
  }),
});

type RescheduleResult = Awaited<ReturnType<typeof rescheduleSubscription>> & { tenantId: string };
const RescheduleResultRef = builder.objectRef<RescheduleResult>("RescheduleSubscriptionResult").implement({
  description: "Result of moving the next charge date.",
  fields: (t) => ({
    subscription: t.field({
      type: SubscriptionRef,
      description: "The subscription after the move.",
      resolve: (r, _a, ctx) => ctx.db.prisma.subscription.findFirstOrThrow({ where: { id: r.subscriptionId, tenantId: r.tenantId }, include: subscriptionPayloadInclude }),
    }),
    nextBillingAt: t.expose("nextBillingAt", { type: "DateTime", description: "The new date of the next charge." }),
  }),
});

const RemoveCouponResultRef = builder.objectRef<RemoveCouponResult>("RemoveCouponResult").implement({
  description: "Result of removing the subscription's coupon.",
  fields: (t) => ({
    removed: t.exposeInt("removed", { description: "How many redemptions were deactivated." }),
  }),
});

type EmailRow = Awaited<ReturnType<typeof listEmailMessages>>[number];
const EmailMessageRef = builder.objectRef<EmailRow>("EmailMessage").implement({
  description: "An e-mail recorded in the outbox (see emails for its delivery status).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "eml_ id." }),
    customerId: t.exposeString("customer_id", { nullable: true, description: "cus_ id of the addressee, when a customer." }),
    kind: t.exposeString("kind", { description: "What the e-mail is about, e.g. subscription_canceled." }),
    to: t.exposeString("to", { description: "Addressee." }),
    subject: t.exposeString("subject", { description: "Subject line (pt-BR)." }),
    body: t.exposeString("body", { description: "Plain-text body (pt-BR); rendered from the message's facts until it is sent." }),
    createdAt: t.exposeString("created_at", { description: "When it was recorded, on the tenant's clock (ISO 8601)." }),
  }),
});

const idArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  id: t.arg.string({ required: true, description: "sub_ id." }),
  tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
});

builder.mutationFields((t) => ({
  cancelSubscription: t.field({
    type: CancelSubscriptionResultRef,
    description: "Cancel a subscription now (default; idempotent) or at the end of the period. Needs write scope; allowed in read-only mode.",
    authScopes: { write: true },
    args: {
      ...idArgs(t),
      reason: t.arg.string({ required: false, description: "At most 300 characters; goes into the cancellation e-mail." }),
      atPeriodEnd: t.arg.boolean({ required: false, description: "Schedule the cancellation for the end of the period (default false)." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const now = (await clockFor(ctx, tenantId)).now();
      return cancelSubscription(ctx.runtime, { tenantId, subscriptionId: args.id, reason: args.reason ?? null, atPeriodEnd: args.atPeriodEnd ?? false, now });
    },
  }),
  undoCancelSubscription: t.field({
    type: UndoCancelResultRef,
    description: "Undo a scheduled (at period end) cancellation. Never resurrects a canceled subscription. Needs write scope and an unlocked account.",
    authScopes: writeScope,
    args: idArgs(t),
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      return undoCancel(ctx.runtime, { tenantId, subscriptionId: args.id, now: (await clockFor(ctx, tenantId)).now() });
    },
  }),
  rescheduleSubscription: t.field({
    type: RescheduleResultRef,
    description: "Move the next charge (end of the current cycle or trial) to a future date; the cadence follows it. Needs write scope and an unlocked account.",
    authScopes: writeScope,
    args: {
      ...idArgs(t),
      nextBillingAt: t.arg.string({ required: false, description: "ISO 8601 date-time with offset, in the future on the tenant's clock." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const now = (await clockFor(ctx, tenantId)).now();
      return { ...(await rescheduleSubscription(ctx.runtime, { tenantId, subscriptionId: args.id, nextBillingAt: args.nextBillingAt ?? null, now })), tenantId };
    },
  }),
  removeCoupon: t.field({
    type: RemoveCouponResultRef,
    description: "Deactivate the subscription's coupon redemptions: future cycles are not discounted. Needs write scope and an unlocked account.",
    authScopes: writeScope,
    args: idArgs(t),
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      return removeCoupon(ctx.runtime, { tenantId, subscriptionId: args.id, now: (await clockFor(ctx, tenantId)).now() });
    },
  }),
}));

builder.queryFields((t) => ({
  emailMessages: t.field({
    type: [EmailMessageRef],
    description: "The tenant's recorded e-mails (the outbox), newest first.",
    authScopes: { tenant: true, operator: true },
    args: {
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
      customerId: t.arg.string({ required: false, description: "Only the e-mails of this cus_ id." }),
      limit: t.arg.int({ required: false, description: "At most this many (1 to 500, default 100)." }),
    },
    resolve: (_r, args, ctx) =>
      listEmailMessages(ctx.db.prisma, {
        tenantId: tenantIdFor(ctx, args.tenantId),
        customerId: args.customerId,
        limit: args.limit ?? 100,
        publicUrl: ctx.runtime.config.publicUrl,
      }),
  }),
}));
