// Subscription mutations: chargeNow, createPaymentMethodLink, createRenewalLink.
import { chargeNow, type ChargeNowResult } from "../../core/subscriptions/charge-now.ts";
import { createPaymentMethodLink, type PaymentMethodLink } from "../../core/links/create-payment-method-link.ts";
import { createRenewalLink, type RenewalLink } from "../../core/links/create-renewal-link.ts";
import { builder } from "../builder.ts";
import { clockFor, tenantIdFor } from "../tenant-scope.ts";

const ChargeNowResultRef = builder.objectRef<ChargeNowResult>("ChargeNowResult").implement({
  description: "Answer of chargeNow: accepted; it does not mean a charge happened (follow invoice.paid / invoice.payment_failed).",
  fields: (t) => ({
    ok: t.exposeBoolean("ok", { description: "True when the request was accepted." }),
    message: t.exposeString("message", { description: "What the run did or why nothing was due." }),
  }),
});

const PaymentMethodLinkRef = builder.objectRef<PaymentMethodLink>("PaymentMethodLinkResult").implement({
  description: "A single-use /pay link (7 days) for the customer to change the card; nothing is charged.",
  fields: (t) => ({
    token: t.exposeString("token", { description: "Opaque token, shown once (only its hash is stored)." }),
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the link stops working (tenant clock)." }),
    status: t.exposeString("status", { description: "Link status: open." }),
  }),
});

const RenewalLinkRef = builder.objectRef<RenewalLink>("RenewalLinkResult").implement({
  description: "A /pay link (7 days) that renews the subscription one cycle ahead when paid.",
  fields: (t) => ({
    token: t.exposeString("token", { description: "Opaque token, shown once (only its hash is stored)." }),
    url: t.exposeString("url", { description: "The public /pay/{token} address." }),
    priceCents: t.exposeInt("priceCents", { description: "Price of the renewal in cents." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the link stops working (tenant clock)." }),
    status: t.exposeString("status", { description: "Link status: active." }),
  }),
});

builder.mutationFields((t) => ({
  chargeNow: t.field({
    type: ChargeNowResultRef,
    description:
      "Run this subscription's billing duty now when it is already due (next_billing_at on the tenant clock; Pix QRs from 3 days before). Never anticipates a cycle, ends a trial or advances a retry; never charges twice. 409 when not chargeable (body carries status) or renewals are paused.",
    authScopes: { write: true },
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return chargeNow(ctx.runtime, { tenantId, subscriptionId: args.id, now: clock.now() });
    },
  }),
  createPaymentMethodLink: t.field({
    type: PaymentMethodLinkRef,
    description: "A single-use /pay link (7 days) to change the subscription's card (or Pix to card when the offer takes card). 409 for canceled, pending_first_payment or a trial without card.",
    authScopes: { write: true },
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return createPaymentMethodLink(ctx.runtime, { tenantId, subscriptionId: args.id, now: clock.now() });
    },
  }),
  createRenewalLink: t.field({
    type: RenewalLinkRef,
    description: "A /pay link (7 days) that extends the period by one cycle when paid (a renewal-advance order, order.paid). Default price: the next cycle with the active coupon.",
    authScopes: { write: true },
    args: {
      id: t.arg.string({ required: true, description: "sub_ id." }),
      offerId: t.arg.string({ required: false, description: "Must be the subscription's current offer (400 when unknown, 422 when another)." }),
      priceCents: t.arg.int({ required: false, description: "Price in cents, at least 1; default the next cycle with the active coupon." }),
      tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to act on." }),
    },
    resolve: async (_r, args, ctx) => {
      const tenantId = tenantIdFor(ctx, args.tenantId);
      const clock = await clockFor(ctx, tenantId);
      return createRenewalLink(ctx.runtime, { tenantId, subscriptionId: args.id, offerId: args.offerId, priceCents: args.priceCents, now: clock.now() });
    },
  }),
}));
