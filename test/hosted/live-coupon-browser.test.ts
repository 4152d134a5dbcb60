// "Aplicar" with JavaScript in Chromium: our own /checkout/coupon.js posts the coupon form and swaps the
// order summary in place: no navigation, the typed fields stay, the pay form carries the coupon shown, and
// a bad coupon shows the one generic message. (Without JavaScript: order-summary-browser.test.ts.)
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { COUPON_UNUSABLE } from "../../core/checkout/refusal-texts.ts";
import { formatMoney } from "../../core/shared/format-money.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";

describe.skipIf(!hasChromium)("live coupon (JavaScript on)", () => {
  const browser = useBrowser();
  const row = (page: Page, term: string) => page.locator(".sum-row", { hasText: term }).locator("dd").textContent();
  const payFormCoupon = (page: Page) => page.evaluate(() => document.querySelector<HTMLInputElement>('#pay-form input[type="hidden"][name="coupon"]')?.value ?? null);

  async function open(t: TestTenant) {
    const { baseUrl } = await testService();
    const context = await browser().newContext({ viewport: { width: 360, height: 800 }, isMobile: true, locale: "pt-BR" });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}`);
    // Every top-frame navigation after this point; "Aplicar" must cause none.
    const navigations: string[] = [];
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    return { context, page, navigations, problems };
  }

  const stayed = (page: Page) => page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true);

  it("applies a coupon without reloading, keeps what was typed, and the payment charges the figure shown", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "BEMVINDO10", percentOff: 10, cycles: 3) { id } }`, { t: t.tenantId });
    const { context, page, navigations, problems } = await open(t);
    await page.fill('[name="name"]', "Maria Silva");
    await page.fill('[name="email"]', "maria@example.com");
    expect(await row(page, "Cobrado hoje")).toBe(formatMoney(4990));

    await page.fill('section[aria-labelledby="order-summary"] [name="coupon"]', "BEMVINDO10");
    await page.click('button:has-text("Aplicar")');
    await page.locator(".sum-row", { hasText: "Cupom BEMVINDO10" }).waitFor();
    expect(await row(page, "Cupom BEMVINDO10")).toBe(`10% de desconto nas 3 primeiras cobranças: ${formatMoney(4491)} /mês`);
    expect(await row(page, "Cobrado hoje")).toBe(formatMoney(4491));
    expect(navigations).toEqual([]);
    expect(await stayed(page)).toBe(true);
    expect(await page.inputValue('[name="name"]')).toBe("Maria Silva");
    expect(await page.inputValue('[name="email"]')).toBe("maria@example.com");
    expect(await payFormCoupon(page)).toBe("BEMVINDO10");
    // Focus stays on the coupon field (the one that was replaced), for keyboard and screen reader users.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("coupon");
    const { runtime } = await testService();
    expect(await runtime.db.prisma.subscription.count({ where: { tenantId: t.tenantId } })).toBe(0);

    for (const [name, value] of Object.entries({ phone: "11987654321", doc: "529.982.247-25", card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" })) {
      await page.fill(`[name="${name}"]`, value);
    }
    await page.check('[name="method"][value="card"]');
    await submitAndLoad(page, () => page.click('button:has-text("Assinar")'));
    expect(await page.textContent("h1")).toBe("Assinatura ativa");
    expect(await page.textContent("main")).toContain(`Cobrado hoje: ${formatMoney(4491)} no cartão`);
    const payment = await runtime.db.prisma.payment.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(payment.amountCents).toBe(4491);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it("a bad coupon: the one generic message under the field, the summary and the pay form without a discount, no navigation", async () => {
    const t = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "BEMVINDO10", percentOff: 10, cycles: 3) { id } }`, { t: t.tenantId });
    const { context, page, navigations, problems } = await open(t);
    const field = 'section[aria-labelledby="order-summary"] [name="coupon"]';
    await page.fill(field, "BEMVINDO10");
    await page.click('button:has-text("Aplicar")');
    await page.locator(".sum-row", { hasText: "Cupom BEMVINDO10" }).waitFor();
    expect(await payFormCoupon(page)).toBe("BEMVINDO10");

    await page.fill(field, "NAOEXISTE");
    await page.click('button:has-text("Aplicar")');
    await page.getByText(COUPON_UNUSABLE).waitFor();
    expect(await page.getAttribute(field, "aria-invalid")).toBe("true");
    expect(await page.inputValue(field)).toBe("NAOEXISTE");
    expect(await page.locator(".sum-row", { hasText: "Cupom" }).count()).toBe(0);
    expect(await row(page, "Cobrado hoje")).toBe(formatMoney(4990));
    // The pay form no longer carries the coupon the summary stopped showing.
    expect(await payFormCoupon(page)).toBeNull();
    expect(navigations).toEqual([]);
    expect(await stayed(page)).toBe(true);
    // The browser logs the 422 answer as a failed resource; nothing else (no CSP refusal, no script error).
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  }, 120_000);
});
