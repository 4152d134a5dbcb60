// The webhooks section in Chromium: with JavaScript off a developer adds an endpoint through the form,
// shows the secret, sends a test event and a local receiver verifies it with that secret. Then axe
// checks every webhooks page at 360 px and at desktop width (no violation, no sideways scroll).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { advanceClock } from "../helpers/billing.ts";
import { hasChromium, pageChecker, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { newMember, signIn } from "../helpers/panel.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint, receiversPerTest, type Received } from "../helpers/webhook-receiver.ts";

const receiver = receiversPerTest();

function verified(r: Received, secret: string): boolean {
  const parts = String(r.headers["x-billing-signature"]).split(",").map((p) => p.split("="));
  const ts = Number(parts.find(([k]) => k === "ts")?.[1]);
  if (Math.abs(Date.now() / 1000 - ts) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${ts}.${r.raw}`).digest();
  return parts.some(([k, v]) => k === "v1" && /^[0-9a-f]{64}$/.test(v ?? "") && timingSafeEqual(Buffer.from(v!, "hex"), expected));
}

describe.skipIf(!hasChromium)("the webhooks section in a browser", () => {
  const browser = useBrowser();

  /** A context signed in as a new member of the tenant (the session cookie of an HTTP sign-in). */
  async function signedInContext(tenantId: string, role: string, width: number, js: boolean): Promise<BrowserContext> {
    const { baseUrl } = await testService();
    const m = await newMember(tenantId, role);
    const b = await signIn(m.email, m.password);
    // axe is injected into the page, which the panel's CSP would refuse: the axe contexts bypass it.
    const ctx = await browser().newContext({ viewport: { width, height: 800 }, javaScriptEnabled: js, bypassCSP: js, locale: "pt-BR" });
    await ctx.addCookies([...b.jar].map(([name, value]) => ({ name, value, url: baseUrl })));
    return ctx;
  }

  it("a developer adds an endpoint, shows the secret and sends a test event the receiver verifies with it", { timeout: 120_000 }, async () => {
    const { baseUrl } = await testService();
    const t = await newTenant();
    const rcv = await receiver();
    const ctx = await signedInContext(t.tenantId, "DEVELOPER", 390, false);
    const page = await ctx.newPage();
    await page.goto(`${baseUrl}/panel/`);
    await submitAndLoad(page, () => page.click("nav >> text=Webhooks"));
    expect(await page.textContent("h1")).toBe("Webhooks");
    await page.fill('[name="url"]', rcv.url);
    await page.fill('[name="description"]', "Receptor do teste");
    await submitAndLoad(page, () => page.click('button:has-text("Adicionar endpoint")'));
    expect(new URL(page.url()).pathname).toMatch(/^\/panel\/webhooks\/we_/);
    await submitAndLoad(page, () => page.click('button:has-text("Mostrar segredo de assinatura")'));
    const secret = (await page.inputValue("#secret")).trim();
    expect(secret).toMatch(/^whsec_/);
    await submitAndLoad(page, () => page.click('button:has-text("Enviar evento de teste")'));
    expect(await page.textContent("[role=status]")).toContain("webhook.test");
    await rcv.waitFor((rs) => rs.length === 1);
    expect(rcv.requests[0]!.body.type).toBe("webhook.test");
    expect(verified(rcv.requests[0]!, secret)).toBe(true);
    await expect.poll(async () => (await page.reload(), await page.textContent(".deliveries .status"))).toBe("Entregue");
    await ctx.close();
  });

  for (const width of [360, 1280]) {
    it(`axe finds no violation on the webhooks pages at ${width} px`, { timeout: 120_000 }, async () => {
      const { baseUrl } = await testService();
      const t = await newTenant();
      await advanceClock(t, "2027-05-10T12:00:00.000Z");
      const rcv = await receiver();
      rcv.answer = (_r, nth) => ({ status: nth === 1 ? 500 : 200 });
      // A long URL must wrap, not widen the page.
      const { id } = await addEndpoint(t, `${rcv.url}/${"caminho-bem-comprido/".repeat(6)}`);
      const ctx = await signedInContext(t.tenantId, "OWNER", width, true);
      const page = await ctx.newPage();
      const { violations, check } = await pageChecker(page);

      await page.goto(`${baseUrl}/panel/webhooks`);
      await check("list");
      await page.fill('[name="url"]', "http://169.254.169.254/");
      await submitAndLoad(page, () => page.click('button:has-text("Adicionar endpoint")'));
      expect(await page.textContent("[role=alert]")).toContain("url must not target");
      await check("list with an error");
      await page.goto(`${baseUrl}/panel/webhooks/${id}`);
      await submitAndLoad(page, () => page.click('button:has-text("Enviar evento de teste")'));
      await rcv.waitFor((rs) => rs.length === 1);
      await expect.poll(async () => (await page.reload(), await page.textContent(".deliveries .status"))).toBe("Pendente");
      await page.click(".deliveries summary");
      await check("endpoint with a delivery log (attempts and payload open)");
      await submitAndLoad(page, () => page.click('button:has-text("Mostrar segredo de assinatura")'));
      await check("secret shown");
      await submitAndLoad(page, () => page.click('button:has-text("Gerar novo segredo")'));
      await check("secret rolled");
      await page.fill('[name="since"]', "2027-05-10");
      await submitAndLoad(page, () => page.click('button:has-text("Reenviar entregas com falha")'));
      await check("resend failed");
      await page.goto(`${baseUrl}/panel/webhooks/${id}/delete`);
      await check("delete confirmation");
      await page.goto(`${baseUrl}/panel/webhooks/we_00000000000000000000000000`);
      await check("not found");
      expect(violations).toEqual([]);
      await ctx.close();
    });
  }
});
