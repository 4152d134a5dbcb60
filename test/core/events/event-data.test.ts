// The order and referral data builders (their flows arrive with later issues) produce the documented
// shapes: checked against the OpenAPI document's webhook schemas. Quantity never multiplies the raw
// entitlements or grant days.
import { describe, expect, it } from "vitest";
import { EVENT_CATALOGUE } from "../../../core/events/catalogue.ts";
import { orderData, referralData } from "../../../core/events/event-data.ts";
import { EVENT_TYPES } from "../../../core/events/event-types.ts";
import { newId } from "../../../core/shared/ids.ts";
import { createOpenApiValidator } from "../../helpers/openapi-validator.ts";

const openapi = createOpenApiValidator();
const envelope = (type: string, data: unknown) => ({ id: newId("event"), type, created_at: "2027-01-01T00:00:00.000Z", tenant_id: newId("tenant"), data });

const paidAt = new Date("2027-01-01T00:00:00.000Z");
const order = {
  id: newId("order"), tenantId: "tn", customerId: "cus", offerId: "offer", planId: newId("plan"), quantity: 3, unitAmountCents: 1000, amountCents: 3000,
  currency: "brl", status: "PAID" as const, targetSubscriptionId: null, extensionSeconds: null, campaignId: null, tracking: null, paidAt, createdAt: paidAt,
  customer: { id: newId("customer"), email: "a@example.com", externalId: "ext-1" },
};
const payment = {
  id: newId("payment"), tenantId: "tn", customerId: "cus", subscriptionId: null, invoiceId: null, orderId: order.id, paidInvoiceId: null, paidOrderId: order.id,
  kind: "ONE_TIME" as const, method: "PIX" as const, methodKind: "pix", amountCents: 3000, currency: "brl", status: "PAID" as const, attemptNo: 1,
  idempotencyKey: "k", refundedAmountCents: 0, refundInFlight: false, refundReason: "", failureCode: "", gatewayAccountId: "gwa", provider: "sandbox",
  gatewayChargeId: "ch_1", paymentMethodId: null, cardBrand: null, cardLast4: null, pixCopyPaste: null, pixExpiresAt: null, paidAt, createdAt: paidAt,
};

describe("event data builders", () => {
  it("order data has the documented shape; entitlements and grant_days are raw", () => {
    const data = orderData(order as never, { name: "Pro", entitlements: { seats: 5 } }, { grantDays: 30 }, payment as never);
    expect(data).toMatchObject({ quantity: 3, amount_cents: 3000, unit_amount_cents: 1000, entitlements: { seats: 5 }, grant_days: 30, status: "paid" });
    expect((data.payment as { card: unknown }).card).toBeNull(); // Pix
    expect(openapi.validateWebhook("order.paid", envelope("order.paid", data)).errors).toEqual([]);
    const refunded = orderData({ ...order, status: "REFUNDED" } as never, { name: "Pro", entitlements: {} }, { grantDays: null }, payment as never);
    expect(openapi.validateWebhook("order.refunded", envelope("order.refunded", refunded)).errors).toEqual([]);
    expect(openapi.validateWebhook("payment.refunded", envelope("payment.refunded", refunded)).errors).toEqual([]);
  });

  it("referral data has the documented shape, with the reward snapshot or the program's", () => {
    const party = (n: string) => ({ id: newId("customer"), email: `${n}@example.com`, name: n });
    const snap = referralData({ id: newId("referral"), status: "PENDING", reward: { kind: "percent_next", value: 20, cycles: 1 } }, party("a"), party("b"), null);
    expect(snap.reward).toEqual({ kind: "percent_next", value: 20, cycles: 1 });
    expect(openapi.validateWebhook("referral.created", envelope("referral.created", snap)).errors).toEqual([]);
    const fallback = referralData({ id: newId("referral"), status: "REVERTED", reward: null }, party("a"), party("b"), { rewardKind: "percent_next", rewardValue: 10, rewardCycles: 2 });
    expect(fallback).toMatchObject({ status: "reverted", reward: { kind: "percent_next", value: 10, cycles: 2 } });
    expect(openapi.validateWebhook("referral.reverted", envelope("referral.reverted", fallback)).errors).toEqual([]);
  });

  it("the catalogue covers the 19 types and every type is documented", () => {
    expect(Object.keys(EVENT_CATALOGUE).sort()).toEqual([...EVENT_TYPES].sort());
    expect(EVENT_TYPES).toHaveLength(19);
    for (const type of EVENT_TYPES) expect(openapi.validateWebhook(type, null).errors).not.toContain(`no documented webhook ${type}`);
  });
});
