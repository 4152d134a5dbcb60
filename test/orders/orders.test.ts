// One-time offers on the hosted checkout: orders with a quantity, their grants, Pix orders reopened
// through GET /v1/orders/{id}/payment-link and /pay, and early-renewal orders.
import { describe, expect, it } from "vitest";
import { advanceClock, checkout, CARDS, events, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { newTenant } from "../helpers/tenant.ts";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { testService } from "../helpers/service.ts";
import { payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { oneTimeOffer } from "./order-helpers.ts";

const openapi = createOpenApiValidator();
const T0 = "2027-03-01T12:00:00.000Z";

describe("orders on the hosted checkout", () => {
  it("quantity 3 by card: order.paid with raw entitlements and grant_days, a grant of its own period, a one-time payment", async () => {
    const t = await newTenant({ entitlements: { seats: 1, reports: true } });
    await advanceClock(t, T0);
    const offerId = await oneTimeOffer(t, { unitPriceCents: 1500, grantDays: 30 });
    const res = await checkout(offerId, { quantity: "3" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "paid", subscription_id: null, pix: null, error: null });
    expect(res.body.order_id).toMatch(/^ord_/);

    const paid = (await events(t, "order.paid"))[0]!;
    expect(openapi.validateWebhook("order.paid", paid).errors).toEqual([]);
    expect(paid.data).toMatchObject({
      order_id: res.body.order_id,
      status: "paid",
      quantity: 3,
      unit_amount_cents: 1500,
      amount_cents: 4500,
      currency: "brl",
      paid_at: T0,
      target_subscription_id: null,
      entitlements: { seats: 1, reports: true },
      grant_days: 30,
      payment: { status: "paid", method: "card", amount_cents: 4500, card: { brand: "visa", last4: "4242" } },
    });

    const grants = await op(`query($t: ID!, $e: String!) { customerGrants(tenantId: $t, externalId: $e) { orderId quantity startsAt endsAt revokedAt } }`, {
      t: t.tenantId,
      e: paid.data.customer.external_id,
    });
    expect(grants.customerGrants).toEqual([{ orderId: res.body.order_id, quantity: 3, startsAt: T0, endsAt: "2027-03-31T12:00:00.000Z", revokedAt: null }]);

    const payments = await get(`/v1/customers/${paid.data.customer.external_id}/payments`, t.readKey);
    expect(payments.status).toBe(200);
    expect(payments.body.results).toHaveLength(1);
    expect(payments.body.results[0]).toMatchObject({ kind: "one_time", status: "paid", amount_cents: 4500, reference: { type: "order", id: res.body.order_id } });
    const detail = await get(`/v1/payments/${paid.data.payment.payment_id}`, t.readKey);
    expect(detail.body.items).toEqual([expect.objectContaining({ kind: "plan", amount_cents: 4500, refunded_amount_cents: 0, refunded: false })]);
    expect(openapi.validateResponse("GET", "/v1/payments/{payment_id}", 200, detail.body).errors).toEqual([]);
  });

  it("the page offers a quantity; a bad quantity or a coupon is refused with its field", async () => {
    const t = await newTenant();
    const offerId = await oneTimeOffer(t);
    const html = await (await fetch(`${(await testService()).baseUrl}/checkout/${offerId}`)).text();
    expect(html).toContain('name="quantity"');
    expect(html).toContain("Comprar");
    for (const quantity of ["0", "100", "2.5", "-1", "abc"]) {
      const res = await checkout(offerId, { quantity });
      expect(res.status, quantity).toBe(422);
      expect(res.body).toMatchObject({ field: "quantity" });
    }
    const coupon = await checkout(offerId, { coupon: "ANY" });
    expect(coupon).toMatchObject({ status: 422, body: { field: "coupon" } });
    expect(await events(t)).toEqual([]);
  });

  it("a Pix order is reopened by GET /v1/orders/{id}/payment-link, shown on /pay, and paid", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const offerId = await oneTimeOffer(t, { unitPriceCents: 2000, grantDays: 7 });
    const res = await checkout(offerId, { quantity: "2" }, { pix: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "pending", subscription_id: null });
    const orderId = res.body.order_id!;

    const link = await get(`/v1/orders/${orderId}/payment-link`, t.readKey);
    expect(link.status).toBe(200);
    expect(openapi.validateResponse("GET", "/v1/orders/{order_id}/payment-link", 200, link.body).errors).toEqual([]);
    expect(link.body).toMatchObject({ status: "open", amount_cents: 4000, currency: "brl", method: "pix" });
    expect(link.body.pix.copy_paste).toBe(res.body.pix!.copy_paste);
    expect(JSON.stringify(link.body)).not.toContain(orderId);
    const page = await payPage(tokenOf(link.body.url));
    expect(page.status).toBe(200);
    expect(page.text).toContain(res.body.pix!.copy_paste);
    expect((await payJson(tokenOf(link.body.url), {})).status).toBe(409);

    // The QR expires; reopening issues the order's next attempt, and the old QR is dead.
    await advanceClock(t, "2027-03-03T12:00:00.000Z");
    const reopened = await get(`/v1/orders/${orderId}/payment-link`, t.readKey);
    expect(reopened.status).toBe(200);
    expect(reopened.body.pix.copy_paste).not.toBe(res.body.pix!.copy_paste);
    await expect(payPix(res.body.pix!.copy_paste)).rejects.toThrow();
    const again = await get(`/v1/orders/${orderId}/payment-link`, t.readKey);
    expect(again.body.pix.copy_paste).toBe(reopened.body.pix.copy_paste); // same live QR, not a third one

    const paid = await payPix(reopened.body.pix.copy_paste);
    expect(paid.status).toBe("PAID"); // the GraphQL PaymentStatus enum
    const event = (await events(t, "order.paid"))[0]!;
    expect(event.data).toMatchObject({ order_id: orderId, quantity: 2, amount_cents: 4000, grant_days: 7, payment: { method: "pix", card: null } });
    const none = await get(`/v1/orders/${orderId}/payment-link`, t.readKey);
    expect(none.status).toBe(409);
    expect(none.body.error).toBe("pedido sem Pix pendente para reabrir");
    expect((await payPage(tokenOf(link.body.url))).status).toBe(410);
  });

  it("payment-link: 409 for a card order, 404 for unknown, malformed and foreign ids, byte-identical", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const offerId = await oneTimeOffer(t);
    const card = await checkout(offerId);
    const conflict = await get(`/v1/orders/${card.body.order_id}/payment-link`, t.readKey);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe("pedido sem Pix pendente para reabrir");
    const foreign = await get(`/v1/orders/${card.body.order_id}/payment-link`, other.readKey);
    const unknown = await get(`/v1/orders/ord_01JABCDEFGHJKMNPQRSTVWXYZ0/payment-link`, other.readKey);
    const malformed = await get(`/v1/orders/nope/payment-link`, other.readKey);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    expect(malformed.text).toBe(unknown.text);
  });

  it("an early-renewal order extends the buyer's active subscription by quantity cycles", async () => {
    const t = await newTenant();
    await advanceClock(t, T0);
    const sub = await subscribe(t.monthlyOfferId, { email: "renova@example.com", external_id: "renova" });
    const before = await subscription(t, sub.subscription_id);
    expect(before.current_period_end).toBe("2027-04-01T12:00:00.000Z");
    const offerId = await oneTimeOffer(t, { unitPriceCents: 4990, grantDays: 0, renews: true });

    const stranger = await checkout(offerId, { email: "ninguem@example.com", external_id: "ninguem" });
    expect(stranger).toMatchObject({ status: 422, body: { field: "email" } });

    const res = await checkout(offerId, { email: "renova@example.com", external_id: "renova", quantity: "2" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "paid", subscription_id: sub.subscription_id });
    const after = await subscription(t, sub.subscription_id);
    expect(after.current_period_end).toBe("2027-06-01T12:00:00.000Z");
    const paid = (await events(t, "order.paid"))[0]!;
    expect(paid.data).toMatchObject({ target_subscription_id: sub.subscription_id, quantity: 2, amount_cents: 9980 });
    const types = (await events(t)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["order.paid", "subscription.updated"]);
    // The next renewal charge is at the new period end, not before.
    const summary = await advanceClock(t, "2027-05-15T12:00:00.000Z");
    expect(summary.renewed).toBe(0);
  });
});
