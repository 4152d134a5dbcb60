// The hosted checkout's use case: the only way a subscription is born (billing-api.md fact 1).
// Order matters for "a refused checkout leaves nothing behind": every check and the gateway call
// come first; records are written in one transaction only once the gateway answered, and that
// transaction settles the card's verdict through the one settlement (settle-payment.ts).
import type { Runtime } from "../runtime.ts";
import { createPixCharge, refundCharge, type GatewayCallContext } from "../gateways/gateway-calls.ts";
import { dropChargeIntent, voidKey } from "./checkout-charge-intent.ts";
import { CHECKOUT_PIX_TTL_MS, chargeAtCheckout, tokenize } from "./checkout-charge.ts";
import { accountRef } from "../gateways/registry.ts";
import { tenantClock } from "../shared/clock.ts";
import { newId } from "../shared/ids.ts";
import { findCheckoutCoupon, findCheckoutCustomer, fieldError } from "./checkout-guards.ts";
import type { CheckoutInput, CheckoutResult } from "./checkout-input.ts";
import { createCheckoutRecords, type CheckoutRecords } from "./create-checkout-records.ts";
import { getCheckoutOffer, type CheckoutOffer } from "./get-checkout-offer.ts";
import { quoteCheckout } from "./quote-checkout.ts";
import { startOrderCheckout } from "./start-order-checkout.ts";

/** `read`: the offer as the page just read it for this request (getCheckoutOffer), so it is not read twice. */
export async function startCheckout(runtime: Runtime, input: CheckoutInput, read?: CheckoutOffer): Promise<CheckoutResult> {
  const prisma = runtime.db.prisma;
  const offer = read?.id === input.offerId ? read : await getCheckoutOffer(prisma, input.offerId);
  if (!offer.methods.includes(input.method)) throw fieldError("method", "forma de pagamento indisponível nesta oferta");
  if (offer.kind === "one_time") return startOrderCheckout(runtime, offer, input);
  const now = tenantClock({ mode: offer.tenantMode, clockAt: offer.clockAt }, runtime.wallClock).now();
  const existingCustomer = await findCheckoutCustomer(prisma, offer.tenantId, input);
  const coupon = await findCheckoutCoupon(prisma, offer.tenantId, input.coupon, now);
  const account = { id: offer.gatewayAccountId, tenantId: offer.tenantId, provider: offer.provider, capabilities: offer.capabilities };
  const ids = { customerId: newId("customer"), subscriptionId: newId("subscription"), invoiceId: newId("invoice"), paymentId: newId("payment") };
  const gw: GatewayCallContext = {
    prisma,
    adapter: runtime.gateways.adapter(account.provider),
    account: accountRef(account as Parameters<typeof accountRef>[0]),
    subscriptionId: ids.subscriptionId,
    paymentId: ids.paymentId,
    now,
  };
  // The figures the page's summary showed: one calculation for both.
  const quote = quoteCheckout({ offer, coupon, now });
  const base: Omit<CheckoutRecords, "card" | "status" | "period" | "firstInvoice" | "payment" | "events"> = {
    ids,
    tenantId: offer.tenantId,
    gatewayAccount: { id: account.id, provider: account.provider },
    offer: { id: offer.id, planId: offer.planId, currency: offer.currency },
    input,
    existingCustomer,
    coupon,
    now,
  };
  // A first invoice is charged right after: tokenize holds its gateway row for the charge's announcement.
  const saved = input.method === "card" ? await tokenize(gw, ids.invoiceId, input, { id: existingCustomer?.id ?? ids.customerId, isNew: !existingCustomer }, quote.firstInvoice !== null) : null;
  if (saved && !existingCustomer) ids.customerId = saved.customerId;
  const card = saved?.card ?? null;

  if (!quote.firstInvoice) {
    const ends = quote.trialEndsAt!;
    await createCheckoutRecords(runtime, {
      ...base,
      card,
      status: "TRIALING",
      period: { start: null, end: null, anchorDay: null, trialEndsAt: ends, nextBillingAt: ends },
      firstInvoice: null,
      payment: null,
      events: ["subscription.trial_started"],
    });
    return { status: "trialing", subscriptionId: ids.subscriptionId, orderId: null, pix: null, quote, card: card && { brand: card.brand, last4: card.last4 } };
  }

  const { periodEnd: end, ...amount } = quote.firstInvoice;
  const idempotencyKey = `${ids.invoiceId}:1`;
  if (card) {
    const verdict = await chargeAtCheckout(gw, card, amount.amountCents, offer.currency, ids.invoiceId, idempotencyKey, runtime.wallClock.now(), saved?.log);
    runtime.faults?.("after-gateway-charge");
    // Born waiting for its first payment; the approved verdict, settled in the same transaction,
    // activates it (its period, subscription.activated and invoice.paid).
    const records: CheckoutRecords = {
      ...base,
      card,
      status: "PENDING_FIRST_PAYMENT",
      period: { start: null, end: null, anchorDay: null, trialEndsAt: null, nextBillingAt: null },
      firstInvoice: { ...amount, periodEnd: end },
      payment: { method: "CARD", idempotencyKey, verdict },
      events: [],
    };
    try {
      await createCheckoutRecords(runtime, records);
    } catch (err) {
      // The charge went through but nothing was recorded: give the money back rather than keep it unexplained.
      const voided = await refundCharge(gw, ids.invoiceId, { chargeId: verdict.chargeId, amountCents: amount.amountCents, idempotencyKey: voidKey(idempotencyKey) });
      if (voided) await dropChargeIntent(runtime.db.prisma, idempotencyKey); // else the reconcile job voids it
      throw err;
    }
    return { status: "active", subscriptionId: ids.subscriptionId, orderId: null, pix: null, quote, card: { brand: card.brand, last4: card.last4 } };
  }

  const pix = await createPixCharge(gw, {
    amountCents: amount.amountCents,
    currency: offer.currency,
    idempotencyKey,
    reference: ids.invoiceId,
    expiresAt: new Date(now.getTime() + CHECKOUT_PIX_TTL_MS),
    payer: { name: input.name, email: input.email, doc: input.doc, phone: input.phone },
  });
  await createCheckoutRecords(runtime, {
    ...base,
    card: null,
    status: "PENDING_FIRST_PAYMENT",
    period: { start: null, end: null, anchorDay: null, trialEndsAt: null, nextBillingAt: pix.expiresAt },
    firstInvoice: { ...amount, periodEnd: end },
    payment: { method: "PIX", idempotencyKey, chargeId: pix.chargeId, pix: { copyPaste: pix.copyPaste, expiresAt: pix.expiresAt } },
    events: [],
  });
  return {
    status: "pending_first_payment",
    subscriptionId: ids.subscriptionId,
    orderId: null,
    pix: { copyPaste: pix.copyPaste, qrPngUrl: `${runtime.config.publicUrl}/pix/${ids.paymentId}/qr.png`, expiresAt: pix.expiresAt },
    quote,
    card: null,
  };
}
