// API keys and the audit log in Chromium: with JavaScript off the new key is in a readonly field (the
// copy button stays hidden); with it on, our script shows the copy button (CSP 'self' kept). axe finds
// no violation on the keys, revoke, roll, new-key and audit pages at 360 px and at desktop width.
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, pageChecker, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { get } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { newMember } from "../helpers/panel.ts";

describe.skipIf(!hasChromium)("API keys and audit in a browser", () => {
  const browser = useBrowser();

  const context = (width: number, opts: { js: boolean; bypassCSP: boolean }): Promise<BrowserContext> =>
    browser().newContext({ viewport: { width, height: 800 }, javaScriptEnabled: opts.js, bypassCSP: opts.bypassCSP, locale: "pt-BR" });

  async function signedIn(page: Page, baseUrl: string, role = "DEVELOPER") {
    const t = await newTenant();
    const m = await newMember(t.tenantId, role);
    await page.goto(`${baseUrl}/panel/login`);
    await page.fill('[name="email"]', m.email);
    await page.fill('[name="password"]', m.password);
    await submitAndLoad(page, () => page.click('button:has-text("Entrar")'));
    expect(new URL(page.url()).pathname).toBe("/panel/");
    return t;
  }

  async function createKey(page: Page, baseUrl: string, name: string) {
    await page.goto(`${baseUrl}/panel/api-keys`);
    await page.fill('[name="name"]', name);
    await page.check('input[name="scope"][value="WRITE"]');
    await submitAndLoad(page, () => page.click('button:has-text("Criar chave")'));
    expect(await page.textContent("h1")).toBe("Chave criada");
    return page.inputValue("#new-key");
  }

  it("without JavaScript: create (key in a readonly field), call /v1, revoke after the confirmation page", { timeout: 120_000 }, async () => {
    const { baseUrl } = await testService();
    const ctx = await context(390, { js: false, bypassCSP: false });
    const page = await ctx.newPage();
    await signedIn(page, baseUrl);
    const key = await createKey(page, baseUrl, "servidor");
    expect(key).toMatch(/^bk_test_/);
    expect(await page.getAttribute("#new-key", "readonly")).not.toBeNull();
    expect(await page.isVisible('button:has-text("Copiar chave")')).toBe(false);
    expect((await get("/v1/events", key)).status).toBe(200);
    await page.goto(`${baseUrl}/panel/api-keys`);
    await submitAndLoad(page, () => page.click("text=Revogar servidor"));
    expect(await page.textContent("h1")).toBe("Revogar servidor?");
    await submitAndLoad(page, () => page.click('button:has-text("Revogar chave")'));
    expect(await page.textContent("main")).toContain("Chave revogada");
    expect((await get("/v1/events", key)).status).toBe(401);
    await ctx.close();
  });

  it("with JavaScript, under the panel's CSP: our script shows the copy button", { timeout: 120_000 }, async () => {
    const { baseUrl } = await testService();
    const ctx = await context(1280, { js: true, bypassCSP: false });
    const page = await ctx.newPage();
    const refused: string[] = [];
    page.on("console", (m) => m.type() === "error" && refused.push(m.text()));
    await signedIn(page, baseUrl);
    await createKey(page, baseUrl, "com script");
    await page.waitForSelector('button:has-text("Copiar chave")', { state: "visible" });
    expect(refused).toEqual([]);
    await ctx.close();
  });

  for (const width of [360, 1280]) {
    it(`axe finds no violation on the keys and audit pages at ${width} px`, { timeout: 120_000 }, async () => {
      const { baseUrl } = await testService();
      // axe is injected, which the CSP would refuse: this context bypasses it.
      const ctx = await context(width, { js: true, bypassCSP: true });
      const page = await ctx.newPage();
      const { violations, check } = await pageChecker(page);

      await signedIn(page, baseUrl, "OWNER");
      await page.goto(`${baseUrl}/panel/api-keys`);
      await check("keys");
      await page.fill('[name="name"]', "   "); // only spaces: the core refuses
      await submitAndLoad(page, () => page.click('button:has-text("Criar chave")'));
      expect(await page.textContent("main")).toContain("dê um nome à chave");
      await check("keys with an error");
      await createKey(page, baseUrl, "integração com um nome bem comprido para caber em 360 pixels");
      await check("new key");
      await page.goto(`${baseUrl}/panel/api-keys`);
      await check("keys with a named key");
      await submitAndLoad(page, () => page.click("text=Substituir integração"));
      await check("roll");
      await submitAndLoad(page, () => page.click('button:has-text("Criar a chave nova")'));
      expect(await page.textContent("h1")).toBe("Chave substituída");
      await check("rolled key");
      await page.goto(`${baseUrl}/panel/api-keys`);
      await submitAndLoad(page, () => page.click("text=Revogar integração com um nome bem comprido para caber em 360 pixels agora"));
      await check("revoke");
      await page.goto(`${baseUrl}/panel/audit`);
      await check("audit");
      await page.goto(`${baseUrl}/panel/audit?action=createApiKey&actor=x&from=2026-01-01`);
      await check("audit filtered, empty");
      await page.goto(`${baseUrl}/panel/audit?from=2026-02-01&to=2026-01-01`);
      await check("audit with an error");
      expect(violations).toEqual([]);
      await ctx.close();
    });
  }
});
