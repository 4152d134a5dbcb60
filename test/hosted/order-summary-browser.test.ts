// The order summary in a real browser with JavaScript off: a phone applies BEMVINDO10 with "Aplicar",
// pays, and the result page says what was charged; axe finds nothing on the checkout and the result
// pages at 360 px and at desktop width.
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../core/shared/format-money.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = [360, 1280];

describe.skipIf(!hasChromium)("order summary in a browser", () => {
  const browser = useBrowser();

  /** The page's HTML as the browser holds it, checked by axe at each width (scripts allowed only for axe). */
  async function axeAt(html: string): Promise<Record<number, string[]>> {
    const out: Record<number, string[]> = {};
    for (const width of WIDTHS) {
      const context = await browser().newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.route("**/*", (route) => route.abort());
      await page.setContent(html, { waitUntil: "load" });
      await page.addScriptTag({ path: AXE });
      out[width] = await page.evaluate(async () => {
        // @ts-expect-error axe is injected above
        const r = await window.axe.run(document, { resultTypes: ["violations"] });
        return (r.violations as { id: string; nodes: { target: string[] }[] }[]).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      });
      await context.close();
    }
    return out;
  }

  const row = (page: Page, term: string) => page.locator(".sum-row", { hasText: term }).locator("dd").textContent();

  it("applies a coupon without JavaScript, pays the figure shown, and both pages pass axe at 360 px and desktop", async () => {
    const { baseUrl } = await testService();
    const t = await newTenant();
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "BEMVINDO10", percentOff: 10, cycles: 3) { id } }`, { t: t.tenantId });
    const context = await browser().newContext({ viewport: { width: 360, height: 800 }, isMobile: true, javaScriptEnabled: false, locale: "pt-BR" });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}?email=maria%40example.com`);
    expect(await row(page, "Cobrado hoje")).toBe(formatMoney(4990));
    expect(await axeAt(await page.content())).toEqual({ 360: [], 1280: [] });

    await page.fill('[name="coupon"]', "BEMVINDO10");
    await submitAndLoad(page, () => page.click('button:has-text("Aplicar")'));
    expect(await row(page, "Cupom BEMVINDO10")).toBe(`10% de desconto nas 3 primeiras cobranças: ${formatMoney(4491)} /mês`);
    expect(await row(page, "Cobrado hoje")).toBe(formatMoney(4491));
    expect(await page.inputValue('[name="email"]')).toBe("maria@example.com");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    for (const [name, value] of Object.entries({ name: "Maria Silva", phone: "11987654321", doc: "529.982.247-25", card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" })) {
      await page.fill(`[name="${name}"]`, value);
    }
    await page.check('[name="method"][value="card"]');
    await submitAndLoad(page, () => page.click('button:has-text("Assinar")'));
    expect(await page.textContent("h1")).toBe("Assinatura ativa");
    expect(await page.textContent("main")).toContain(`Cobrado hoje: ${formatMoney(4491)} no cartão`);
    expect(await row(page, "Próxima cobrança")).toMatch(new RegExp(`^${formatMoney(4491).replace("$", "\\$")} em `));
    expect(await axeAt(await page.content())).toEqual({ 360: [], 1280: [] });
    await context.close();
  }, 120_000);
});
