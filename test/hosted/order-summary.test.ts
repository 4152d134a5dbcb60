// The hosted checkout's order summary over HTTP: its figures are what the sandbox then charges (today
// and at the next charge), and "Aplicar" recomputes them with a coupon, or refuses the coupon, without
// charging anything.
import { describe, expect, it } from "vitest";
import { formatDay, formatMoney } from "../../core/shared/format-money.ts";
import { COUPON_UNUSABLE } from "../../core/checkout/refusal-texts.ts";
import { advanceClock, CPF, makeOffer, subscribe } from "../helpers/billing.ts";
import { call, op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { oneTimeOffer } from "../orders/order-helpers.ts";
import { approvedCharges, money, nextCharge, summaryRows } from "./summary-helpers.ts";

const START = "2027-03-10T10:00:00.000Z";
const CARD = { card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" };
const FORM = { name: "Maria Silva", email: "maria@example.com", phone: "11987654321", doc: CPF, method: "card", ...CARD };

const prisma = async () => (await testService()).runtime.db.prisma;

const coupon = (t: TestTenant, code = "BEMVINDO10", extra = "") =>
  op(`mutation($t: ID!, $c: String!) { createCoupon(tenantId: $t, code: $c, percentOff: 10, cycles: 3${extra}) { id } }`, { t: t.tenantId, c: code });

describe("order summary: the page's figures are what is charged", () => {
  const cases: { name: string; offer: (t: TestTenant) => Promise<string>; coupon?: string; today: number; next: number; nextAt: string; rows: Record<string, string> }[] = [
    { name: "no coupon", offer: async (t) => t.monthlyOfferId, today: 4990, next: 4990, nextAt: "2027-04-10T10:00:00.000Z", rows: {} },
    {
      name: "BEMVINDO10 (10% for 3 cycles)",
      offer: async (t) => t.monthlyOfferId,
      coupon: "BEMVINDO10",
      today: 4491,
      next: 4491,
      nextAt: "2027-04-10T10:00:00.000Z",
      rows: { "Cupom BEMVINDO10": `10% de desconto nas 3 primeiras cobranças: ${formatMoney(4491)} /mês` },
    },
    {
      name: "a 7-day trial",
      offer: (t) => makeOffer(t, { trialDays: 7 }),
      today: 0,
      next: 4990,
      nextAt: "2027-03-17T10:00:00.000Z",
      rows: { "Teste grátis": `Grátis até ${formatDay("2027-03-17T10:00:00.000Z")}; depois, ${formatMoney(4990)}` },
    },
    { name: "a yearly offer", offer: async (t) => t.yearlyOfferId, today: 49900, next: 49900, nextAt: "2028-03-10T10:00:00.000Z", rows: {} },
  ];

  for (const c of cases) {
    it(`${c.name}: today and the next charge on the page equal the sandbox's charges`, async () => {
      const t = await newTenant();
      await coupon(t);
      const offerId = await c.offer(t);
      await advanceClock(t, START);
      const page = await call("GET", `/checkout/${offerId}${c.coupon ? `?coupon=${c.coupon}` : ""}`);
      expect(page.status).toBe(200);
      const rows = summaryRows(page.text);
      expect(rows).toMatchObject(c.rows);
      expect(page.text).toMatch(/Renova automaticamente até você cancelar, a cada (mês|ano)\./);
      const shownToday = money(rows["Cobrado hoje"]!);
      const shownNext = nextCharge(rows["Próxima cobrança"]!);
      expect([shownToday, shownNext.cents, shownNext.day]).toEqual([c.today, c.next, formatDay(c.nextAt)]);

      const sub = await subscribe(offerId, c.coupon ? { coupon: c.coupon } : {});
      // Charged today: what the page said (nothing in a trial).
      expect(await approvedCharges(t, sub.subscription_id)).toEqual(shownToday > 0 ? [shownToday] : []);
      // One minute before the date shown nothing more is charged; at it, the amount shown.
      await advanceClock(t, new Date(new Date(c.nextAt).getTime() - 60_000).toISOString());
      expect((await approvedCharges(t, sub.subscription_id)).length).toBe(shownToday > 0 ? 1 : 0);
      await advanceClock(t, c.nextAt);
      expect((await approvedCharges(t, sub.subscription_id)).at(-1)).toBe(shownNext.cents);
    }, 90_000);
  }
});

describe("order summary after checkout", () => {
  it("the Pix page shows the amount to pay, the coupon and the next charge from the same quote", async () => {
    const t = await newTenant();
    await coupon(t);
    await advanceClock(t, START);
    const r = await call("POST", `/checkout/${t.monthlyOfferId}`, { body: { ...FORM, method: "pix", coupon: "BEMVINDO10" }, as: "form" });
    expect(r.status).toBe(201);
    const rows = summaryRows(r.text);
    expect(rows["Cobrado hoje"]).toBe(formatMoney(4491));
    expect(rows["Cupom BEMVINDO10"]).toContain("nas 3 primeiras cobranças");
    expect(rows["Próxima cobrança"]).toBe(`${formatMoney(4491)} em ${formatDay("2027-04-10T10:00:00.000Z")}`);
    const payment = await (await prisma()).payment.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(payment.amountCents).toBe(4491);
  }, 120_000);

  it("a trial's result page: nothing charged today, the card kept for the charge after the trial", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { trialDays: 7 });
    await advanceClock(t, START);
    const r = await call("POST", `/checkout/${offerId}`, { body: FORM, as: "form" });
    expect(r.status).toBe(201);
    expect(r.text).toContain("Nada foi cobrado hoje; o cartão");
    expect(r.text).toContain(`Próxima cobrança: ${formatMoney(4990)} em ${formatDay("2027-03-17T10:00:00.000Z")}.`);
    expect(r.text).toContain("maria@example.com");
  }, 120_000);
});

