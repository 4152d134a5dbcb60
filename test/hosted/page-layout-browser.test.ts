// The hosted pages' layout in Chromium at 360 px (a phone) and 1280 px (a desktop): checkout, Pix,
// result, /pay and the LIVE gate. Layout invariants, not pixels: nothing is wider than the screen, no
// text is smaller than 12 px, buttons are at least 44 px tall, every page but the gate has the order
// summary, and what is charged is on the first screen (before paying: the summary itself). Pixel baselines would compare the machine's fonts (the pages
// use system-ui) and its Chromium's rasterizer more than our pages, so they would fail on a clean CI
// machine for no fault of ours (docs/testing.md). With SAVE_SCREENSHOTS=1 the run also writes
// docs/screenshots/<page>-<width>.png, the pictures the docs show, from a fixed clock and fixed data.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { advanceClock, subscribe } from "../helpers/billing.ts";
import { hasChromium, submitAndLoad, useBrowser } from "../helpers/browser.ts";
import { op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { tokenOf } from "../links/pay-helpers.ts";

const SHOTS = process.env.SAVE_SCREENSHOTS ? join(import.meta.dirname, "../../docs/screenshots") : null;
const WIDTHS = [
  { width: 360, height: 640, isMobile: true },
  { width: 1280, height: 800, isMobile: false },
];
const PROFILE = {
  legalName: "Loja Exemplo Comércio Digital Ltda.",
  cnpj: "11.222.333/0001-81",
  supportEmail: "ajuda@loja.example",
  supportPhone: "(11) 3003-4000",
  address: "Rua Augusta, 500, São Paulo - SP, 01304-000",
  termsUrl: "https://loja.example/termos",
  privacyUrl: "https://loja.example/privacidade",
};
const UPDATE = `mutation($t: ID!, $i: TenantProfileInput!) { updateTenantProfile(tenantId: $t, input: $i) { id } }`;

interface Layout {
  overflow: number;
  wide: string[];
  tiny: string[];
  shortButtons: string[];
  summaryTop: number | null;
  /** Bottom of the first element whose text starts with the figure the page must show on its first screen. */
  figureBottom: number | null;
  viewport: number;
}

/** Measured in the page: what sticks out, what is too small, where the summary and "Cobrado hoje" are. */
function measure(page: Page, figure: string): Promise<Layout> {
  return page.evaluate((figure) => {
    const vw = document.documentElement.clientWidth;
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${e.getAttribute("name") ? `[name=${e.getAttribute("name")}]` : ""}`;
    const shown = [...document.querySelectorAll("body *")].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
    });
    const wide = shown.filter((e) => {
      const r = e.getBoundingClientRect();
      return r.right > vw + 0.5 || r.left < -0.5;
    });
    const tiny = shown.filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()) && parseFloat(getComputedStyle(e).fontSize) < 12);
    const shortButtons = shown.filter((e) => e.tagName === "BUTTON" && e.getBoundingClientRect().height < 44);
    const summary = document.querySelector('section[aria-labelledby="order-summary"]');
    const first = [...document.querySelectorAll(figure === "Cobrado hoje" ? ".sum-row" : "main p")].find((r) => (r.textContent ?? "").startsWith(figure));
    return {
      overflow: document.documentElement.scrollWidth - vw,
      wide: wide.map(name),
      tiny: tiny.map(name),
      shortButtons: shortButtons.map(name),
      summaryTop: summary ? summary.getBoundingClientRect().top : null,
      figureBottom: first ? first.getBoundingClientRect().bottom : null,
      viewport: window.innerHeight,
    };
  }, figure);
}

/**
 * `figure`: the text that must be on the first screen, before any scrolling: the summary's "Cobrado hoje"
 * before paying (checkout, /pay), the amount of a Pix to pay, what a result page says was charged. The
 * order summary is on each of those pages; the LIVE gate (`figure` null) has none.
 */
async function check(page: Page, label: string, figure: string | null) {
  const l = await measure(page, figure ?? "");
  expect({ label, overflow: Math.max(0, l.overflow), wide: l.wide, tiny: l.tiny, shortButtons: l.shortButtons }).toEqual({ label, overflow: 0, wide: [], tiny: [], shortButtons: [] });
  if (figure) {
    expect({ label, summary: l.summaryTop !== null, figureOnFirstScreen: l.figureBottom !== null && l.figureBottom <= l.viewport }).toEqual({ label, summary: true, figureOnFirstScreen: true });
  } else {
    expect({ label, summary: l.summaryTop }).toEqual({ label, summary: null });
  }
  if (figure === "Cobrado hoje") expect({ label, summaryOnFirstScreen: l.summaryTop! < l.viewport }).toEqual({ label, summaryOnFirstScreen: true });
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${label}.png`), fullPage: true, animations: "disabled", caret: "hide" });
  }
}

