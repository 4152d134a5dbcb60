// Issue 19 in Chromium: a Mercado Pago offer's checkout loads the fake's stand-in for MercadoPago.js v2 under
// the page's CSP, the card number, expiry and CVV are typed inside the provider's Secure Fields (iframes of
// its origin), and the form posts only the card token. Every request that is neither to our service nor to
// the fake is aborted (and counted), proving the page needs nothing else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { mercadopagoCardOf, mercadopagoOffer, PUBLIC_KEY, startMercadoPagoTestbed } from "../helpers/mercadopago.ts";
import type { TestService } from "../helpers/service.ts";

let fake: FakeMercadoPago;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startMercadoPagoTestbed()));
afterAll(() => fake?.close());

describe.skipIf(!hasChromium)("Mercado Pago checkout in a browser (MercadoPago.js stand-in)", () => {
  const browser = useBrowser();

  it("mounts the Secure Fields, posts only mercadopago_token and lands on an active subscription", async () => {
    const s = await mercadopagoOffer(fake);
    const allowed = [new URL(svc.baseUrl).origin, new URL(fake.url).origin];
    const context = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale: "pt-BR" });
    const blocked: string[] = [];
    const posted: string[] = [];
    const cspErrors: string[] = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("data:") || url === "about:blank" || allowed.includes(new URL(url).origin)) return route.continue();
      blocked.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    page.on("request", (req) => {
      if (req.method() === "POST" && new URL(req.url()).origin === new URL(svc.baseUrl).origin) posted.push(req.postData() ?? "");
    });
    const loadsBefore = fake.scriptLoads;
    const res = await page.goto(`${svc.baseUrl}/checkout/${s.offerId}`);
    expect(res?.status()).toBe(200);
    const csp = res!.headers()["content-security-policy"] ?? "";
    expect(csp).toContain(`script-src 'nonce-`);
    expect(csp).toContain(new URL(fake.url).origin);
    expect(await page.locator('[name="card_number"]').count()).toBe(0);
    expect(await page.getAttribute("form[data-browser-card]", "data-public-key")).toBe(PUBLIC_KEY);
    await page.waitForSelector('#mp-securityCode[data-mp-mounted="securityCode"] iframe', { timeout: 5_000 });
    expect(fake.scriptLoads).toBe(loadsBefore + 1);

    await page.fill('[name="name"]', "Maria Silva");
    await page.fill('[name="email"]', `mp-browser-${Date.now()}@example.com`);
    await page.fill('[name="phone"]', "11987654321");
    await page.fill('[name="doc"]', "529.982.247-25");
    await page.check('[name="method"][value="card"]');
    await page.fill("#mp-cardholder-name", "APRO");
    // Number, expiry and CVV go into the provider's frames (another origin), never into our form.
    await page.frameLocator("#mp-cardNumber iframe").locator("input").fill("5031 4332 1540 6351");
    await page.frameLocator("#mp-expirationDate iframe").locator("input").fill("11/30");
    await page.frameLocator("#mp-securityCode iframe").locator("input").fill("123");
    await submitAndLoad(page, () => page.click('form.card button[type="submit"]'));
    await page.waitForSelector("h1");
    expect(await page.textContent("h1")).toBe("Assinatura ativa");

    // The one form post to us carried a card token and no card data.
    const form = posted.map((p) => new URLSearchParams(p)).find((p) => p.has("mercadopago_token"));
    expect(form?.get("mercadopago_token")).toMatch(/^[0-9a-f]{32}$/);
    expect(posted.join("\n")).not.toMatch(/5031|6351|card_number|card_cvc|11\/30/);

    // Server side: an active subscription whose card is saved to a Mercado Pago customer, charged once under our key.
    const prisma = svc.runtime.db.prisma;
    const sub = await prisma.subscription.findFirstOrThrow({ where: { tenantId: s.t.tenantId }, include: { paymentMethod: true } });
    expect(sub.status).toBe("ACTIVE");
    expect(sub.paymentMethod).toMatchObject({ brand: "master", last4: "6351" });
    const [customerId] = sub.paymentMethod!.token!.split("|");
    expect(mercadopagoCardOf(fake, sub.paymentMethod!.token!)).toMatchObject({ customer_id: customerId, cardholder: { name: "APRO", identification: { type: "CPF", number: "52998224725" } } });
    const invoice = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(fake.chargesFor(`${invoice.id}:1`)).toBe(1);

    expect(blocked).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
