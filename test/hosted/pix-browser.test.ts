// A real browser on the Pix page: the copy button copies the code, the page follows a sandbox payment
// by itself to the result page, and axe finds no violation on the checkout and Pix pages at 360 px and
// at desktop width.
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, pageChecker, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { op } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";


const PROFILE = {
  legalName: "Loja Exemplo Ltda.",
  cnpj: "11222333000181",
  supportEmail: "ajuda@loja.example",
  supportPhone: "(11) 3003-4000",
  address: "Rua Augusta, 500, São Paulo - SP",
  termsUrl: "https://loja.example/termos",
  privacyUrl: "https://loja.example/privacidade",
};

async function seller(): Promise<TestTenant> {
  const t = await newTenant();
  await op(`mutation($t: ID!, $i: TenantProfileInput!) { updateTenantProfile(tenantId: $t, input: $i) { id } }`, { t: t.tenantId, i: PROFILE });
  return t;
}

async function toPix(page: Page, baseUrl: string, t: TestTenant): Promise<void> {
  await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}`);
  await page.fill('[name="name"]', "Maria Silva");
  await page.fill('[name="email"]', `pix-${Math.random().toString(36).slice(2, 8)}@example.com`);
  await page.fill('[name="phone"]', "(11) 98765-4321");
  await page.fill('[name="doc"]', "529.982.247-25");
  await page.check('[name="method"][value="pix"]');
  await submitAndLoad(page, () => page.click('form.card button[type="submit"]'));
  expect(await page.textContent("h1")).toBe("Pague com Pix para ativar");
}

describe.skipIf(!hasChromium)("the Pix page in a browser", () => {
  const browser = useBrowser();

  it("copies the code and follows a sandbox payment to the result page", { timeout: 120_000 }, async () => {
    const { baseUrl } = await testService();
    const t = await seller();
    const ctx = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale: "pt-BR" });
    await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseUrl).origin });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    await toPix(page, baseUrl, t);
    const code = (await page.inputValue("#pix-copy-paste")).trim();
    await page.click("#pix-copy");
    await expect.poll(() => page.textContent("#pix-copy")).toBe("Código copiado");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await op(`mutation($c: String!) { simulatePixPayment(copyPaste: $c) { id } }`, { c: code }, t.writeKey);
    await page.waitForURL(/\/pix\/pay_[0-9A-Z]+\/result\?k=/, { timeout: 30_000 });
    expect(await page.textContent("h1")).toBe("Pagamento confirmado");
    expect(await page.textContent("footer")).toContain("CNPJ 11.222.333/0001-81");
    expect(errors).toEqual([]); // no CSP refusal of our script nor of its polling
    await ctx.close();
  });

  for (const width of [360, 1280]) {
    it(`axe finds no violation on the checkout and Pix pages at ${width} px`, { timeout: 120_000 }, async () => {
      const { baseUrl } = await testService();
      const t = await seller();
      // axe is injected into the page, which the pages' CSP would refuse: this context bypasses it.
      const ctx: BrowserContext = await browser().newContext({ viewport: { width, height: 800 }, bypassCSP: true, locale: "pt-BR" });
      const page = await ctx.newPage();
      const { violations, check } = await pageChecker(page);
      await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}`);
      await check("checkout");
      await toPix(page, baseUrl, t);
      await check("pix");
      expect(violations).toEqual([]);
      await ctx.close();
    });
  }
});
