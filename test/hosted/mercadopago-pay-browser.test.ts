// /pay at Mercado Pago in Chromium (issue 19): on an account without Automatic Payments the renewal of the
// card on file is declined (security_code_required); the customer opens the payment-method link, types the
// card in the fake's MercadoPago.js stand-in (Secure Fields, holder name and CPF in the card box, none posted),
// and the open invoice is paid with it (Mercado Pago captures a card only with a payment). Every request that
// is neither to our service nor to the fake is aborted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { advanceClock } from "../helpers/billing.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { post } from "../helpers/http.ts";
import { mercadopagoCardOf, mercadopagoSubscription, startMercadoPagoTestbed, subscriptionOf } from "../helpers/mercadopago.ts";
import type { TestService } from "../helpers/service.ts";

let fake: FakeMercadoPago;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startMercadoPagoTestbed()));
afterAll(() => fake?.close());

describe.skipIf(!hasChromium)("/pay at Mercado Pago in a browser (MercadoPago.js stand-in)", () => {
  const browser = useBrowser();

  it("a declined renewal's open invoice paid on the payment-method link with a card typed in the provider's frames", async () => {
    const s = await mercadopagoSubscription(fake, { holder: "APRO" });
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    fake.automaticPayments = false;
    try {
      await advanceClock(s.t, due);
    } finally {
      fake.automaticPayments = true;
    }
    expect((await subscriptionOf(s.t.readKey, s.subscriptionId)).status).toBe("past_due");
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    const url = `${svc.baseUrl}${new URL(link.body.url).pathname}`;

    const allowed = [new URL(svc.baseUrl).origin, new URL(fake.url).origin];
    const context = await browser().newContext({ locale: "pt-BR" });
    const blocked: string[] = [];
    const posted: string[] = [];
    const cspErrors: string[] = [];
    await context.route("**/*", (route) => {
      const u = route.request().url();
      if (u.startsWith("data:") || u === "about:blank" || allowed.includes(new URL(u).origin)) return route.continue();
      blocked.push(u);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("console", (m) => void (/Content Security Policy/i.test(m.text()) && cspErrors.push(m.text())));
    page.on("request", (req) => void (req.method() === "POST" && new URL(req.url()).origin === new URL(svc.baseUrl).origin && posted.push(req.postData() ?? "")));
    expect((await page.goto(url))?.status()).toBe(200);
    await page.waitForSelector('#mp-securityCode[data-mp-mounted="securityCode"] iframe', { timeout: 5_000 });
    await page.fill("#mp-cardholder-name", "APRO");
    await page.fill("#mp-identification-number", "529.982.247-25");
    await page.frameLocator("#mp-cardNumber iframe").locator("input").fill("4235 6477 2802 5682");
    await page.frameLocator("#mp-expirationDate iframe").locator("input").fill("11/30");
    await page.frameLocator("#mp-securityCode iframe").locator("input").fill("123");
    await submitAndLoad(page, () => page.click('button[type="submit"]'));
    await page.waitForSelector("h1");
    expect(await page.textContent("h1")).toBe("Pagamento aprovado");

    const form = posted.map((p) => new URLSearchParams(p)).find((p) => p.has("mercadopago_token"));
    expect(form?.get("mercadopago_token")).toMatch(/^[0-9a-f]{32}$/);
    expect(posted.join("\n")).not.toMatch(/4235|5682|52998224725|card_number|card_cvc/);
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(sub).toMatchObject({ status: "active", payment_method: { brand: "visa", last4: "5682" } });
    const saved = (await svc.runtime.db.prisma.subscription.findUniqueOrThrow({ where: { id: s.subscriptionId }, include: { paymentMethod: true } })).paymentMethod!.token!;
    expect(mercadopagoCardOf(fake, saved)?.cardholder).toMatchObject({ name: "APRO", identification: { type: "CPF", number: "52998224725" } });
    expect(blocked).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
