// Sandbox-only mutations (service-contract §2, names fixed): the tenant clock and the simulated
// payer and card network. Refused for LIVE tenants.
import { advanceClock, type AdvanceClockSummary } from "../../core/sandbox/advance-clock.ts";
import { simulateChargeback } from "../../core/sandbox/simulate-chargeback.ts";
import { simulatePixPayment } from "../../core/sandbox/simulate-pix-payment.ts";
import { builder } from "../builder.ts";
import type { Context } from "../context.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { PaymentRef } from "../types/payment.ts";

const AdvanceClockSummaryRef = builder.objectRef<AdvanceClockSummary>("AdvanceClockSummary").implement({
  description: "What advanceClock ran, by kind of duty.",
  fields: (t) => ({
    from: t.expose("from", { type: "DateTime", description: "The tenant's clock before the call." }),
    to: t.expose("to", { type: "DateTime", description: "The tenant's clock now." }),
    steps: t.exposeInt("steps", { description: "Instants the clock stopped at to run duties, in time order." }),
    renewed: t.exposeInt("renewed", { description: "Invoices paid by the run (renewals, trial ends, successful retries)." }),
    chargeFailed: t.exposeInt("charge_failed", { description: "Failed charges that left the retry schedule going." }),
    pastDue: t.exposeInt("past_due", { description: "Subscriptions that became past_due." }),
    suspended: t.exposeInt("suspended", { description: "Subscriptions suspended after the last retry." }),
    pixIssued: t.exposeInt("pix_issued", { description: "Renewal Pix QRs issued (3 days before the due date)." }),
    canceled: t.exposeInt("canceled", { description: "Scheduled cancellations and abandoned Pix checkouts ended." }),
    unknown: t.exposeInt("unknown", { description: "Charges whose gateway outcome is not known yet (reconciled before any new try)." }),
    chargebacks: t.exposeInt("chargebacks", { description: "Chargebacks filed by the sandbox gateway." }),
    refundsSettled: t.exposeInt("refunds_settled", { description: "Refunds left pending (the gateway's answer was lost) that were finished on the way, asking the gateway again with the refund's own key." }),
    webhookAttempts: t.exposeInt("webhook_attempts", { description: "Webhook delivery attempts that fell due on the way (first attempts and retries), whichever dispatcher made them: those a background dispatcher was making are waited for and counted too." }),
    held: t.exposeInt("held", { description: "Due subscriptions another worker was running (the background billing run, another instance) when the call reached them: waited for (up to 15 s in all) until it let go, and whatever it left due run after." }),
    errors: t.exposeInt("errors", { description: "Duties that failed and will be retried." }),
    trialReminders: t.exposeInt("trial_reminders", { description: "\"Trial ends in 3 days\" e-mails queued on the way (the clock stops 3 days before each trial end)." }),
  }),
});

// write first: a read key hears insufficient_scope rather than operator_only.
const sandboxCaller = { $any: { write: true, operator: true } } as const;
const ownTenant = (ctx: Context) => (ctx.actor.kind === "tenant" ? ctx.actor.tenantId : null);

builder.mutationFields((t) => ({
  advanceClock: t.field({
    type: AdvanceClockSummaryRef,
    description: "SANDBOX only: move the tenant's clock forward to `to`, running every billing duty that falls due on the way, in time order.",
    authScopes: sandboxCaller,
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id of a SANDBOX tenant." }),
      to: t.arg({ type: "DateTime", required: true, description: "The new instant of the tenant's clock (not before the current one)." }),
    },
    resolve: (_root, args, ctx) => advanceClock(ctx.runtime, { tenantId: tenantIdFor(ctx, String(args.tenantId)), to: args.to as Date }),
  }),
  simulatePixPayment: t.field({
    type: PaymentRef,
    description: "SANDBOX only: pay the issued Pix charge whose BR Code payload is given, as a payer's bank app would.",
    authScopes: sandboxCaller,
    args: { copyPaste: t.arg.string({ required: true, description: "The Pix copia e cola payload." }) },
    resolve: (_root, args, ctx) => simulatePixPayment(ctx.runtime, { copyPaste: args.copyPaste, tenantId: ownTenant(ctx) }),
  }),
  simulateChargeback: t.field({
    type: PaymentRef,
    description: "SANDBOX only: the card network files a chargeback on a paid payment.",
    authScopes: sandboxCaller,
    args: { paymentId: t.arg.id({ required: true, description: "pay_ id." }) },
    resolve: (_root, args, ctx) => simulateChargeback(ctx.runtime, { paymentId: String(args.paymentId), tenantId: ownTenant(ctx) }),
  }),
}));