describe("coupon before paying (Aplicar, no JavaScript)", () => {
  const apply = (offerId: string, body: Record<string, string>) => call("POST", `/checkout/${offerId}`, { body: { apply: "coupon", ...body }, as: "form" });
  const subscriptions = async (t: TestTenant) => (await prisma()).subscription.count({ where: { tenantId: t.tenantId } });
  const intents = async (t: TestTenant) => (await prisma()).checkoutChargeIntent.count({ where: { tenantId: t.tenantId } });

  it("applies a coupon: the summary is recomputed, the pay form carries it, the prefilled values stay and nothing is charged", async () => {
    const t = await newTenant();
    await coupon(t);
    const r = await apply(t.monthlyOfferId, { coupon: "BEMVINDO10", email: "maria@example.com", name: "Maria Silva" });
    expect(r.status).toBe(200);
    const rows = summaryRows(r.text);
    expect(rows["Cupom BEMVINDO10"]).toBe(`10% de desconto nas 3 primeiras cobranças: ${formatMoney(4491)} /mês`);
    expect(rows["Cobrado hoje"]).toBe(formatMoney(4491));
    expect(r.text).toContain('<input type="hidden" name="coupon" value="BEMVINDO10"/>');
    expect(r.text).toContain('value="maria@example.com"');
    expect(r.text).not.toContain('name="apply" value="coupon"/><input type="hidden" name="apply"');
    expect(await subscriptions(t)).toBe(0);
    const row = await (await prisma()).coupon.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(row.redeemedCount).toBe(0);

    // Paying with the applied coupon charges the figure shown.
    const paid = await call("POST", `/checkout/${t.monthlyOfferId}`, { body: { ...FORM, coupon: "BEMVINDO10" }, as: "form" });
    expect(paid.status).toBe(201);
    const sub = await (await prisma()).subscription.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(await approvedCharges(t, sub.id)).toEqual([4491]);
    expect(paid.text).toContain(`Cobrado hoje: ${formatMoney(4491)} no cartão`);
    expect(paid.text).toContain("final 4242");
    expect(paid.text).toContain("O recibo foi enviado para maria@example.com.");
    expect(paid.text).toContain("Para cancelar,");
  });

  const refused = async (t: TestTenant, offerId: string, code: string) => {
    const r = await apply(offerId, { coupon: code });
    expect(r.status).toBe(422);
    expect(r.text).toContain(COUPON_UNUSABLE);
    expect(r.text).not.toContain('<input type="hidden" name="coupon"');
    // Paying with it is refused the same way, and nothing is charged or recorded.
    const paid = await call("POST", `/checkout/${offerId}`, { body: { ...FORM, coupon: code }, as: "form" });
    expect(paid.status).toBe(422);
    expect(paid.text).toContain(COUPON_UNUSABLE);
    expect(await subscriptions(t)).toBe(0);
    expect(await intents(t)).toBe(0);
    return r;
  };

  it("an unknown coupon: the one generic message under the field, the summary without discount", async () => {
    const t = await newTenant();
    const r = await refused(t, t.monthlyOfferId, "NAOEXISTE");
    expect(r.text).toMatch(/aria-invalid="true" aria-describedby="e-coupon"/);
    expect(summaryRows(r.text)["Cobrado hoje"]).toBe(formatMoney(4990));
  });

  it("an exhausted coupon and an expired one read the same", async () => {
    const t = await newTenant();
    await coupon(t, "ULTIMO", ", maxRedemptions: 1");
    await subscribe(t.yearlyOfferId, { coupon: "ULTIMO" });
    await coupon(t, "VENCIDO");
    await (await prisma()).coupon.updateMany({ where: { tenantId: t.tenantId, code: "VENCIDO" }, data: { expiresAt: new Date("2020-01-01T00:00:00Z") } });
    const before = await (await prisma()).subscription.count({ where: { tenantId: t.tenantId } });
    for (const code of ["ULTIMO", "VENCIDO"]) {
      const r = await apply(t.monthlyOfferId, { coupon: code });
      expect(r.status).toBe(422);
      expect(r.text).toContain(COUPON_UNUSABLE);
      const paid = await call("POST", `/checkout/${t.monthlyOfferId}`, { body: { ...FORM, email: `${code}@example.com`, coupon: code }, as: "form" });
      expect(paid.status).toBe(422);
    }
    expect(await (await prisma()).subscription.count({ where: { tenantId: t.tenantId } })).toBe(before);
  });

  it("a coupon on an offer it does not apply to (a one-time purchase): the message in the banner, nothing charged", async () => {
    const t = await newTenant();
    await coupon(t);
    const offerId = await oneTimeOffer(t);
    const r = await call("POST", `/checkout/${offerId}`, { body: { ...FORM, coupon: "BEMVINDO10" }, as: "form" });
    expect(r.status).toBe(422);
    expect(r.text).toMatch(new RegExp(`<p class="alert" role="alert">${COUPON_UNUSABLE}</p>`));
    expect(await (await prisma()).order.count({ where: { tenantId: t.tenantId } })).toBe(0);
    expect(await intents(t)).toBe(0);
  });

  it("an offer no longer on sale and a suspended tenant: a clear page, nothing charged", async () => {
    const t = await newTenant();
    await coupon(t);
    await (await prisma()).offer.update({ where: { id: t.yearlyOfferId }, data: { active: false } });
    await op(`mutation($t: ID!) { setTenantSuspended(tenantId: $t, suspended: true) { id } }`, { t: t.tenantId }).catch(() => null);
    const other = await newTenant();
    await (await prisma()).tenant.update({ where: { id: other.tenantId }, data: { suspended: true } });
    for (const offerId of [t.yearlyOfferId, other.monthlyOfferId]) {
      for (const r of [await call("GET", `/checkout/${offerId}?coupon=BEMVINDO10`), await apply(offerId, { coupon: "BEMVINDO10" }), await call("POST", `/checkout/${offerId}`, { body: FORM, as: "form" })]) {
        expect(r.status).toBe(404);
        expect(r.text).toContain("Oferta não encontrada");
      }
    }
    expect(await (await prisma()).subscription.count({ where: { tenantId: { in: [t.tenantId, other.tenantId] } } })).toBe(0);
  });
});
