// /pay shows the checkout's order summary, and its figures are what then happens: "Cobrado hoje" is what
// paying the link charges, "Próxima cobrança" the date and amount the billing run charges next.
import { describe, expect, it } from "vitest";
import { formatDay, formatMoney } from "../../core/shared/format-money.ts";
import { advanceClock, CARDS, makeOffer, subscribe, subscription } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { approvedCharges, money, nextCharge, summaryRows } from "./summary-helpers.ts";

const START = "2027-03-10T10:00:00.000Z";
const prisma = async () => (await testService()).runtime.db.prisma;

const coupon = (t: TestTenant, code: string, cycles: number) =>
  op(`mutation($t: ID!, $c: String!, $n: Int) { createCoupon(tenantId: $t, code: $c, percentOff: 10, cycles: $n) { id } }`, { t: t.tenantId, c: code, n: cycles });

/** The page's summary: what it charges now and what it announces next. */
async function shown(token: string) {
  const page = await payPage(token);
  expect(page.status).toBe(200);
  expect(page.text).toContain('aria-labelledby="order-summary"');
  expect(page.text).toMatch(/Renova automaticamente até você cancelar, a cada mês\./);
  const rows = summaryRows(page.text);
  return { rows, today: money(rows["Cobrado hoje"]!), next: nextCharge(rows["Próxima cobrança"]!), text: page.text };
}

/** A minute before the announced date nothing more is charged; at it, the announced amount. */
async function expectNextCharge(t: TestTenant, id: string, at: string, cents: number) {
  const before = (await approvedCharges(t, id)).length;
  await advanceClock(t, new Date(new Date(at).getTime() - 60_000).toISOString());
  expect((await approvedCharges(t, id)).length).toBe(before);
  await advanceClock(t, at);
  const after = await approvedCharges(t, id);
  expect(after.length).toBe(before + 1);
  expect(after.at(-1)).toBe(cents);
}

describe("/pay order summary: the page's figures are what is charged", () => {
  it("a renewal link: today the link's price, next the coupon's next cycle at the renewed period's end", async () => {
    const t = await newTenant();
    await coupon(t, "BEMVINDO10", 3);
    await advanceClock(t, START);
    const { subscription_id: id } = await subscribe(t.monthlyOfferId, { coupon: "BEMVINDO10" });
    const token = tokenOf((await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey)).body.url);

    const s = await shown(token);
    expect(s.text).toContain("Renove sua assinatura");
    expect(s.rows["Cupom BEMVINDO10"]).toBe(`10% de desconto nas próximas 2 cobranças: ${formatMoney(4491)} /mês`);
    expect([s.today, s.next.cents, s.next.day]).toEqual([4491, 4491, formatDay("2027-05-10T10:00:00.000Z")]);

    const paid = await payJson(token, { method: "card", ...CARD(CARDS.ok) });
    expect(paid.body.status).toBe("paid");
    const payment = await (await prisma()).payment.findFirstOrThrow({ where: { tenantId: t.tenantId, orderId: { not: null }, status: "PAID" } });
    expect(payment.amountCents).toBe(s.today);
    const sub = await subscription(t, id);
    expect(formatDay(sub.current_period_end)).toBe(s.next.day);
    expect(sub.next_charge_amount_cents).toBe(s.next.cents);
    await expectNextCharge(t, id, sub.current_period_end, s.next.cents);
  }, 120_000);

  it("a card change: nothing today, the next renewal with the coupon's last cycle", async () => {
    const t = await newTenant();
    await coupon(t, "DOIS", 2);
    await advanceClock(t, START);
    const { subscription_id: id } = await subscribe(t.monthlyOfferId, { coupon: "DOIS" });
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    const s = await shown(token);
    expect(s.text).toContain("Atualize seu cartão");
    expect(s.rows["Cupom DOIS"]).toBe(`10% de desconto na próxima cobrança: ${formatMoney(4491)} /mês`);
    expect([s.today, s.next.cents, s.next.day]).toEqual([0, 4491, formatDay("2027-04-10T10:00:00.000Z")]);
    const saved = await payJson(token, CARD("5555555555554444"));
    expect(saved.body.status).toBe("card_updated");
    expect(await approvedCharges(t, id)).toEqual([4491]);
    await expectNextCharge(t, id, "2027-04-10T10:00:00.000Z", s.next.cents);
  }, 120_000);

  it("an open invoice: today its amount, which spends the coupon's last cycle, so the next charge is the full price", async () => {
    const t = await newTenant();
    await coupon(t, "DOIS", 2);
    const offerId = await makeOffer(t, { methods: ["CARD_AUTO"] });
    await advanceClock(t, START);
    const { subscription_id: id } = await subscribe(offerId, { coupon: "DOIS", card_number: CARDS.laterDeclines });
    await advanceClock(t, "2027-04-10T10:00:00.000Z");
    expect((await subscription(t, id)).status).toBe("past_due");
    const token = tokenOf((await get(`/v1/subscriptions/${id}/payment-link`, t.readKey)).body.url);
    const s = await shown(token);
    expect(s.text).toContain("Pague sua fatura em aberto");
    expect([s.today, s.next.cents, s.next.day]).toEqual([4491, 4990, formatDay("2027-05-10T10:00:00.000Z")]);

    const paid = await payJson(token, CARD(CARDS.ok));
    expect(paid.body).toMatchObject({ status: "paid", subscription_status: "active" });
    expect((await approvedCharges(t, id)).at(-1)).toBe(s.today);
    const sub = await subscription(t, id);
    expect(formatDay(sub.current_period_end)).toBe(s.next.day);
    expect(sub.next_charge_amount_cents).toBe(s.next.cents);
    await expectNextCharge(t, id, sub.current_period_end, s.next.cents);
  }, 120_000);
});
