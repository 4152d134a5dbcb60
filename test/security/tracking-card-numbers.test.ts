// Card numbers never reach `tracking`, whatever separates their digits: dots, slashes,
// underscores, commas, no-break spaces, tabs, full-width or Arabic-Indic digits, Luhn-valid or not; and
// a Luhn-valid number of a known brand whatever follows it (expiry and CVC run on), o/O/l/I as separators.
// End to end through the hosted checkout (the link's query string carried through the page's hidden
// fields, and the form's own fields), then read back from GET /v1/subscriptions/{id}, /v1/events and
// the webhooks; plus a table of the pure rule.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { holdsCardNumber } from "../../core/checkout/tracking.ts";
import { CARDS, CPF } from "../helpers/billing.ts";
import { get } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { addEndpoint, receiversPerTest } from "../helpers/webhook-receiver.ts";

const NOW = new Date("2026-03-15T12:00:00Z");

describe("holdsCardNumber (NFKC, 13-19 digits joined by any non-alphanumeric separators, Luhn or not; or a branded Luhn-valid number whatever follows it)", () => {
  const CARD_LIKE: [string, string][] = [
    ["plain", "4242424242424242"],
    ["spaces", "4242 4242 4242 4242"],
    ["dashes", "4242-4242-4242-4242"],
    ["dots", "4242.4242.4242.4242"],
    ["slashes", "4242/4242/4242/4242"],
    ["underscores", "4242_4242_4242_4242"],
    ["commas", "4242,4242,4242,4242"],
    ["no-break spaces", "4242\u00a04242\u00a04242\u00a04242"],
    ["tabs", "4242\t4242\t4242\t4242"],
    ["zero-width spaces", "4242\u200b4242\u200b4242\u200b4242"],
    ["spaced dashes", "4242 - 4242 - 4242 - 4242"],
    ["mixed separators", "4242.4242 4242/4242"],
    ["full-width digits", "４２４２４２４２４２４２４２４２"],
    ["full-width digits, ideographic spaces", "４２４２　４２４２　４２４２　４２４２"],
    ["superscript digits", "⁴²⁴²⁴²⁴²⁴²⁴²⁴²⁴²"],
    ["Arabic-Indic digits", "٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢"],
    ["not Luhn-valid", "4242424242424241"],
    ["first digit 1, not Luhn-valid", "1234 5678 9012 3456"],
    ["Amex 4-6-5", "3782 822463 10005"],
    ["13 digits", "4222222222222"],
    ["19 digits", "6011.0009.9013.9424.123"],
    ["inside words", "pedido 4242.4242.4242.4242 ok"],
    ["glued to letters", "ref4242_4242_4242_4242x"],
    ["followed by expiry and CVC", "4242 4242 4242 4242 12/28 123"],
    ["URL-style", "/4242/4242/4242/4242/"],
    ["an 18-digit ad id (indistinguishable from a card without Luhn)", "238512345678901234"],
    ["a date and time with seconds (14 digits joined by separators)", "2026-03-15 10:30:00"],
    ["number, expiry and CVC run together", "42424242424242421235123"],
    ["number run on into more digits", "5555555555554444000000000000"],
    ["o as separators", "4242o4242o4242o4242"],
    ["O and l as separators", "5555O5555l5555O4444"],
    ["o typed for 0", "4o12888888881881"],
    ["Luhn-valid Elo, then expiry and CVC", "6362970000457013 1228123"],
    ["a card after a millisecond time", "fb.1.1596403881668.42424242424242421235123"],
    ["Devanagari digits, expiry and CVC run together", "४२४२४२४२४२४२४२४२१२३५१२३"],
  ];
  const NOT_CARD_LIKE: [string, string][] = [
    ["12 digits", "123456789012"],
    ["a campaign id", "gad 21234567890"],
    ["fbp (a millisecond time, then 10 digits)", "fb.1.1596403881668.1116446470"],
    ["fbc (a millisecond time, then the fbclid)", "fb.1.1554763741205.IwAR3xAbCdEf"],
    ["a millisecond time alone", "1712345678901"],
    ["a single 20-digit id", "12345678901234567890"],
    ["two 10-digit ids (no 13-19 digit span of whole groups)", "1234567890 1234567890"],
    ["letters between the groups", "4242a4242b4242c4242"],
    ["a date", "2026-03-15"],
    ["a version", "v1.2.3"],
    ["a UUID", "f47ac10b-58cc-4372-a567-0e02b2c3d479"],
    ["plain words", "black friday"],
    ["a 23-digit id starting with no brand's prefix", "10000000000000000000017"],
    ["a 23-digit id whose 13-19 digit starts all fail Luhn", "30000000000000000000000"],
    ["hex with digits between letters", "4242a4242b4242c4242d4242"],
    ["a gclid", "Cj0KCQiA4aacBhCUARIsAI55maEo1l2l3l4l5l6l7l8l9l0"],
  ];
  it.each(CARD_LIKE)("card-like: %s", (_name, value) => {
    expect(holdsCardNumber(value, NOW)).toBe(true);
  });
  it.each(NOT_CARD_LIKE)("not card-like: %s", (_name, value) => {
    expect(holdsCardNumber(value, NOW)).toBe(false);
  });
  it("counts a 13-digit group as a millisecond time only up to the capture instant (plus a day)", () => {
    expect(holdsCardNumber("1712345678901", new Date("2024-04-05T19:34:38.901Z"))).toBe(false);
    expect(holdsCardNumber("1712345678901", new Date("2024-04-04T00:00:00Z"))).toBe(true);
  });
});

