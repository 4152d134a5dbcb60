// The gateways and settings pages in Chromium: with JavaScript off, an owner connects Stripe against the
// local fake and saves the company profile; then axe checks every new page (and its error states) at
// 360 px and at desktop width, with no horizontal overflow.
import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { hasChromium, pageChecker, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { newMember, signIn } from "../helpers/panel.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";

const alnum = (n: number) => randomBytes(n).toString("base64url").replace(/[-_]/g, "x");
const SECRET_KEY = `sk_test_${alnum(24)}`;

describe.skipIf(!hasChromium)("gateways and settings in a browser", () => {
  const browser = useBrowser();
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: SECRET_KEY });
  });
  afterAll(async () => {
    await stripe?.close();
  });

  /** A signed-in owner's browser context (the session cookie from an HTTP sign-in). */
  async function ownerContext(width: number, js: boolean): Promise<{ ctx: BrowserContext; page: Page; baseUrl: string }> {
    const { baseUrl } = await testService();
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const session = (await signIn(owner.email, owner.password)).jar.get("panel_session")!;
    // axe is injected, which the panel's CSP (script-src 'self') refuses: the axe contexts bypass it.
    const ctx = await browser().newContext({ viewport: { width, height: 800 }, javaScriptEnabled: js, bypassCSP: js, locale: "pt-BR" });
    await ctx.addCookies([{ name: "panel_session", value: session, url: baseUrl }]);
    return { ctx, page: await ctx.newPage(), baseUrl };
  }

  it("with JavaScript off, an owner connects Stripe against the fake and saves the profile", { timeout: 120_000 }, async () => {
    const { ctx, page, baseUrl } = await ownerContext(390, false);
    await page.goto(`${baseUrl}/panel/gateways`);
    await submitAndLoad(page, () => page.click("text=Conectar Stripe"));
    await page.fill('[name="name"]', "stripe-br");
    await page.fill('[name="cred_secretKey"]', SECRET_KEY);
    await page.fill('[name="apiBaseUrl"]', stripe.url);
    await submitAndLoad(page, () => page.click('button:has-text("Verificar e conectar")'));
    expect(await page.textContent("h1")).toBe("stripe-br");
    expect(await page.textContent("main")).toContain("Conta conectada");
    expect(await page.content()).not.toContain(SECRET_KEY);

    await page.goto(`${baseUrl}/panel/settings`);
    await page.fill('[name="legalName"]', "Loja no Navegador Ltda.");
    await page.fill('[name="cnpj"]', "11222333000181");
    await submitAndLoad(page, () => page.click('button:has-text("Salvar perfil")'));
    expect(await page.textContent("main")).toContain("Perfil salvo.");
    expect(await page.inputValue('[name="cnpj"]')).toBe("11.222.333/0001-81");
    await ctx.close();
  });

  for (const width of [360, 1280]) {
    it(`axe finds no violation on the gateways and settings pages at ${width} px`, { timeout: 120_000 }, async () => {
      const { ctx, page, baseUrl } = await ownerContext(width, true);
      // axe is first shown a canary violation, so the checks below are real.
      const { violations, check } = await pageChecker(page);

      await page.goto(`${baseUrl}/panel/gateways`);
      await check("gateways");
      await page.goto(`${baseUrl}/panel/gateways/connect/stripe`);
      await check("connect form");
      await page.fill('[name="name"]', "stripe-br");
      await page.fill('[name="cred_secretKey"]', `sk_test_${alnum(24)}`);
      await page.fill('[name="apiBaseUrl"]', stripe.url);
      await submitAndLoad(page, () => page.click('button:has-text("Verificar e conectar")'));
      expect(await page.textContent("main")).toContain("O provedor recusou as credenciais");
      await check("connect refused");
      await page.fill('[name="cred_secretKey"]', SECRET_KEY);
      await page.fill('[name="apiBaseUrl"]', stripe.url);
      await submitAndLoad(page, () => page.click('button:has-text("Verificar e conectar")'));
      expect(await page.textContent("main")).toContain("Conta conectada");
      await check("account connected");
      await page.goto(`${baseUrl}/panel/gateways`);
      await submitAndLoad(page, () => page.click('a:text-is("sandbox")'));
      await check("sandbox account");

      await page.goto(`${baseUrl}/panel/settings`);
      await check("settings");
      await page.fill('[name="cnpj"]', "11.222.333/0001-82");
      await submitAndLoad(page, () => page.click('button:has-text("Salvar perfil")'));
      expect(await page.textContent("main")).toContain("Informe um CNPJ válido");
      await check("settings with a CNPJ error");
      await page.fill('[name="amount"]', "3");
      await submitAndLoad(page, () => page.click('button:has-text("Avançar o relógio")'));
      expect(await page.textContent("main")).toContain("Relógio movido de");
      await check("clock moved");
      await page.goto(`${baseUrl}/panel/gateways/gwa_${"0".repeat(26)}`);
      await check("unknown account");
      expect(violations).toEqual([]);
      await ctx.close();
    });
  }
});
