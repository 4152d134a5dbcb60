// API8 (security misconfiguration) and CSRF on the hosted pages: helmet's headers on every page state,
// a CSP with no script source at all, and cross-site browser POSTs refused while server-side clients
// (no Origin, no Sec-Fetch-Site) keep posting the contract's fields directly.
import { describe, expect, it } from "vitest";
import { isCrossSitePost } from "../../web/hosted/same-origin-post.ts";
import { advanceClock, CARDS, CPF, subscribe } from "../helpers/billing.ts";
import { post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, plusDays, tokenOf } from "../links/pay-helpers.ts";

const PUBLIC_URL = "http://localhost"; // the shared test service's PUBLIC_URL

async function fetchPage(path: string, init: { method?: string; form?: Record<string, string>; raw?: string; headers?: Record<string, string> } = {}) {
  const { baseUrl } = await testService();
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.form ? "POST" : "GET"),
    headers: { ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...init.headers },
    body: init.form ? new URLSearchParams(init.form).toString() : init.raw,
    redirect: "manual",
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const FORM = (over: Record<string, string> = {}) => ({
  name: "Maria Silva",
  email: `m-${Math.random().toString(36).slice(2)}@example.com`,
  phone: "11987654321",
  doc: CPF,
  method: "card",
  ...CARD(CARDS.ok),
  ...over,
});

