// Card-testing and coupon oracles on the hosted pages: every card decline reads
// the same ("pagamento não aprovado; verifique os dados ou use outro cartão"), on the checkout and on
// /pay, as a page and in JSON; every unusable coupon (unknown, inactive, expired, exhausted, not
// applicable) reads "cupom inválido ou indisponível". The precise decline code stays in the gateway
// event rows. Applies to every tenant, SANDBOX included.
import { describe, expect, it } from "vitest";
import { advanceClock, CARDS, makeOffer, subscribe, subscription } from "../helpers/billing.ts";
import { get, op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { CARD, tokenOf } from "../links/pay-helpers.ts";
import { checkoutForm, postFrom } from "./hosted-client.ts";

const DECLINED = "pagamento não aprovado; verifique os dados ou use outro cartão";
const UNUSABLE_COUPON = "cupom inválido ou indisponível";
const FROM = "127.0.0.1";

async function coupon(t: TestTenant, code: string, maxRedemptions: number | null = null) {
  await op(`mutation($t: ID!, $c: String!, $m: Int) { createCoupon(tenantId: $t, code: $c, percentOff: 10, maxRedemptions: $m) { id } }`, { t: t.tenantId, c: code, m: maxRedemptions });
}

describe("card declines", () => {
  it("read the same on the checkout for card_declined and insufficient_funds, in JSON and as a page; the gateway event rows keep the code", async () => {
    const t = await newTenant();
    const form = checkoutForm();
    const json = async (card: string) => (await postFrom(FROM, `/checkout/${t.monthlyOfferId}`, { ...form, card_number: card }, { json: true })).json();
    const page = async (card: string) => {
      const r = await postFrom(FROM, `/checkout/${t.monthlyOfferId}`, { ...form, card_number: card });
      return { status: r.status, text: r.text };
    };
    expect(await json(CARDS.declined)).toEqual({ error: DECLINED, field: "card_number" });
    expect(await json(CARDS.insufficient)).toEqual({ error: DECLINED, field: "card_number" });
    const declinedPage = await page(CARDS.declined);
    expect(declinedPage.status).toBe(422);
    expect(declinedPage.text).toContain(DECLINED);
    // Same form, two different declines: byte-identical pages.
    expect(await page(CARDS.insufficient)).toEqual(declinedPage);

    const { runtime } = await testService();
    const codes = await runtime.db.prisma.gatewayEvent.findMany({ where: { tenantId: t.tenantId, outcome: "declined" }, select: { detailCode: true } });
    expect(new Set(codes.map((c) => c.detailCode))).toEqual(new Set(["card_declined", "insufficient_funds"]));
  });

  it("read the same on /pay/{token} (an open invoice) for card_declined and insufficient_funds, in JSON and as a page", async () => {
    const t = await newTenant();
    const offerId = await makeOffer(t, { methods: ["CARD_AUTO"] });
    const { subscription_id: id } = await subscribe(offerId, { card_number: CARDS.laterDeclines });
    await advanceClock(t, (await subscription(t, id)).current_period_end);
    expect((await subscription(t, id)).status).toBe("past_due");
    const token = tokenOf((await get(`/v1/subscriptions/${id}/payment-link`, t.readKey)).body.url);
    const json = async (card: string) => (await postFrom(FROM, `/pay/${token}`, CARD(card), { json: true })).json();
    expect(await json(CARDS.declined)).toMatchObject({ error: DECLINED, field: "card_number" });
    expect(await json(CARDS.insufficient)).toEqual(await json(CARDS.declined));
    const page = async (card: string) => {
      const r = await postFrom(FROM, `/pay/${token}`, CARD(card));
      return { status: r.status, text: r.text };
    };
    const declinedPage = await page(CARDS.declined);
    expect(declinedPage.status).toBe(422);
    expect(declinedPage.text).toContain(DECLINED);
    expect(await page(CARDS.insufficient)).toEqual(declinedPage);
  });
});

describe("unusable coupons", () => {
  it("unknown, exhausted, inactive, expired and not-applicable coupons all answer the same (Pix checkouts, JSON and page)", async () => {
    const t = await newTenant();
    const { runtime } = await testService();
    await coupon(t, "ESGOTADO", 1);
    await subscribe(t.monthlyOfferId, { coupon: "ESGOTADO" }, { pix: true });
    await coupon(t, "INATIVO");
    await coupon(t, "VENCIDO");
    await runtime.db.prisma.coupon.updateMany({ where: { tenantId: t.tenantId, code: "INATIVO" }, data: { active: false } });
    await runtime.db.prisma.coupon.updateMany({ where: { tenantId: t.tenantId, code: "VENCIDO" }, data: { expiresAt: new Date("2001-01-01T00:00:00Z") } });
    const oneTime = (
      await op(
        `mutation($t: ID!, $p: ID!) { createOneTimeOffer(tenantId: $t, planId: $p, name: "Avulso", unitPriceCents: 990, currency: "BRL", gateway: "sandbox", grantDays: 30) { id } }`,
        { t: t.tenantId, p: t.planId },
      )
    ).createOneTimeOffer.id as string;
    await coupon(t, "VALIDO");

    const form = checkoutForm({}, "pix");
    const answers: Record<string, unknown> = {};
    const pages: Record<string, string> = {};
    for (const [label, offer, code] of [
      ["unknown", t.monthlyOfferId, "NAOEXISTE"],
      ["exhausted", t.monthlyOfferId, "ESGOTADO"],
      ["inactive", t.monthlyOfferId, "INATIVO"],
      ["expired", t.monthlyOfferId, "VENCIDO"],
      ["not applicable", oneTime, "VALIDO"],
    ] as const) {
      const r = await postFrom(FROM, `/checkout/${offer}`, { ...form, coupon: code }, { json: true });
      answers[label] = { status: r.status, body: r.json() };
      if (offer === t.monthlyOfferId) {
        // The page writes the typed code back into the form; apart from it, the pages are identical.
        pages[label] = (await postFrom(FROM, `/checkout/${offer}`, { ...form, coupon: code })).text.replaceAll(code, "<code>");
      }
    }
    const expected = { status: 422, body: { error: UNUSABLE_COUPON, field: "coupon" } };
    expect(answers).toEqual({ unknown: expected, exhausted: expected, inactive: expected, expired: expected, "not applicable": expected });
    expect(new Set(Object.values(pages)).size).toBe(1);
    expect(pages.unknown).toContain(UNUSABLE_COUPON);
    // Nothing was written by the refusals: the only subscription is the one that used up ESGOTADO.
    expect(await runtime.db.prisma.subscription.count({ where: { tenantId: t.tenantId } })).toBe(1);
  });
});
