// The panel in a real browser (Chromium through playwright-core), JavaScript off: an invited member
// sets a password, signs in, turns on two-factor, signs out and signs in again with a code. Then axe
// checks every panel page at 360 px and at desktop width.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, hasChromium, horizontalOverflow, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { invite, PASSWORD, totpNow, uniqueEmail } from "../helpers/panel.ts";

/** With SAVE_SCREENSHOTS=1 the walk also writes docs/screenshots/panel-<page>-<width>.png, the README's pictures. */
const SHOTS = process.env.SAVE_SCREENSHOTS ? join(import.meta.dirname, "../../docs/screenshots") : null;
const PICTURED = new Set(["login", "team", "api-keys", "webhooks", "gateways", "settings", "audit", "home after the tour"]);

describe.skipIf(!hasChromium)("the panel in a browser", () => {
  const browser = useBrowser();

  async function context(width: number, js: boolean): Promise<BrowserContext> {
    // axe is injected into the page, which the panel's CSP (script-src 'self') would refuse: the axe
    // contexts bypass it; the walk's context keeps it, with JavaScript off.
    return browser().newContext({ viewport: { width, height: 800 }, javaScriptEnabled: js, bypassCSP: js, locale: "pt-BR" });
  }

  async function signUpAndIn(page: Page, baseUrl: string, tenantId: string, email: string) {
    const path = await invite(tenantId, email, "OWNER");
    expect((await page.goto(`${baseUrl}${path}`))?.status()).toBe(200);
    await page.fill('[name="password"]', PASSWORD);
    await submitAndLoad(page, () => page.click('button[type="submit"]'));
    expect(await page.textContent("h1")).toBe("Conta criada");
    await submitAndLoad(page, () => page.click("text=Entrar no painel"));
    await page.fill('[name="email"]', email);
    await page.fill('[name="password"]', PASSWORD);
    await submitAndLoad(page, () => page.click('button:has-text("Entrar")'));
  }

  it("invitation, password, sign-in, two-factor on, sign out, sign-in with a code", { timeout: 120_000 }, async () => {
    const { baseUrl } = await testService();
    const t = await newTenant();
    const email = uniqueEmail("walk");
    const ctx = await context(390, false);
    const page = await ctx.newPage();
    await signUpAndIn(page, baseUrl, t.tenantId, email);
    expect(new URL(page.url()).pathname).toBe("/panel/");
    expect(await page.textContent("main")).toContain(email);
    const cookie = (await ctx.cookies()).find((c) => c.name === "panel_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");

    await submitAndLoad(page, () => page.click("text=Segurança"));
    await submitAndLoad(page, () => page.click('button:has-text("Ativar verificação")'));
    expect(await page.getAttribute("img.qr", "src")).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.textContent("main code"))!.trim();
    await page.fill('[name="code"]', totpNow(secret));
    await submitAndLoad(page, () => page.click('button:has-text("Confirmar")'));
    expect(await page.textContent("h1")).toBe("Verificação em duas etapas ativada");
    expect(await page.locator("ul.recovery li").count()).toBe(10);

    await submitAndLoad(page, () => page.click('button:has-text("Sair")'));
    expect(new URL(page.url()).pathname).toBe("/panel/login");
    expect((await ctx.cookies()).some((c) => c.name === "panel_session")).toBe(false);
    await page.fill('[name="email"]', email);
    await page.fill('[name="password"]', PASSWORD);
    await submitAndLoad(page, () => page.click('button:has-text("Entrar")'));
    expect(await page.isVisible('[name="code"]')).toBe(true);
    // The next 30-second step's code: the one that turned two-factor on is spent.
    await page.fill('[name="code"]', totpNow(secret, Date.now() + 30_000));
    await submitAndLoad(page, () => page.click('button:has-text("Verificar")'));
    expect(new URL(page.url()).pathname).toBe("/panel/");
    expect(await page.textContent("main")).toContain("ativa");
    await ctx.close();
  });

  for (const width of [360, 1280]) {
    it(`axe finds no violation on the panel's pages at ${width} px`, { timeout: 120_000 }, async () => {
      const { baseUrl } = await testService();
      const t = await newTenant();
      const email = uniqueEmail("axe");
      const ctx = await context(width, true);
      const page = await ctx.newPage();
      const violations: string[] = [];
      const check = async (name: string) => {
        violations.push(...(await axeViolations(page)).map((v) => `${name}: ${v.id} ${JSON.stringify(v.nodes)}`));
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) violations.push(`${name}: ${overflow}px horizontal overflow`);
        if (SHOTS && PICTURED.has(name)) await page.screenshot({ path: join(SHOTS, `panel-${name.replace(/\W+/g, "-")}-${width}.png`), fullPage: true });
      };
      // axe sees a violation where there is one (an image without alt text): the checks below are real.
      await page.setContent('<!doctype html><html lang="pt-BR"><head><title>x</title></head><body><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>', { waitUntil: "domcontentloaded" });
      await check("canary");
      expect(violations.some((v) => v.startsWith("canary: image-alt"))).toBe(true);
      violations.length = 0;
      const path = await invite(t.tenantId, email, "OWNER");
      await page.goto(`${baseUrl}${path}`);
      await check("invitation");
      await page.fill('[name="password"]', "curta");
      await submitAndLoad(page, () => page.click('button[type="submit"]'));
      await check("invitation with an error");
      await page.fill('[name="password"]', PASSWORD);
      await submitAndLoad(page, () => page.click('button[type="submit"]'));
      await check("account created");
      await page.goto(`${baseUrl}/panel/login`);
      await check("login");
      await page.fill('[name="email"]', email);
      await page.fill('[name="password"]', "senha-errada-aqui");
      await submitAndLoad(page, () => page.click('button:has-text("Entrar")'));
      await check("login with an error");
      await page.fill('[name="password"]', PASSWORD);
      await submitAndLoad(page, () => page.click('button:has-text("Entrar")'));
      await check("home");
      await page.goto(`${baseUrl}/panel/sessions`);
      await check("sessions");
      await page.goto(`${baseUrl}/panel/team`);
      await check("team");
      await page.fill('[name="email"]', uniqueEmail("convidado"));
      await submitAndLoad(page, () => page.click('button:has-text("Criar convite")'));
      expect(await page.textContent("h2")).toBe("Convite criado");
      await check("team with a new invitation");
      await page.goto(`${baseUrl}/panel/security`);
      await check("security");
      await submitAndLoad(page, () => page.click('button:has-text("Ativar verificação")'));
      await check("two-factor set-up");
      const secret = (await page.textContent("main code"))!.trim();
      await page.fill('[name="code"]', totpNow(secret));
      await submitAndLoad(page, () => page.click('button:has-text("Confirmar")'));
      await check("recovery codes");
      for (const section of ["api-keys", "webhooks", "gateways", "settings", "audit"]) {
        await page.goto(`${baseUrl}/panel/${section}`);
        await check(section);
      }
      await page.goto(`${baseUrl}/panel/`);
      await check("home after the tour");
      await page.goto(`${baseUrl}${path}`);
      await check("used invitation");
      expect(violations).toEqual([]);
      await ctx.close();
    });
  }
});
