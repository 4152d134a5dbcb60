// The tracking object of a checkout link: utm fields, referrer, landing_url and params, never personal data.
import { describe, expect, it } from "vitest";
import { captureTracking, trackingFromForm, trackingHiddenFields } from "../../../core/checkout/tracking.ts";

const NOW = new Date("2026-03-15T12:00:00Z");
const BASE = "https://pay.example.com/checkout/offer_01ARZ3NDEKTSV4RRFFQ69G5FAV";

function capture(query: Record<string, string>, referer: string | null = null) {
  const url = `${BASE}?${new URLSearchParams(query).toString()}`;
  return captureTracking({ query, referer, url, now: NOW });
}

describe("captureTracking", () => {
  it("fills the contract's fields from the link and the Referer header", () => {
    const t = capture(
      { utm_source: "instagram", utm_medium: "social", utm_campaign: "bf26", utm_term: "plano pro", utm_content: "story-1", gclid: "Cj0KCQ", fbclid: "IwAR3x", fbc: "fb.1.1554763741205.AbCdEf", fbp: "fb.1.1596403881668.1116446470" },
      "https://www.instagram.com/",
    );
    expect(t).toEqual({
      utm_source: "instagram",
      utm_medium: "social",
      utm_campaign: "bf26",
      utm_term: "plano pro",
      utm_content: "story-1",
      gclid: "Cj0KCQ",
      fbclid: "IwAR3x",
      fbc: "fb.1.1554763741205.AbCdEf",
      fbp: "fb.1.1596403881668.1116446470",
      referrer: "https://www.instagram.com/",
      landing_url: expect.stringContaining("utm_source=instagram"),
      params: {},
      captured_at: "2026-03-15T12:00:00.000Z",
      inherited: false,
    });
  });

  it("is null without any context, even when the link prefills the customer", () => {
    expect(capture({})).toBeNull();
    expect(capture({ email: "maria@example.com", name: "Maria", external_id: "u-1", coupon: "OFF10", ref: "MARIA10", utm_source: "  " })).toBeNull();
  });

  it("keeps a referrer alone, without its personal parameters", () => {
    const t = capture({}, "https://blog.example.com/post?id=7&email=maria%40example.com#top");
    expect(t?.referrer).toBe("https://blog.example.com/post?id=7");
    expect(t?.params).toEqual({});
    expect(capture({}, "not a url")).toBeNull();
    expect(capture({}, "javascript:alert(1)")).toBeNull();
  });

  it("sends other parameters to params, but never the checkout's own fields or personal data", () => {
    const t = capture({
      utm_source: "google",
      adset_name: "lookalike",
      nome_campanha: "verao",
      gad_campaignid: "21234567890",
      ad_id: "238512345678901234",
      promo: "",
      // the checkout's own fields
      external_id: "u-1",
      email: "maria@example.com",
      name: "Maria",
      phone: "11987654321",
      doc: "52998224725",
      cpf: "52998224725",
      cnpj: "11222333000181",
      card_number: "4242424242424242",
      card_cvc: "123",
      method: "pix",
      coupon: "OFF10",
      ref: "MARIA10",
      // personal data by name
      first_name: "Maria",
      nome: "Maria",
      telefone: "x",
      whatsapp: "x",
      customerEmail: "x",
      user_agent: "Mozilla",
      ip: "203.0.113.9",
      cep: "01310-100",
      // personal data by value
      contato: "maria@example.com",
      q: "(11) 98765-4321",
      x: "529.982.247-25",
      y: "52998224725",
      z: "11987654321",
      w: "11.222.333/0001-81",
      // the tracking object's own keys cannot be smuggled in
      referrer: "https://evil.example/",
      landing_url: "https://evil.example/",
      captured_at: "2020-01-01T00:00:00Z",
      inherited: "true",
    });
    // ad_id: 18 digits read as a card number whatever Luhn says; shorter ids stay.
    expect(t?.params).toEqual({ adset_name: "lookalike", nome_campanha: "verao", gad_campaignid: "21234567890", promo: "" });
    expect(t?.referrer).toBeNull();
    expect(t?.captured_at).toBe("2026-03-15T12:00:00.000Z");
    expect(t?.inherited).toBe(false);
    expect(JSON.stringify(t)).not.toMatch(/maria@|Maria"|98765|52998224725|529\.982|11222333000181|4242|Mozilla|203\.0\.113|01310/);
  });

  it("builds landing_url from the full URL minus personal data", () => {
    const t = captureTracking({
      query: { utm_source: "news", email: "maria@example.com", coupon: "OFF10", q: "(11) 98765-4321" },
      referer: null,
      url: `${BASE}?utm_source=news&email=maria%40example.com&name=Maria&coupon=OFF10&external_id=u-1&q=%2811%29+98765-4321&phone=11987654321&doc=52998224725`,
      now: NOW,
    });
    expect(t?.landing_url).toBe(`${BASE}?utm_source=news&coupon=OFF10`);
  });

  it("drops a personal value from a utm field", () => {
    expect(capture({ utm_source: "x", utm_term: "maria@example.com" })?.utm_term).toBeNull();
  });

  it("caps the number and size of params", () => {
    const query = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, "v".repeat(900)]));
    const t = capture(query);
    expect(Object.keys(t!.params)).toHaveLength(20);
    expect(t!.params.p0).toHaveLength(500);
  });
});

