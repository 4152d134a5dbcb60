// Every value a page shows comes from a tenant, a buyer or a link: the renderer escapes it in text
// and in attributes alike, on every hosted page and on GraphiQL's title. No database needed.
import { describe, expect, it } from "vitest";
import type { Tracking } from "../../core/checkout/checkout-input.ts";
import type { CheckoutOffer } from "../../core/checkout/get-checkout-offer.ts";
import type { PayPageView } from "../../core/links/pay-link.ts";
import { renderGraphiQLPage } from "../../schema/graphiql.tsx";
import { renderCheckoutPage } from "../../web/hosted/checkout-page.tsx";
import { renderPayPage, renderPayResultPage } from "../../web/hosted/pay-page.tsx";
import { renderResultPage } from "../../web/hosted/result-page.tsx";
import { quoteCheckout } from "../../core/checkout/quote-checkout.ts";
import { renderMessagePage } from "../../web/ui/layout.tsx";

const EVIL = `"><script>alert(1)</script><img src=x onerror=alert(2)>'`;

const offer: CheckoutOffer = {
  id: "offer_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  tenantId: "ten_1",
  planId: "plan_01ARZ3NDEKTSV4RRFFQ69G5FAV",
  tenantName: EVIL,
  tenantMode: "SANDBOX",
  clockAt: null,
  name: EVIL,
  planName: EVIL,
  kind: "recurring",
  interval: "month",
  priceCents: 4990,
  currency: "brl",
  trialDays: 7,
  grantDays: 0,
  renewsSubscription: false,
  methods: ["card", "pix"],
  gatewayAccountId: "gwa_1",
  provider: "sandbox",
  capabilities: {},
  seller: { name: EVIL, legalName: EVIL, cnpj: null, supportEmail: null, supportPhone: null, supportPhoneE164: null, address: EVIL, termsUrl: null, privacyUrl: null, live: false, canSell: true },
};

const view: PayPageView = {
  kind: "PAYMENT_METHOD",
  tenantName: EVIL,
  sandbox: true,
  planName: EVIL,
  amountCents: 4990,
  currency: "brl",
  methods: ["card", "pix"],
  blocker: null,
  chargesOpenInvoice: false,
  currentCard: { brand: EVIL, last4: "4242" },
  pix: { paymentId: "pay_1", copyPaste: EVIL, expiresAt: new Date("2026-03-01T15:00:00Z") },
  cardAccount: null,
};

const values = Object.fromEntries(["name", "email", "phone", "doc", "coupon", "ref", "card_holder", "card_exp_month", "external_id", "method"].map((k) => [k, EVIL]));
const tracking: Tracking = {
  utm_source: EVIL,
  utm_medium: EVIL,
  utm_campaign: EVIL,
  utm_term: EVIL,
  utm_content: EVIL,
  gclid: EVIL,
  fbclid: EVIL,
  fbc: EVIL,
  fbp: EVIL,
  referrer: EVIL,
  landing_url: EVIL,
  params: { [EVIL]: EVIL },
  captured_at: "2026-01-01T00:00:00.000Z",
  inherited: false,
};

const quote = quoteCheckout({ offer, coupon: { code: EVIL, percentOff: 10, amountOffCents: null, cycles: 3 }, now: new Date() });
const pages: Record<string, string> = {
  checkout: renderCheckoutPage({ offer, values, tracking, error: { field: "doc", error: EVIL }, quote }),
  "checkout banner": renderCheckoutPage({ offer, values, tracking: null, error: { field: "", error: EVIL }, quote }),
  "checkout coupon": renderCheckoutPage({ offer, values, tracking: null, error: { field: "coupon", error: EVIL }, quote }),
  result: renderResultPage(offer, { status: "pending_first_payment", subscriptionId: EVIL, orderId: null, pix: { copyPaste: EVIL, qrPngUrl: EVIL, expiresAt: new Date() }, quote }, EVIL),
  "result card": renderResultPage(offer, { status: "active", subscriptionId: EVIL, orderId: null, pix: null, quote, card: { brand: EVIL, last4: EVIL } }, EVIL),
  pay: renderPayPage({ token: EVIL, view, values, error: { field: "", error: EVIL } }),
  "pay blocked": renderPayPage({ token: "t", view: { ...view, blocker: EVIL }, values: {}, error: null }),
  "pay result": renderPayResultPage(view, { status: "card_updated", kind: "PAYMENT_METHOD", subscriptionStatus: null, card: { brand: EVIL, last4: EVIL }, currentPeriodEnd: null, pix: null }),
  message: renderMessagePage(EVIL, EVIL),
  graphiql: renderGraphiQLPage({ title: EVIL }),
};

describe("hosted pages escape every value", () => {
  for (const [name, html] of Object.entries(pages)) {
    it(name, () => {
      expect(html.startsWith("<!doctype html>\n<html")).toBe(true);
      expect(html).not.toContain("<script>alert");
      expect(html).not.toContain("<img src=x");
      // The whole value stays one text or attribute value: its quote and angle brackets are entities.
      expect(html).toContain("&quot;>&lt;script>alert(1)&lt;/script>&lt;img src=x onerror=alert(2)>'");
    });
  }
});