async function fillCheckout(page: Page, email: string, method: "card" | "pix") {
  const fields: Record<string, string> = { name: "Maria Silva", email, phone: "11987654321", doc: "529.982.247-25" };
  if (method === "card") Object.assign(fields, { card_holder: "MARIA SILVA", card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" });
  for (const [name, value] of Object.entries(fields)) await page.fill(`#pay-form [name="${name}"]`, value);
  await page.check(`[name="method"][value="${method}"]`);
  await submitAndLoad(page, () => page.click('button:has-text("Assinar")'));
}

describe.skipIf(!hasChromium)("hosted page layout at 360 px and 1280 px", () => {
  const browser = useBrowser();

  /** A seller with a fixed name, profile, coupon and clock: the pages show the same text on every run. */
  async function fixedSeller(): Promise<TestTenant> {
    const t = await newTenant();
    const { runtime } = await testService();
    await runtime.db.prisma.tenant.update({ where: { id: t.tenantId }, data: { name: "Loja Exemplo" } });
    await op(UPDATE, { t: t.tenantId, i: PROFILE });
    await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "BEMVINDO10", percentOff: 10, cycles: 3) { id } }`, { t: t.tenantId });
    await advanceClock(t, "2027-03-10T13:00:00.000Z");
    return t;
  }

  async function pages(b: Browser, size: (typeof WIDTHS)[number], t: TestTenant, gate: TestTenant, renewalToken: string) {
    const { baseUrl } = await testService();
    const context = await b.newContext({ viewport: { width: size.width, height: size.height }, isMobile: size.isMobile, locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
    const page = await context.newPage();
    const w = size.width;

    await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}?coupon=BEMVINDO10`);
    await check(page, `checkout-${w}`, "Cobrado hoje");
    await fillCheckout(page, `pix-${w}@example.com`, "pix");
    expect(await page.textContent("h1")).toBe("Pague com Pix para ativar");
    await check(page, `pix-${w}`, "R$");

    await page.goto(`${baseUrl}/checkout/${t.monthlyOfferId}?coupon=BEMVINDO10`);
    await fillCheckout(page, `card-${w}@example.com`, "card");
    expect(await page.textContent("h1")).toBe("Assinatura ativa");
    await check(page, `result-${w}`, "Cobrado hoje: R$");

    await page.goto(`${baseUrl}/pay/${renewalToken}`);
    expect(await page.textContent("h1")).toBe("Renove sua assinatura");
    await check(page, `pay-${w}`, "Cobrado hoje");

    const refused = await page.goto(`${baseUrl}/checkout/${gate.monthlyOfferId}`);
    expect(refused?.status()).toBe(403);
    expect(await page.textContent("h1")).toBe("Pagamento indisponível");
    await check(page, `live-gate-${w}`, null);
    await context.close();
  }

  it("checkout, Pix, result, /pay and the LIVE gate: nothing sticks out, and what is charged is on the first screen", async () => {
    const t = await fixedSeller();
    const gate = await newTenant({ mode: "LIVE", withoutProfile: true });
    const { subscription_id: id } = await subscribe(t.monthlyOfferId, { coupon: "BEMVINDO10", email: "renova@example.com", external_id: "renova" });
    const renewalToken = tokenOf((await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey)).body.url);
    for (const size of WIDTHS) await pages(browser(), size, t, gate, renewalToken);
  }, 180_000);
});
