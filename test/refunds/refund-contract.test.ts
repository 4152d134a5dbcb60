// POST /v1/payments/{id}/refund: every rule of the contract, through HTTP. Each refusal leaves the
// payment exactly as it was.
import { describe, expect, it } from "vitest";
import { createOpenApiValidator } from "../helpers/openapi-validator.ts";
import { advanceClock, CARDS, checkout, events, gatewayEvents, payPix, subscribe, subscription } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { gatewayAccount, oneTimeOffer } from "../orders/order-helpers.ts";
import { paidSubscription, payment, refund } from "./refund-helpers.ts";

const openapi = createOpenApiValidator();
const PATH = "/v1/payments/{payment_id}/refund";
const REASON = "cliente pediu";

async function refusedWith(t: Awaited<ReturnType<typeof newTenant>>, paymentId: string, body: unknown, status: number) {
  const before = await payment(t, paymentId);
  const res = await refund(t, paymentId, body);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(openapi.validateResponse("POST", PATH, status, res.body).errors).toEqual([]);
  expect(await payment(t, paymentId)).toEqual(before);
  return res.body;
}

describe("refund input", () => {
  it("400 when amount_cents is missing or not an integer (floats, strings of floats, text)", async () => {
    const t = await newTenant();
    const { paymentId } = await paidSubscription(t);
    for (const amount of [undefined, null, 10.5, "10.5", "abc", "", [100], { v: 1 }, true]) {
      const body = await refusedWith(t, paymentId, { amount_cents: amount, reason: REASON }, 400);
      expect(body.code).toBe("invalid_body");
    }
  });

  it("422 {level:'error', message} for a missing or oversized reason, an unknown revoke, amounts outside 1..balance", async () => {
    const t = await newTenant();
    const { paymentId } = await paidSubscription(t);
    const cases: unknown[] = [
      { amount_cents: 100 },
      { amount_cents: 100, reason: "   " },
      { amount_cents: 100, reason: "x".repeat(301) },
      { amount_cents: 100, reason: REASON, revoke: "everything" },
      { amount_cents: 0, reason: REASON },
      { amount_cents: -5, reason: REASON },
      { amount_cents: 4991, reason: REASON },
      { amount_cents: 99_999_999_999, reason: REASON },
    ];
    for (const body of cases) {
      const refused = await refusedWith(t, paymentId, body, 422);
      expect(Object.keys(refused).sort()).toEqual(["level", "message"]);
      expect(refused.level).toBe("error");
    }
    // A form-encoded body carries the amount as text: digits are an integer.
    const form = await refund(t, paymentId, { amount_cents: "100", reason: "x".repeat(300), revoke: "none" }, t.writeKey, "form");
    expect(form.status).toBe(200);
    const multipart = await refund(t, paymentId, { amount_cents: "100", reason: REASON, revoke: "none", confirm_runway: "false" }, t.writeKey, "multipart");
    expect(multipart.status).toBe(200);
    expect((await payment(t, paymentId)).refunded_amount_cents).toBe(200);
  });

  it("revoke must fit the payment: grant on a subscription payment, subscription on an order payment, revoking on a partial refund", async () => {
    const t = await newTenant();
    const { paymentId } = await paidSubscription(t);
    expect((await refusedWith(t, paymentId, { amount_cents: 4990, reason: REASON, revoke: "grant" }, 422)).level).toBe("error");
    expect((await refusedWith(t, paymentId, { amount_cents: 100, reason: REASON, revoke: "subscription" }, 422)).message).toMatch(/reembolso total/);
    const order = await checkout(await oneTimeOffer(t));
    const orderPayment = (await events(t, "order.paid"))[0]!.data.payment.payment_id;
    expect(order.status).toBe(201);
    await refusedWith(t, orderPayment, { amount_cents: 1500, reason: REASON, revoke: "subscription" }, 422);
    await refusedWith(t, orderPayment, { amount_cents: 100, reason: REASON, revoke: "grant" }, 422);
  });

  it("404 byte-identical for unknown, malformed and foreign payments; 403 for a read key; allowed when read-only", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const { paymentId } = await paidSubscription(t);
    const body = { amount_cents: 100, reason: REASON, revoke: "none" };
    const foreign = await refund(other, paymentId, body);
    const unknown = await refund(other, "pay_01JABCDEFGHJKMNPQRSTVWXYZ0", body);
    const malformed = await refund(other, "nope", body);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    expect(malformed.text).toBe(unknown.text);
    expect((await refund(t, paymentId, body, t.readKey)).status).toBe(403);
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: t.tenantId });
    const ok = await refund(t, paymentId, body);
    expect(ok.status).toBe(200);
    expect(openapi.validateResponse("POST", PATH, 200, ok.body).errors).toEqual([]);
    expect((await payment(t, paymentId)).refunded_amount_cents).toBe(100);
  });
});