// The card number under the separator variants (5555 5555 5555 4444, and a non-Luhn one starting with 1).
const MC = "5555555555554444";
const NON_LUHN = "1234567890123456";
const VARIANTS: [string, string, string][] = [
  ["dots", "5555.5555.5555.4444", MC],
  ["slashes", "5555/5555/5555/4444", MC],
  ["underscores", "5555_5555_5555_4444", MC],
  ["commas", "5555,5555,5555,4444", MC],
  ["no-break spaces", "5555\u00a05555\u00a05555\u00a04444", MC],
  ["tabs", "5555\t5555\t5555\t4444", MC],
  ["full-width digits", "５５５５５５５５５５５５４４４４", MC],
  ["full-width digits, ideographic spaces", "５５５５　５５５５　５５５５　４４４４", MC],
  ["Arabic-Indic digits", "٥٥٥٥٥٥٥٥٥٥٥٥٤٤٤٤", MC],
  ["spaced dashes", "5555 - 5555 - 5555 - 4444", MC],
  ["not Luhn-valid, first digit 1", "1234 5678 9012 3456", NON_LUHN],
  ["number, expiry and CVC run together", "55555555555544441228123", MC],
  ["o, O and l as separators", "5555o5555O5555l4444", MC],
];

/** The digits a string spells, whatever their script or separators. */
const digitsOf = (s: string) =>
  s
    .normalize("NFKC")
    .replace(/[\u0660-\u0669]/g, (c) => String(c.charCodeAt(0) - 0x660))
    .replace(/\D/g, "");

/** Every key and string value in a JSON document. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}

const leaks = (doc: unknown, digits: string) => strings(doc).filter((s) => digitsOf(s).includes(digits));

/** A request from its own loopback address (per-address limits on checkout never see a burst). */
function request(method: string, url: string, opts: { headers?: Record<string, string>; body?: string; from: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: opts.headers, localAddress: opts.from }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The hidden fields the checkout page carries to its POST. */
function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  // An empty value renders as a bare `value` attribute.
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value(?:="([^"]*)")?\/?>/g)) out[unescapeHtml(m[1]!)] = unescapeHtml(m[2] ?? "");
  return out;
}

const receiver = receiversPerTest();

describe("card numbers with other separators never reach tracking, events or webhooks", () => {
  it("drops them from the link's query (utm field, parameter value and name, landing_url), the Referer and the form's fields", { timeout: 90_000 }, async () => {
    const { baseUrl } = await testService();
    const t = await newTenant();
    const rcv = await receiver();
    await addEndpoint(t, rcv.url);
    const made: { name: string; digits: string; subscriptionId: string }[] = [];
    for (const [i, [name, v, digits]] of VARIANTS.entries()) {
      const from = `127.0.${40 + i}.${10 + i}`;
      const offer = i % 2 ? t.yearlyOfferId : t.monthlyOfferId;
      // The link: the number in utm_content, in a parameter's value and as a parameter's name.
      const query = new URLSearchParams([["utm_source", "news"], ["utm_content", v], [v, "1"], ["promo", `pedido ${v}`], ["campaign", "bf26"]]);
      // The Referer: the number in the path (even variants) or in a query parameter (odd ones).
      const referer = i % 2 ? `https://blog.example.com/post?q=${encodeURIComponent(v)}&post=7` : `https://blog.example.com/${encodeURIComponent(v)}/post`;
      const page = await request("GET", `${baseUrl}/checkout/${offer}?${query}`, { headers: { referer }, from });
      expect(page.status).toBe(200);
      // The POST: the page's hidden fields, the customer, and the number in the form's own fields too.
      const ext = `trk-${i}-${Math.random().toString(36).slice(2, 8)}`;
      const body = {
        ...hiddenFields(page.text),
        name: "Maria Silva",
        email: `${ext}@example.com`,
        phone: "11987654321",
        doc: CPF,
        method: "card",
        card_holder: "MARIA SILVA",
        card_number: CARDS.ok,
        card_exp_month: "12",
        card_exp_year: "2035",
        card_cvc: "123",
        utm_term: v,
        note: `ref ${v} ok`,
        [`n ${v}`]: "x",
      };
      const answer = await request("POST", `${baseUrl}/checkout/${offer}`, {
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        from,
      });
      expect({ name, status: answer.status }).toEqual({ name, status: 201 });
      const subscriptionId = JSON.parse(answer.text).subscription_id as string;
      made.push({ name, digits, subscriptionId });

      const sub = await get(`/v1/subscriptions/${subscriptionId}`, t.readKey);
      expect({ name, tracking: sub.body.tracking }).toEqual({
        name,
        tracking: expect.objectContaining({
          utm_source: "news",
          utm_content: null,
          utm_term: null,
          params: { campaign: "bf26" },
          referrer: i % 2 ? "https://blog.example.com/post?post=7" : null,
          landing_url: `http://localhost/checkout/${offer}?utm_source=news&campaign=bf26`,
        }),
      });
      expect({ name, leaks: leaks(sub.body, digits) }).toEqual({ name, leaks: [] });
    }

    // The events (GET /v1/events) and every webhook body: no number, in any spelling.
    const events = await get(`/v1/events?limit=100`, t.readKey);
    expect(events.body.results.length).toBeGreaterThanOrEqual(2 * VARIANTS.length);
    await rcv.waitFor((rs) => rs.length >= 2 * VARIANTS.length, 30_000);
    for (const { name, digits } of made) {
      expect({ name, events: leaks(events.body, digits), webhooks: leaks(rcv.requests.map((r) => r.body), digits) }).toEqual({ name, events: [], webhooks: [] });
    }
    const activated = events.body.results.filter((e: any) => e.type === "subscription.activated");
    expect(activated.map((e: any) => e.data.tracking?.params)).toEqual(Array(VARIANTS.length).fill({ campaign: "bf26" }));
  });
});
