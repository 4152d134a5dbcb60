// Issue 18 items 2 and 3 in Chromium, against the fake's Stripe.js stand-in: /pay takes the card in the
// provider's frame for a Stripe subscription (card change, renewal) and for a gateway-migration link
// whose TARGET is a Stripe account; 3-D Secure at checkout runs Stripe's challenge in the browser
// (confirmCardSetup) and completes on our server, or fails when the payer cancels. Every request that is
// neither to our service nor to the fake is aborted; the page's CSP must let exactly the fake in.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { advanceClock, subscribe } from "../helpers/billing.ts";
import { call, post } from "../helpers/http.ts";
import type { TestService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { startStripeTestbed, stripeOffer, type StripeOffer } from "../helpers/stripe.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

interface Watched {
  context: BrowserContext;
  page: Page;
  /** Bodies of the form posts to our service. */
  posted: string[];
  blocked: string[];
  cspErrors: string[];
}

const email = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function stripeSubscription(s?: StripeOffer): Promise<StripeOffer & { subscriptionId: string }> {
  s ??= await stripeOffer(fake);
  const r = await call("POST", `/checkout/${s.offerId}`, {
    as: "json",
    headers: { accept: "application/json" },
    body: { name: "Maria Silva", email: email("pay-browser"), phone: "11987654321", doc: "52998224725", method: "card", payment_method_id: "pm_card_visa" },
  });
  expect(r.status).toBe(201);
  return { ...s, subscriptionId: r.body.subscription_id };
}

describe.skipIf(!hasChromium)("Stripe.js on /pay and 3-D Secure in a browser (stand-in)", () => {
  const browser = useBrowser();

  async function watch(): Promise<Watched> {
    const allowed = [new URL(svc.baseUrl).origin, new URL(fake.url).origin];
    const context = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale: "pt-BR" });
    const w: Watched = { context, page: undefined as unknown as Page, posted: [], blocked: [], cspErrors: [] };
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("data:") || url === "about:blank" || allowed.includes(new URL(url).origin)) return route.continue();
      w.blocked.push(url);
      return route.abort();
    });
    w.page = await context.newPage();
    w.page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) w.cspErrors.push(m.text());
    });
    w.page.on("request", (req) => {
      if (req.method() === "POST" && req.url().startsWith(svc.baseUrl)) w.posted.push(req.postData() ?? "");
    });
    return w;
  }

  async function openMounted(w: Watched, path: string) {
    const res = await w.page.goto(`${svc.baseUrl}${path}`);
    expect(res?.status()).toBe(200);
    expect(await w.page.locator('[name="card_number"]').count()).toBe(0);
    await w.page.waitForSelector('#card-element[data-stripe-mounted="true"] iframe', { timeout: 5_000 });
  }

  async function typeCardAndSubmit(w: Watched, number: string) {
    await w.page.frameLocator("#card-element iframe").locator('input[name="cardnumber"]').fill(number);
    await submitAndLoad(w.page, () => w.page.click('button[type="submit"]:not(:has-text("Aplicar"))'));
  }

  /** Only pm_ ids (and the 3-D Secure handle) left the page: never a card number, expiry or CVC. */
  function expectOnlyTokensPosted(w: Watched) {
    const all = w.posted.join("\n");
    expect(all).not.toMatch(/card_number|card_cvc|card_exp|4242|3155|4444/);
    expect(w.posted.map((p) => new URLSearchParams(p)).some((p) => /^pm_/.test(p.get("payment_method_id") ?? ""))).toBe(true);
    expect(w.blocked).toEqual([]);
    expect(w.cspErrors).toEqual([]);
  }

  it("/pay card change at Stripe: the card typed in the provider's frame, only a pm_ posted, the card saved at the fake", async () => {
    const s = await stripeSubscription();
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    const w = await watch();
    await openMounted(w, new URL(link.body.url).pathname);
    await typeCardAndSubmit(w, "5555 5555 5555 4444");
    await w.page.waitForSelector("h1");
    expect(await w.page.textContent("h1")).toBe("Cartão atualizado");
    const sub = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: s.subscriptionId }, include: { paymentMethod: true } });
    expect(sub.paymentMethod).toMatchObject({ brand: "mastercard", last4: "4444" });
    expectOnlyTokensPosted(w);
    await w.context.close();
  });

  it("/pay renewal by card at Stripe: paid through the provider's frame, the period extended", async () => {
    const s = await stripeSubscription();
    const before = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: s.subscriptionId } });
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/renewal-link`, s.t.writeKey, {});
    const w = await watch();
    await openMounted(w, new URL(link.body.url).pathname);
    await w.page.check('[name="method"][value="card"]');
    await typeCardAndSubmit(w, "4242 4242 4242 4242");
    await w.page.waitForSelector("h1");
    expect(await w.page.textContent("h1")).toBe("Renovação confirmada");
    const after = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: s.subscriptionId } });
    expect(after.currentPeriodEnd!.getTime()).toBeGreaterThan(before.currentPeriodEnd!.getTime());
    expectOnlyTokensPosted(w);
    await w.context.close();
  });

  it("a migration link to a Stripe account: the target's Stripe.js, only a pm_ reaches our server, the card saved at the target", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-01T00:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId);
    await advanceClock(t, "2027-03-11T06:00:00.000Z");
    const target = await stripeOffer(fake, undefined, t);
    const change = await changePlan(t, sub.subscription_id, { offer_id: target.offerId });
    const w = await watch();
    await openMounted(w, new URL(change.body.plan_change.payment_link.url).pathname);
    await typeCardAndSubmit(w, "4242 4242 4242 4242");
    await w.page.waitForSelector("h1");
    expect(await w.page.textContent("h1")).toBe("Pagamento aprovado");
    const moved = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: sub.subscription_id }, include: { paymentMethod: true } });
    expect(moved.offerId).toBe(target.offerId);
    expect(moved.paymentMethod!.gatewayAccountId).toBe(target.accountId);
    expectOnlyTokensPosted(w);
    await w.context.close();
  });

  it("/pay card change with 3-D Secure: Stripe's challenge in the page, then the authenticated card saved", async () => {
    const s = await stripeSubscription();
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    const w = await watch();
    await openMounted(w, new URL(link.body.url).pathname);
    await typeCardAndSubmit(w, "4000 0025 0000 3155");
    const challenge = w.page.frameLocator('iframe[name="stripe-challenge-frame"]');
    await challenge.locator("#complete").waitFor({ timeout: 15_000 });
    await submitAndLoad(w.page, () => challenge.locator("#complete").click());
    await w.page.waitForSelector("h1");
    expect(await w.page.textContent("h1")).toBe("Cartão atualizado");
    const sub = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: s.subscriptionId }, include: { paymentMethod: true } });
    expect(sub.paymentMethod!.last4).toBe("3155");
    expectOnlyTokensPosted(w);
    await w.context.close();
  });

  async function checkoutWith3ds(w: Watched, s: StripeOffer, outcome: "complete" | "fail") {
    await openMounted(w, `/checkout/${s.offerId}`);
    await w.page.fill('[name="name"]', "Maria Silva");
    await w.page.fill('[name="email"]', email("3ds-browser"));
    await w.page.fill('[name="phone"]', "11987654321");
    await w.page.fill('[name="doc"]', "529.982.247-25");
    await w.page.check('[name="method"][value="card"]');
    await typeCardAndSubmit(w, "4000 0025 0000 3155");
    // Our server answered requires_action: the page runs Stripe's challenge (the issuer's page in a frame).
    const challenge = w.page.frameLocator('iframe[name="stripe-challenge-frame"]');
    await challenge.locator(`#${outcome}`).waitFor({ timeout: 15_000 });
    if (outcome === "complete") {
      await submitAndLoad(w.page, () => challenge.locator("#complete").click());
      await w.page.waitForSelector("h1");
    } else {
      await challenge.locator("#fail").click();
      await w.page.waitForFunction(() => /autenticação do cartão não foi concluída/.test(document.getElementById("e-card-element")?.textContent ?? ""), undefined, { timeout: 15_000 });
    }
  }

  it("3-D Secure at checkout, completed: Stripe's challenge in the browser, then the subscription is active on the authenticated card", async () => {
    const s = await stripeOffer(fake);
    const w = await watch();
    await checkoutWith3ds(w, s, "complete");
    expect(await w.page.textContent("h1")).toBe("Assinatura ativa");
    const sub = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { tenantId: s.t.tenantId }, include: { paymentMethod: true } });
    expect(sub.status).toBe("ACTIVE");
    expect(sub.paymentMethod!.last4).toBe("3155");
    // The card's token and handle are no attribution: never kept in the tracking params.
    expect(JSON.stringify(sub.tracking)).not.toMatch(/payment_method_id|authentication_id|pm_|seti_/);
    // Two posts: the pm_ (answered requires_action), then the SetupIntent's pm_ with the authenticated handle.
    const forms = w.posted.map((p) => new URLSearchParams(p));
    expect(forms.filter((p) => p.has("payment_method_id"))).toHaveLength(2);
    expect(forms.at(-1)!.get("authentication_id")).toMatch(/^seti_[A-Za-z0-9]+_secret_/);
    expectOnlyTokensPosted(w);
    await w.context.close();
  });

  it("3-D Secure at checkout, cancelled by the payer: an error in the card box, nothing saved, and another card still subscribes", async () => {
    const s = await stripeOffer(fake);
    const w = await watch();
    await checkoutWith3ds(w, s, "fail");
    expect(await svc.runtime.db.prisma.subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    const posts = w.posted.length;
    expect(posts).toBe(1); // the failed challenge posts nothing
    await typeCardAndSubmit(w, "4242 4242 4242 4242");
    await w.page.waitForSelector("h1");
    expect(await w.page.textContent("h1")).toBe("Assinatura ativa");
    expectOnlyTokensPosted(w);
    await w.context.close();
  });
});