describe("hidden fields and trackingFromForm", () => {
  it("rebuilds on POST the very object captured on GET", () => {
    const got = capture({ utm_source: "google", utm_campaign: "bf", gclid: "Cj0", adset_name: "lal", email: "maria@example.com" }, "https://www.google.com/")!;
    const later = new Date("2026-03-15T12:05:00Z");
    const form = { ...trackingHiddenFields(got), name: "Maria", email: "maria@example.com", phone: "11987654321", doc: "52998224725", method: "card", card_number: "4242424242424242", card_cvc: "123" };
    // The POST from our own page carries no Referer: the router drops same-host ones.
    expect(trackingFromForm(form, null, later)).toEqual(got);
  });

  it("keeps an empty tracking empty through the POST", () => {
    expect(trackingHiddenFields(null)).toEqual({});
    expect(trackingFromForm({ name: "Maria", email: "maria@example.com", method: "pix" }, null, NOW)).toBeNull();
  });

  it("builds tracking for a JSON POST from its own fields and the Referer header", () => {
    const t = trackingFromForm({ name: "Maria", email: "m@example.com", utm_source: "app", campaign_id: 42, nested: { a: 1 }, whatsapp: "11987654321" }, "https://app.example.com/upgrade", NOW);
    expect(t).toEqual({
      utm_source: "app",
      utm_medium: null,
      utm_campaign: null,
      utm_term: null,
      utm_content: null,
      gclid: null,
      fbclid: null,
      fbc: null,
      fbp: null,
      referrer: "https://app.example.com/upgrade",
      landing_url: null,
      params: { campaign_id: "42" },
      captured_at: NOW.toISOString(),
      inherited: false,
    });
  });

  it("does not trust a carried captured_at in the future or a carried landing_url with personal data", () => {
    const t = trackingFromForm({ utm_source: "x", captured_at: "2030-01-01T00:00:00Z", landing_url: `${BASE}?utm_source=x&email=a%40b.co` }, null, NOW);
    expect(t?.captured_at).toBe(NOW.toISOString());
    expect(t?.landing_url).toBe(`${BASE}?utm_source=x`);
    expect(trackingFromForm({ utm_source: "x", captured_at: "nonsense" }, null, NOW)?.captured_at).toBe(NOW.toISOString());
  });
});

describe("card data under other names", () => {
  it("never keeps a card number or a CVC, whatever the parameter is called or wherever it hides", () => {
    const body = {
      utm_source: "x",
      pan: "4242424242424242",
      cc: "4242 4242 4242 4242",
      numero: "5555-5555-5555-4444",
      ref_code: "pedido 4000000000000259 ok",
      cvv2: "123",
      security_code: "123",
      cc_number: "4242424242424242",
      codigo_de_seguranca: "123",
      ad_id: "238512345678901234", // not Luhn-valid, dropped all the same: 13-19 digits are a card number to us
      campaign_id: "120208765432", // 12 digits: an id
    };
    const t = trackingFromForm(body, "https://blog.example.com/?pan=4242424242424242&post=7", NOW);
    expect(t?.params).toEqual({ campaign_id: "120208765432" });
    expect(t?.referrer).toBe("https://blog.example.com/?post=7");
    const landing = capture({ utm_source: "x", n: "4111111111111111" });
    expect(landing?.params).toEqual({});
    expect(landing?.landing_url).toBe(`${BASE}?utm_source=x`);
  });
});
