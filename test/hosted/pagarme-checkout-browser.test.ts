// Issue 19 in Chromium: a Pagar.me offer's checkout loads the fake's stand-in for tokenizecard.js under the
// page's CSP; the card is typed into inputs that carry no `name` (never posted to us); the library sends
// it from the browser straight to Pagar.me's /core/v5/tokens with the public key, and the form posts only
// pagarme_token. Every request that is neither to our service nor to the fake is aborted (and counted).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserTokenizer } from "../../web/browser-tokenizers/index.ts";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { call } from "../helpers/http.ts";
import { PAGARME_PUBLIC_KEY, pagarmeOffer, startPagarmeTestbed } from "../helpers/pagarme.ts";
import type { TestService } from "../helpers/service.ts";

let fake: FakePagarme;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

describe("Pagar.me tokenizer (production values)", () => {
  it("loads tokenizecard.js from checkout.pagar.me, reaches api.pagar.me only, no frames; posts token_ ids only", () => {
    const t = browserTokenizer("pagarme")!;
    expect(t.scriptUrl).toBe("https://checkout.pagar.me/v1/tokenizecard.js");
    expect(t.csp).toEqual({ script: ["https://checkout.pagar.me"], frame: ["'none'"], connect: ["https://api.pagar.me"] });
    expect(t.publicKey.field).toBe("publicKey");
    expect(t.tokenField.name).toBe("pagarme_token");
    for (const bad of ["4000000000000010", "pm_card_visa", "token_x y", ""]) expect(t.tokenField.pattern.test(bad)).toBe(false);
    expect(t.tokenField.pattern.test("token_abcDEF123")).toBe(true);
  });
});

describe("Pagar.me checkout page (HTTP)", () => {
  it("the tokenizecard.js tag carries data-pagarmecheckout-app-id (the public key) in the HTML, there when the library loads", async () => {
    const s = await pagarmeOffer(fake);
    const res = await call("GET", `/checkout/${s.offerId}`);
    expect(res.status).toBe(200);
    const tags = res.text.match(/<script [^>]*src="[^"]*\/v1\/tokenizecard\.js"[^>]*>/g) ?? [];
    expect(tags).toEqual([`<script src="${fake.url}/v1/tokenizecard.js" data-pagarmecheckout-app-id="${PAGARME_PUBLIC_KEY}">`]);
    // The page's script no longer adds it after the fact.
    expect(res.text).not.toContain("setAttribute(\"data-pagarmecheckout-app-id\"");
  });
});

describe.skipIf(!hasChromium)("Pagar.me checkout in a browser (tokenizecard.js stand-in)", () => {
  const browser = useBrowser();

  it("draws name-less card inputs, tokenizes at Pagar.me from the browser, posts only pagarme_token and lands on an active subscription", async () => {
    const s = await pagarmeOffer(fake);
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
    expect(csp).toContain(`connect-src ${new URL(fake.url).origin}`);
    expect(await page.locator('[name="card_number"]').count()).toBe(0);
    expect(await page.getAttribute("form[data-browser-card]", "data-public-key")).toBe(PAGARME_PUBLIC_KEY);
    await page.waitForSelector('[data-pagarmecheckout-element="number"]', { timeout: 5_000 });
    expect(fake.scriptLoads).toBe(loadsBefore + 1);
    // The card inputs have no name: the browser cannot post them to us.
    expect(await page.locator("[data-pagarmecheckout-element][name]").count()).toBe(0);

    await page.fill('[name="name"]', "Maria Silva");
    await page.fill('[name="email"]', `pg-browser-${Date.now()}@example.com`);
    await page.fill('[name="phone"]', "11987654321");
    await page.fill('[name="doc"]', "529.982.247-25");
    await page.check('[name="method"][value="card"]');
    await page.fill('[data-pagarmecheckout-element="holder_name"]', "MARIA SILVA");
    await page.fill('[data-pagarmecheckout-element="number"]', "4000 0000 0000 0010");
    await page.fill('[data-pagarmecheckout-element="exp_month"]', "12");
    await page.fill('[data-pagarmecheckout-element="exp_year"]', "30");
    await page.fill('[data-pagarmecheckout-element="cvv"]', "123");
    const tokensBefore = fake.tokens.size;
    await submitAndLoad(page, () => page.click('form.card button[type="submit"]'));
    await page.waitForSelector("h1");
    expect(await page.textContent("h1")).toBe("Assinatura ativa");
    expect(fake.tokens.size).toBe(tokensBefore + 1);

    // The one form post to us carried a token and no card data.
    const form = posted.map((p) => new URLSearchParams(p)).find((p) => p.has("pagarme_token"));
    expect(form?.get("pagarme_token")).toMatch(/^token_[A-Za-z0-9]+$/);
    expect(posted.join("\n")).not.toMatch(/4000\+?0000|0010|card_number|card_cvc|MARIA\+SILVA/);

    // Server side: an active subscription whose card is saved to a Pagar.me customer, charged once under our key.
    const prisma = svc.runtime.db.prisma;
    const sub = await prisma.subscription.findFirstOrThrow({ where: { tenantId: s.t.tenantId }, include: { paymentMethod: true } });
    expect(sub.status).toBe("ACTIVE");
    expect(sub.paymentMethod).toMatchObject({ brand: "visa", last4: "0010" });
    const [customerId, cardId] = sub.paymentMethod!.token!.split("|");
    expect(fake.cards.get(cardId!)).toMatchObject({ customer: { id: customerId }, holder_name: "MARIA SILVA" });
    const invoice = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(fake.chargesFor(`${invoice.id}:1`)).toBe(1);

    expect(blocked).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
