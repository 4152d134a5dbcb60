// The adapter contract: refunds and disputes, written once for every provider's driver. Refunds go
// through POST /v1/payments/{id}/refund; at the provider each is made under our refund's key. Every
// provider sums partial refunds of a card; a Pix is refunded in full only. A dispute is a chargeback:
// the subscription ends and access is revoked, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayEvents } from "../../helpers/billing.ts";
import { get, post } from "../../helpers/http.ts";
import { testService } from "../../helpers/service.ts";
import { eventsOf, expectResult, paymentsOf, subscribeWith, subscriptionOf } from "./driver.ts";
import { DRIVERS } from "./drivers/index.ts";

const refundsOfOurs = async (paymentId: string) =>
  (await testService()).runtime.db.prisma.refund.findMany({ where: { paymentId }, orderBy: { id: "asc" } });

describe.each(DRIVERS)("$name: refunds and disputes", (d) => {
  beforeAll(() => d.start());
  afterAll(() => d.stop());

  it("card: two partial refunds add up, then the rest, total, cancels the subscription; past the balance nothing more", async () => {
    const s = await subscribeWith(d, "card");
    const [payment] = await paymentsOf(s.subscriptionId);
    const refund = (amount_cents: number, extra: Record<string, string> = {}) => post(`/v1/payments/${payment!.id}/refund`, s.t.writeKey, { amount_cents, reason: "pedido do cliente", ...extra });
    expect((await refund(1000, { revoke: "none" })).status).toBeLessThan(300);
    expect((await refund(500, { revoke: "none" })).status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "paid", refunded_amount_cents: 1500, refund_in_flight: false });
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("active");

    // The rest, with the default revoke: total, the subscription ends.
    expect((await refund(3490)).status).toBeLessThan(300);
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990, refund_in_flight: false });
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("canceled");
    expect(await eventsOf(s, s.subscriptionId)).toEqual([
      "subscription.activated:active",
      "invoice.paid:active",
      "payment.refunded:active",
      "payment.refunded:active",
      "payment.refunded:canceled",
      "subscription.canceled:canceled",
    ]);
    // At the provider: one refund per refund of ours, each of its amount and under its key.
    const ours = await refundsOfOurs(payment!.id);
    expect(await d.refundsOf(payment!.gatewayChargeId)).toEqual(ours.map((o) => ({ amount: o.amountCents, key: o.idempotencyKey })));
    expect((await d.side(payment!.idempotencyKey)).refunded).toBe(4990);
    await d.hooks?.refunded?.(s, payment!);
    // Past the balance: refused, nothing more asked of the provider.
    expect((await refund(1)).status).toBe(422);
    expect(await d.refundsOf(payment!.gatewayChargeId)).toHaveLength(3);
  });

  it("Pix: a partial refund is refused before the provider is asked; the total one is made under our key", async () => {
    const s = await subscribeWith(d, "pix");
    expectResult(await (await d.payPix(s, s.answer.pix.copy_paste)).deliver(), "applied");
    const [pix] = await paymentsOf(s.subscriptionId);
    const partial = await post(`/v1/payments/${pix!.id}/refund`, s.t.writeKey, { amount_cents: 1000, reason: "parcial", revoke: "none" });
    expect(partial.status).toBe(422);
    expect(JSON.stringify(partial.body)).toMatch(/Pix aceita apenas o reembolso total/);
    expect(await d.refundsOf(pix!.gatewayChargeId)).toEqual([]);

    expect((await post(`/v1/payments/${pix!.id}/refund`, s.t.writeKey, { amount_cents: 4990, reason: "total" })).status).toBeLessThan(300);
    const [ours] = await refundsOfOurs(pix!.id);
    expect(await d.refundsOf(pix!.gatewayChargeId)).toEqual([{ amount: 4990, key: ours!.idempotencyKey }]);
    expect((await get(`/v1/payments/${pix!.id}`, s.t.readKey)).body).toMatchObject({ status: "refunded", refunded_amount_cents: 4990 });
  });

  it("a dispute: the payment is charged back, the subscription ends and access is revoked; told again, nothing more", async () => {
    const s = await subscribeWith(d, "card");
    const [payment] = await paymentsOf(s.subscriptionId);
    const sub = await subscriptionOf(s, s.subscriptionId);
    const entitlements = async () => (await get(`/v1/entitlements?external_id=${encodeURIComponent(sub.customer.external_id)}`, s.t.readKey)).body.merged_entitlements;
    expect(await entitlements()).toEqual({ seats: 5, reports: true });

    const dispute = await d.dispute(s, payment!);
    expectResult(await dispute.deliver(), "applied");
    expect((await get(`/v1/payments/${payment!.id}`, s.t.readKey)).body.status).toBe("chargedback");
    expect((await subscriptionOf(s, s.subscriptionId)).status).toBe("canceled");
    expect(await entitlements()).toEqual({});
    expect((await gatewayEvents(s.t, s.subscriptionId)).map((e) => e.kind)).toContain("chargeback");
    const events = await eventsOf(s, s.subscriptionId);
    expect(events.slice(-1)).toEqual(["subscription.canceled:canceled"]);
    expectResult(await dispute.deliver(), "duplicate");
    expect(await eventsOf(s, s.subscriptionId)).toEqual(events);
  });
});
