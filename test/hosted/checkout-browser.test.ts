// A real browser (Debian chromium through playwright-core) on a phone-sized screen: the hosted checkout
// works without JavaScript, fits the screen, shows field errors, and ends on the success page.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";


describe.skipIf(!hasChromium)("hosted checkout in a browser", () => {
  const browser = useBrowser();

  /** A phone-sized page with JavaScript off: the form must not need it. */
  async function openCheckout(query = ""): Promise<Page> {
    const { baseUrl } = await testService();
    const t = await newTenant();
    const context = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, javaScriptEnabled: false, locale: "pt-BR" });
    const page = await context.newPage();
    const res = await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}${query}`);
    expect(res?.status()).toBe(200);
    return page;
  }

  /** Pixels of horizontal scroll (playwright's evaluate runs even with the page's JavaScript off). */
  async function overflow(page: Page): Promise<number> {
    return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }

  async function fill(page: Page, fields: Record<string, string>) {
    for (const [name, value] of Object.entries(fields)) await page.fill(`[name="${name}"]`, value);
  }

  it("fits a phone screen and shows a field error next to the field", async () => {
    const page = await openCheckout("?email=maria%40example.com&utm_source=instagram");
    await expect(page.locator(".price", { hasText: "49,90" }).count()).resolves.toBe(1);
    expect(await page.inputValue('[name="email"]')).toBe("maria@example.com");
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await fill(page, { name: "Maria Silva", phone: "(11) 98765-4321", doc: "529.982.247-24" });
    await page.check('[name="method"][value="card"]');
    await fill(page, { card_holder: "MARIA SILVA", card_number: "4242 4242 4242 4242", card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" });
    await submitAndLoad(page, () => page.click('button:has-text("Assinar")'));
    expect(await page.textContent("#e-doc")).toBe("CPF ou CNPJ inválido");
    expect(await page.inputValue('[name="phone"]')).toBe("(11) 98765-4321");
    expect(await page.inputValue('[name="card_number"]')).toBe("");
    expect(await page.inputValue('[name="card_cvc"]')).toBe("");
    expect(await page.locator('form.card input[type="hidden"][name="utm_source"]').getAttribute("value")).toBe("instagram");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.context().close();
  }, 90_000);

  // Goes green once startCheckout (core/checkout/start-checkout.ts) lands.
  it("subscribes with test card 4242 and lands on the success page", async () => {
    const page = await openCheckout();
    await fill(page, { name: "Maria Silva", email: `browser-${Date.now()}@example.com`, phone: "11987654321", doc: "529.982.247-25" });
    await page.check('[name="method"][value="card"]');
    await fill(page, { card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" });
    await submitAndLoad(page, () => page.click('button:has-text("Assinar")'));
    expect(await page.textContent("h1")).toBe("Assinatura ativa");
    await page.context().close();
  });
});
