// A real browser (Debian chromium through playwright-core) on a phone-sized screen with JavaScript
// off: a payment-method link and a renewal link are paid through the real /pay page.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { subscribe, subscription } from "../helpers/billing.ts";
import { post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { formatMoney } from "../../core/shared/format-money.ts";


describe.skipIf(!hasChromium)("hosted /pay in a browser", () => {
  const browser = useBrowser();

  async function open(url: string): Promise<Page> {
    const { baseUrl } = await testService();
    const context = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, javaScriptEnabled: false, locale: "pt-BR" });
    const page = await context.newPage();
    const res = await page.goto(`${baseUrl}${new URL(url).pathname}`);
    expect(res?.status()).toBe(200);
    return page;
  }

  async function overflow(page: Page): Promise<number> {
    return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }

  async function fillCard(page: Page, number: string) {
    const fields = { card_holder: "MARIA SILVA", card_number: number, card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" };
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name="${name}"]`, value);
  }

  it("changes the card through a payment-method link (a refused card first, then a good one)", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const link = await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey);
    const page = await open(link.body.url);
    expect(await page.textContent("h1")).toBe("Atualize seu cartão");
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await fillCard(page, "4000000000000002");
    await submitAndLoad(page, () => page.click('button[type="submit"]'));
    expect(await page.textContent("#e-card_number")).toBe("pagamento não aprovado; verifique os dados ou use outro cartão");
    expect(await page.inputValue('[name="card_number"]')).toBe("");
    expect(await page.inputValue('[name="card_cvc"]')).toBe("");
    expect(await page.inputValue('[name="card_holder"]')).toBe("MARIA SILVA");

    await fillCard(page, "5555 5555 5555 4444");
    await submitAndLoad(page, () => page.click('button[type="submit"]'));
    expect(await page.textContent("h1")).toBe("Cartão atualizado");
    expect((await subscription(t, id)).payment_method).toEqual({ brand: "mastercard", last4: "4444" });
    await page.context().close();
  });

  it("pays a renewal link by card and extends the period", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const before = await subscription(t, id);
    const link = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey);
    const page = await open(link.body.url);
    expect(await page.textContent("h1")).toBe("Renove sua assinatura");
    // The order summary: the link's price charged today, the next renewal after the renewed period.
    expect(await page.locator(".sum-row", { hasText: "Cobrado hoje" }).locator("dd").textContent()).toBe(formatMoney(4990));
    expect(await page.locator(".sum-row", { hasText: "Próxima cobrança" }).locator("dd").textContent()).toMatch(/^R\$\u00a049,90 em /);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.check('[name="method"][value="card"]');
    await fillCard(page, "4242424242424242");
    await submitAndLoad(page, () => page.click('button[type="submit"]'));
    expect(await page.textContent("h1")).toBe("Renovação confirmada");
    const after = await subscription(t, id);
    expect(new Date(after.current_period_end).getTime()).toBeGreaterThan(new Date(before.current_period_end).getTime() + 27 * 86_400_000);
    await page.context().close();
  });
});
