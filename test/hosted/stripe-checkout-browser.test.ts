// Issue 18 item 2 in Chromium: a Stripe offer's checkout loads the fake's stand-in for Stripe.js under
// the page's CSP, the card is typed inside the provider's iframe, and the form posts only a pm_ id.
// Every request that is neither to our service nor to the fake is aborted (and counted), proving the
// page needs nothing else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import type { TestService } from "../helpers/service.ts";
import { startStripeTestbed, stripeOffer } from "../helpers/stripe.ts";

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

describe.skipIf(!hasChromium)("Stripe checkout in a browser (Stripe.js stand-in)", () => {
  const browser = useBrowser();

  it("mounts the card element, posts only payment_method_id and lands on an active subscription", async () => {
    const s = await stripeOffer(fake);
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
    const toProvider: string[] = [];
    page.on("request", (req) => {
      if (req.method() !== "POST") return;
      // The card goes from the provider's frame to the provider (the fake); our server gets the pm_ only.
      if (req.url().startsWith(fake.url)) toProvider.push(req.postData() ?? "");
      else posted.push(req.postData() ?? "");
    });
    const loadsBefore = fake.scriptLoads;
    const res = await page.goto(`${svc.baseUrl}/checkout/${s.offerId}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('[name="card_number"]').count()).toBe(0);
    await page.waitForSelector('#card-element[data-stripe-mounted="true"] iframe', { timeout: 5_000 });
    expect(fake.scriptLoads).toBe(loadsBefore + 1);

    await page.fill('[name="name"]', "Maria Silva");
    await page.fill('[name="email"]', `stripe-browser-${Date.now()}@example.com`);
    await page.fill('[name="phone"]', "11987654321");
    await page.fill('[name="doc"]', "529.982.247-25");
    await page.check('[name="method"][value="card"]');
    // The card number goes into the provider's frame (another origin), never into our form.
    const frame = page.frameLocator('#card-element iframe');
    await frame.locator('input[name="cardnumber"]').fill("4242 4242 4242 4242");
    await submitAndLoad(page, () => page.click('form.card button[type="submit"]'));
    await page.waitForSelector("h1");
    expect(await page.textContent("h1")).toBe("Assinatura ativa");

    // The one form post carried a pm_ id and no card data.
    const form = posted.map((p) => new URLSearchParams(p)).find((p) => p.has("payment_method_id"));
    // A fresh PaymentMethod made by the provider's frame (as Stripe.js does), never a name we could guess.
    expect(form?.get("payment_method_id")).toMatch(/^pm_[A-Za-z0-9]+$/);
    expect(fake.paymentMethods.get(form!.get("payment_method_id")!)).toMatchObject({ card: { last4: "4242" } });
    expect(posted.join("\n")).not.toMatch(/4242|card_number|card_cvc/);
    expect(toProvider.join("\n")).toContain("card%5Bnumber%5D=4242424242424242");

    // Server side: an active subscription whose card is a Stripe customer + pm, charged once under our key.
    const prisma = svc.runtime.db.prisma;
    const sub = await prisma.subscription.findFirstOrThrow({ where: { tenantId: s.t.tenantId }, include: { paymentMethod: true } });
    expect(sub.status).toBe("ACTIVE");
    const customerId = sub.paymentMethod!.token!.split("|")[0]!;
    expect(fake.customers.has(customerId)).toBe(true);
    const invoice = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(fake.chargesFor(`${invoice.id}:1`)).toBe(1);
    expect(fake.requests.some((q) => q.method === "POST" && q.path === "/v1/setup_intents" && q.idempotencyKey)).toBe(true);

    expect(blocked).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  it("with JavaScript off the Stripe page still offers Pix, and the card box explains why it needs JavaScript", async () => {
    const s = await stripeOffer(fake);
    const context = await browser().newContext({ javaScriptEnabled: false, locale: "pt-BR" });
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/checkout/${s.offerId}`);
    expect(await page.locator('[name="method"][value="pix"]').count()).toBe(1);
    expect(await page.locator("noscript").count()).toBe(1);
    await context.close();
  });
});
