// Bad input on the hosted pages that the other files leave out: a coupon of another seller, and a /pay
// link of a suspended seller. Each answers a clear page or field message and charges nothing. (Unknown,
// exhausted and expired coupons, a coupon on a one-time offer, an offer off sale and a suspended seller's
// checkout: order-summary.test.ts; expired and used links: test/links/pay-links.test.ts; a LIVE seller
// without legal name and CNPJ: seller-profile.test.ts.)
import { describe, expect, it } from "vitest";
import { COUPON_UNUSABLE } from "../../core/checkout/refusal-texts.ts";
import { formatMoney } from "../../core/shared/format-money.ts";
import { CARDS, CPF, subscribe } from "../helpers/billing.ts";
import { call, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { summaryRows } from "./summary-helpers.ts";

const FORM = { name: "Maria Silva", email: "maria@example.com", phone: "11987654321", doc: CPF, method: "card", ...CARD(CARDS.ok) };
const prisma = async () => (await testService()).runtime.db.prisma;

describe("bad input on the hosted pages", () => {
  it("a coupon of another seller reads as unknown: the generic message, no discount, nothing charged", async () => {
    const owner = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "SODELES", percentOff: 50, cycles: 1) { id } }`, { t: owner.tenantId });
    const t = await newTenant();
    const applied = await call("POST", `/checkout/${t.monthlyOfferId}`, { body: { apply: "coupon", coupon: "SODELES" }, as: "form" });
    expect(applied.status).toBe(422);
    expect(applied.text).toContain(COUPON_UNUSABLE);
    expect(summaryRows(applied.text)["Cobrado hoje"]).toBe(formatMoney(4990));
    const paid = await call("POST", `/checkout/${t.monthlyOfferId}`, { body: { ...FORM, coupon: "SODELES" }, as: "form" });
    expect(paid.status).toBe(422);
    expect(paid.text).toContain(COUPON_UNUSABLE);
    const db = await prisma();
    expect(await db.payment.count({ where: { tenantId: t.tenantId } })).toBe(0);
    expect(await db.coupon.findFirstOrThrow({ where: { tenantId: owner.tenantId } })).toMatchObject({ redeemedCount: 0 });
  });

  it("a /pay link of a suspended seller: a clear page, and paying it charges nothing", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey)).body.url);
    expect((await payPage(token)).status).toBe(200);
    await op(`mutation($t: ID!) { setTenantSuspended(tenantId: $t, suspended: true) { id } }`, { t: t.tenantId });
    const page = await payPage(token);
    expect(page.status).toBe(404);
    expect(page.text).toContain("Link não encontrado");
    expect(page.text).not.toContain("<form");
    const { baseUrl } = await testService();
    const form = await call("POST", `/pay/${token}`, { body: { method: "card", ...CARD(CARDS.ok) }, as: "form", headers: { origin: new URL(baseUrl).origin, accept: "text/html" } });
    expect(form.status).toBe(404);
    expect(form.text).toContain("Link não encontrado");
    expect((await payJson(token, { method: "card", ...CARD(CARDS.ok) })).status).toBe(404);
    const db = await prisma();
    expect(await db.payment.count({ where: { tenantId: t.tenantId, orderId: { not: null } } })).toBe(0);
    // Lifted, the same link pays again.
    await op(`mutation($t: ID!) { setTenantSuspended(tenantId: $t, suspended: false) { id } }`, { t: t.tenantId });
    expect((await payPage(token)).status).toBe(200);
  });
});