describe("refund refusals by state and gateway", () => {
  it("only a paid payment: a refunded one is refused, and so is a second full refund", async () => {
    const t = await newTenant();
    const { paymentId } = await paidSubscription(t);
    expect((await refund(t, paymentId, { amount_cents: 4990, reason: REASON, revoke: "none" })).status).toBe(200);
    const refused = await refusedWith(t, paymentId, { amount_cents: 1, reason: REASON }, 422);
    expect(refused.message).toMatch(/refunded/);
  });

  it("Pix takes only a total refund", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const paid = await payPix(sub.pix!.copy_paste);
    const refused = await refusedWith(t, paid.id, { amount_cents: 1000, reason: REASON, revoke: "none" }, 422);
    expect(refused.message).toBe("Pix aceita apenas o reembolso total");
    expect((await refund(t, paid.id, { amount_cents: 4990, reason: REASON, revoke: "none" })).status).toBe(200);
  });

  it("a second partial refund is refused on a gateway that does not sum refunds", async () => {
    const t = await newTenant();
    const gwa = await gatewayAccount(t, { sumsPartialRefunds: false });
    const offer = await op(
      `mutation($t: ID!, $p: ID!, $g: String!) { createOffer(tenantId: $t, planId: $p, name: "Pro", interval: MONTH, priceCents: 4990, currency: "brl", gateway: $g, collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
      { t: t.tenantId, p: t.planId, g: gwa },
    );
    const { paymentId } = await paidSubscription(t, CARDS.ok, offer.createOffer.id);
    expect((await refund(t, paymentId, { amount_cents: 1000, reason: REASON })).status).toBe(200);
    const refused = await refusedWith(t, paymentId, { amount_cents: 1000, reason: REASON }, 422);
    expect(refused.message).toMatch(/não soma reembolsos parciais/);
  });

  it("a gateway refusal is a 422 and leaves nothing behind", async () => {
    const t = await newTenant();
    const { subscriptionId, paymentId } = await paidSubscription(t, "4000000000005126");
    const eventsBefore = (await events(t)).length;
    const refused = await refusedWith(t, paymentId, { amount_cents: 4990, reason: REASON }, 422);
    expect(refused).toEqual({ level: "error", message: "o gateway recusou o reembolso (refund_declined)" });
    expect((await subscription(t, subscriptionId)).status).toBe("active");
    expect((await events(t)).length).toBe(eventsBefore);
    expect((await gatewayEvents(t, subscriptionId)).map((e) => `${e.kind}:${e.outcome}`).at(-1)).toBe("refund:declined");
  });
});

describe("runway and refunds in flight", () => {
  it("a refund of an invoice that paid a period not yet started needs confirm_runway", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-06-01T12:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    await advanceClock(t, "2027-06-28T12:00:00.000Z");
    const link = await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey);
    const early = await payPix(link.body.pix.copy_paste); // pays July ahead of time
    const body = { amount_cents: 4990, reason: REASON };
    const confirm = await refusedWith(t, early.id, body, 422);
    expect(confirm).toEqual({ error: expect.any(String), requires_confirmation: "runway" });
    const done = await refund(t, early.id, { ...body, confirm_runway: true });
    expect(done.status).toBe(200);
    expect(done.body.level).toBe("success");
    expect((await subscription(t, sub.subscription_id)).status).toBe("canceled");
  });

  it("a refund whose answer is lost stays refund_in_flight (warning), blocks another, and is finished once", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-06-01T12:00:00.000Z");
    const { subscriptionId, paymentId } = await paidSubscription(t, CARDS.timeout);
    const res = await refund(t, paymentId, { amount_cents: 4990, reason: REASON });
    expect(res.status).toBe(200);
    expect(res.body.level).toBe("warning");
    expect(await payment(t, paymentId)).toMatchObject({ status: "paid", refund_in_flight: true, refunded_amount_cents: 0 });
    const blocked = await refund(t, paymentId, { amount_cents: 4990, reason: REASON });
    expect(blocked.status).toBe(422);
    expect(blocked.body.message).toMatch(/aguardando a confirmação/);
    expect((await subscription(t, subscriptionId)).status).toBe("active");

    const summary = await op(`mutation($t: ID!, $to: DateTime!) { advanceClock(tenantId: $t, to: $to) { refundsSettled } }`, { t: t.tenantId, to: "2027-06-01T12:01:00.000Z" });
    expect(summary.advanceClock.refundsSettled).toBe(1);
    expect(await payment(t, paymentId)).toMatchObject({ status: "refunded", refund_in_flight: false, refunded_amount_cents: 4990, refund_reason: REASON });
    expect((await subscription(t, subscriptionId)).status).toBe("canceled");
    const refunds = (await gatewayEvents(t, subscriptionId)).filter((e) => e.kind === "refund");
    expect(refunds.map((e) => e.outcome)).toEqual(["unknown", "refunded"]); // asked twice, refunded once
    const types = (await events(t)).map((e) => e.type);
    expect(types.filter((x) => x === "payment.refunded")).toHaveLength(1);
  });
});

describe("never twice", () => {
  it("a retried refund with the same Idempotency-Key replays the first answer and refunds once", async () => {
    const t = await newTenant();
    const { subscriptionId, paymentId } = await paidSubscription(t);
    const send = () => post(`/v1/payments/${paymentId}/refund`, t.writeKey, { amount_cents: 700, reason: REASON }, { headers: { "idempotency-key": "refund-1" } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await payment(t, paymentId)).refunded_amount_cents).toBe(700);
    expect((await gatewayEvents(t, subscriptionId)).filter((e) => e.kind === "refund")).toHaveLength(1);
  });

  it("the database itself refuses a second pending refund and more money back than was paid", async () => {
    const t = await newTenant();
    const { paymentId } = await paidSubscription(t);
    const { runtime } = await testService();
    const prisma = runtime.db.prisma;
    const row = (n: number) => ({
      id: `rf_TEST${n}${Math.random().toString(36).slice(2, 12)}`,
      tenantId: t.tenantId,
      paymentId,
      amountCents: 100,
      reason: "x",
      revoke: "none",
      status: "PENDING" as const,
      sequence: n,
      idempotencyKey: `${paymentId}:test:${n}`,
    });
    await prisma.refund.create({ data: row(1) });
    await expect(prisma.refund.create({ data: row(2) })).rejects.toThrow();
    await expect(prisma.payment.update({ where: { id: paymentId }, data: { refundedAmountCents: 4991 } })).rejects.toThrow();
    await expect(prisma.refund.create({ data: { ...row(3), status: "SUCCEEDED", amountCents: 0 } })).rejects.toThrow();
    await prisma.refund.deleteMany({ where: { paymentId } });
  });
});