/** The headers every hosted HTML page carries, whatever its state. */
function expectHostedHeaders(label: string, r: { status: number; headers: Headers; text: string }) {
  const h = (n: string) => r.headers.get(n);
  const csp = h("content-security-policy") ?? "";
  const directives = new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
  expect({ label, type: h("content-type") }).toEqual({ label, type: "text/html; charset=utf-8" });
  // A Pix page follows its payment with our own script (/pix/follow.js) polling our own status route, and
  // a checkout form with a coupon field posts "Aplicar" with our own /checkout/coupon.js: 'self' for
  // scripts and fetches there, nothing inline. Every other page has no script source at all.
  const ownScript = label.startsWith("pix") ? '<script src="/pix/follow.js" defer>' : label.startsWith("checkout ") ? '<script src="/checkout/coupon.js" defer>' : null;
  const follows = ownScript !== null;
  expect({ label, csp: Object.fromEntries(directives) }).toEqual({
    label,
    csp: {
      "default-src": ["'none'"],
      "style-src": ["'unsafe-inline'"],
      "img-src": ["'self'", PUBLIC_URL],
      "form-action": ["'self'"],
      "base-uri": ["'none'"],
      "frame-ancestors": ["'none'"],
      ...(follows ? { "script-src": ["'self'"], "connect-src": ["'self'"] } : {}),
    },
  });
  expect(csp).not.toMatch(/unsafe-eval|unsafe-inline'?\s*;?\s*script|nonce-|sha256-/);
  if (!follows) expect(csp).not.toMatch(/script-src/);
  expect({ label, xfo: h("x-frame-options"), nosniff: h("x-content-type-options"), referrer: h("referrer-policy") }).toEqual({
    label,
    xfo: "DENY",
    nosniff: "nosniff",
    referrer: "no-referrer",
  });
  expect(h("cache-control")).toBe("no-store");
  expect(h("cross-origin-opener-policy")).toBe("same-origin");
  expect(h("cross-origin-resource-policy")).toBe("same-origin");
  expect(h("strict-transport-security")).toMatch(/^max-age=\d+/);
  expect(h("x-powered-by")).toBeNull();
  // The pages hold no inline script, no inline handler and no javascript: URL; a Pix or checkout page loads one file of ours.
  const scripts = [...r.text.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
  expect({ label, scripts }).toEqual({ label, scripts: ownScript ? [ownScript] : [] });
  expect(r.text).not.toMatch(/<script\b[^>]*>[^<]|\son[a-z]+\s*=|javascript:/i);
}

describe("hosted page headers (helmet)", () => {
  it("are set on every checkout state: page, refusal, card and Pix results, 404, 415 and the 403 of a forged post", async () => {
    const t = await newTenant();
    const states: [string, Awaited<ReturnType<typeof fetchPage>>, number][] = [
      ["checkout page", await fetchPage(`/checkout/${t.monthlyOfferId}?utm_source=x`), 200],
      ["checkout refusal", await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM({ doc: "1" }) }), 422],
      ["checkout declined", await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM({ card_number: CARDS.declined }) }), 422],
      ["card result", await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM() }), 201],
      ["pix result", await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM({ method: "pix" }) }), 201],
      ["unknown offer", await fetchPage(`/checkout/offer_01ARZ3NDEKTSV4RRFFQ69G5FAV`), 404],
      ["unreadable form", await fetchPage(`/checkout/${t.monthlyOfferId}`, { method: "POST", raw: "x", headers: { "content-type": "text/plain" } }), 415],
      ["forged post", await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM(), headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } }), 403],
    ];
    for (const [label, r, status] of states) {
      expect({ label, status: r.status }).toEqual({ label, status });
      expectHostedHeaders(label, r);
    }
  });

  it("are set on every /pay state: open link, refusal, result, 404, 410 expired and used, and the 403 of a forged post", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const mint = async () => tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    const used = await mint();
    const states: [string, Awaited<ReturnType<typeof fetchPage>>, number][] = [
      ["pay page", await fetchPage(`/pay/${used}`), 200],
      ["pay refusal", await fetchPage(`/pay/${used}`, { form: CARD(CARDS.declined) }), 422],
      ["forged pay post", await fetchPage(`/pay/${used}`, { form: CARD("5555555555554444"), headers: { origin: "null" } }), 403],
      ["pay result", await fetchPage(`/pay/${used}`, { form: CARD("5555555555554444") }), 200],
      ["used link", await fetchPage(`/pay/${used}`), 410],
      ["unknown link", await fetchPage(`/pay/pl_doesnotexist0000000000000000000`), 404],
    ];
    const expired = await mint();
    await advanceClock(t, plusDays(new Date().toISOString(), 8));
    states.push(["expired link", await fetchPage(`/pay/${expired}`), 410]);
    for (const [label, r, status] of states) {
      expect({ label, status: r.status }).toEqual({ label, status });
      expectHostedHeaders(label, r);
    }
  });

  it("leave the Pix QR image embeddable by tenants' pages, without sniffing", async () => {
    const t = await newTenant();
    const pix = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const { baseUrl } = await testService();
    const res = await fetch(`${baseUrl}${new URL(pix.pix!.qr_png_url).pathname}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cross-origin-resource-policy")).toBeNull();
  });

  it("serve the /favicon.ico that browsers ask for on every page load (it was a 404): a 16x16 icon, cached, from 'self'", async () => {
    const t = await newTenant();
    const page = await fetchPage(`/checkout/${t.monthlyOfferId}`);
    // The icon's origin is the page's own, which the CSP's img-src allows.
    expect(page.headers.get("content-security-policy")).toMatch(/img-src 'self'/);
    const { baseUrl } = await testService();
    // As a browser fetches it: no-cors, an image destination, the page's origin.
    const res = await fetch(`${baseUrl}/favicon.ico`, { headers: { "sec-fetch-dest": "image", "sec-fetch-mode": "no-cors", "sec-fetch-site": "same-origin" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d{4,}/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const ico = Buffer.from(await res.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image of 16x16 at 32 bits whose bytes are all there.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4), ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([0, 1, 1, 16, 16, 32]);
    expect(ico.readUInt32LE(18) + ico.readUInt32LE(14)).toBe(ico.length);
  });
});

describe("CSRF on POST /checkout/{offer_id} and POST /pay/{token}", () => {
  const CROSS: [string, Record<string, string>][] = [
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["cross-site with a same-origin-looking Origin", { "sec-fetch-site": "cross-site", origin: PUBLIC_URL }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["a same-site but other-origin Origin", { "sec-fetch-site": "same-site", origin: "http://shop.localhost" }],
    ["Origin: null", { origin: "null" }],
    ["a malformed Origin", { origin: "not a url" }],
  ];

  it("refuses cross-site browser posts with 403 cross_site_request, in JSON and as a page, before anything is written", async () => {
    const t = await newTenant();
    const svc = await testService();
    const customers = () => svc.runtime.db.prisma.customer.count({ where: { tenantId: t.tenantId } });
    for (const [label, headers] of CROSS) {
      const json = await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM(), headers: { ...headers, accept: "application/json" } });
      expect({ label, status: json.status, body: JSON.parse(json.text) }).toEqual({
        label,
        status: 403,
        body: { error: "este formulário só pode ser enviado pela própria página de pagamento", code: "cross_site_request" },
      });
      const page = await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM(), headers });
      expect({ label, status: page.status }).toEqual({ label, status: 403 });
      expect(page.text).toContain("Envio bloqueado");
    }
    expect(await customers()).toBe(0);

    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    for (const [label, headers] of CROSS) {
      const r = await fetchPage(`/pay/${token}`, { form: CARD("5555555555554444"), headers: { ...headers, accept: "application/json" } });
      expect({ label, status: r.status, code: JSON.parse(r.text).code }).toEqual({ label, status: 403, code: "cross_site_request" });
    }
    // The link is still open: nothing was spent by the forged posts.
    expect((await fetchPage(`/pay/${token}`)).status).toBe(200);
  });

  it("keeps same-origin browser posts and server-side clients (no Origin, no Fetch Metadata) working", async () => {
    const t = await newTenant();
    const { baseUrl } = await testService();
    const ok: [string, Record<string, string>][] = [
      ["server-side client", {}],
      ["same-origin by Fetch Metadata", { "sec-fetch-site": "same-origin", origin: baseUrl }],
      // What Chromium sends for the page's own form under Referrer-Policy: no-referrer.
      ["same-origin by Fetch Metadata with Origin: null", { "sec-fetch-site": "same-origin", origin: "null" }],
      ["Origin of the Host it came to", { origin: baseUrl }],
      ["Origin of PUBLIC_URL", { origin: PUBLIC_URL }],
      ["user-initiated (Sec-Fetch-Site: none)", { "sec-fetch-site": "none" }],
    ];
    for (const [label, headers] of ok) {
      const r = await fetchPage(`/checkout/${t.monthlyOfferId}`, { form: FORM(), headers: { ...headers, accept: "application/json" } });
      expect({ label, status: r.status }).toEqual({ label, status: 201 });
    }
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    const paid = await fetchPage(`/pay/${token}`, { form: CARD("5555555555554444"), headers: { origin: baseUrl, "sec-fetch-site": "same-origin", accept: "application/json" } });
    expect(paid.status).toBe(200);
  });

  it("decides from the headers alone (unit)", () => {
    const req = (h: Record<string, string>) => ({ get: (n: string) => h[n.toLowerCase()] }) as never;
    const pub = "https://pay.example.com";
    expect(isCrossSitePost(req({}), pub)).toBe(false);
    expect(isCrossSitePost(req({ origin: "https://pay.example.com" }), pub)).toBe(false);
    expect(isCrossSitePost(req({ origin: "http://10.0.0.5:3000", host: "10.0.0.5:3000" }), pub)).toBe(false);
    expect(isCrossSitePost(req({ origin: "https://pay.example.com.evil.io", host: "pay.example.com" }), pub)).toBe(true);
    expect(isCrossSitePost(req({ origin: "http://pay.example.com", host: "other" }), pub)).toBe(true); // scheme differs from PUBLIC_URL
    expect(isCrossSitePost(req({ "sec-fetch-site": "same-site" }), pub)).toBe(true);
    expect(isCrossSitePost(req({ "sec-fetch-site": "CROSS-SITE", origin: pub }), pub)).toBe(true);
  });
});
