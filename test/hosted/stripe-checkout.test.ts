// Issue 18 item 2, over HTTP: a Stripe offer's checkout takes only a Stripe.js payment method id
// (payment_method_id), refuses a posted card number (PCI SAQ A), and its CSP lets in exactly the
// provider's origin (here the fake's, which stands in for js.stripe.com). Sandbox pages are unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { call } from "../helpers/http.ts";
import type { TestService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { COUPON_SCRIPT } from "./summary-helpers.ts";
import { PUBLISHABLE_KEY, SECRET_KEY, startStripeTestbed, stripeOffer, WEBHOOK_SECRET } from "../helpers/stripe.ts";

const JSON_ACCEPT = { accept: "application/json" };
const BUYER = { name: "Maria Silva", phone: "11987654321", doc: "52998224725" };
const email = (tag: string) => `stripe-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

const checkout = (offerId: string, body: Record<string, unknown>) => call("POST", `/checkout/${offerId}`, { body, as: "json", headers: JSON_ACCEPT });

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).filter((p) => p[0]).map(([k, ...v]) => [k!, v]));
}

describe("hosted checkout of a Stripe offer (PCI SAQ A)", () => {
  it("renders no card fields: a mount point, the hidden payment_method_id and the stand-in Stripe.js from the fake's origin", async () => {
    const s = await stripeOffer(fake);
    const r = await call("GET", `/checkout/${s.offerId}`);
    expect(r.status).toBe(200);
    for (const name of ["card_number", "card_cvc", "card_exp_month", "card_exp_year"]) expect(r.text).not.toContain(`name="${name}"`);
    expect(r.text).toContain('id="card-element"');
    expect(r.text).toContain('name="payment_method_id"');
    expect(r.text).toContain(`data-public-key="${PUBLISHABLE_KEY}"`);
    expect(r.text).toContain(`<script src="${fake.url}/v3/"></script>`); // no nonce: let in by its origin alone
    expect(r.text).not.toContain(SECRET_KEY);
    expect(r.text).toContain('name="method" value="pix"');
  });

  it("CSP: scripts only from the page's nonce, the fake's origin and our own coupon script, frames only to the fake, default-src 'none'", async () => {
    const s = await stripeOffer(fake);
    const r = await call("GET", `/checkout/${s.offerId}`);
    const d = directives(r.headers.get("content-security-policy") ?? "");
    const origin = new URL(fake.url).origin;
    expect(d.get("default-src")).toEqual(["'none'"]);
    const script = d.get("script-src") ?? [];
    // 'self': our own coupon script (/checkout/coupon.js), for "Aplicar" without a reload.
    expect(script.filter((x) => !x.startsWith("'nonce-"))).toEqual([origin, "'self'"]);
    expect(script.filter((x) => x.startsWith("'nonce-"))).toHaveLength(1);
    const nonce = script.find((x) => x.startsWith("'nonce-"))!.slice(7, -1);
    expect(r.text).toContain(`nonce="${nonce}"`);
    expect(d.get("frame-src")).toEqual([origin]);
    expect(d.get("connect-src")).toEqual([origin, "'self'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect([...d.keys()].join(" ")).not.toMatch(/unsafe-eval/);
    expect(script.join(" ")).not.toMatch(/unsafe-inline/);
    // A second load gets another nonce.
    const again = await call("GET", `/checkout/${s.offerId}`);
    expect(again.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("a posted card number (or expiry, CVC) is refused 422 and nothing is stored or sent to Stripe", async () => {
    const s = await stripeOffer(fake);
    const before = fake.requests.length;
    const mail = email("refused");
    for (const card of [
      { card_number: "4242424242424242", card_exp_month: "12", card_exp_year: "2030", card_cvc: "123" },
      { card_number: "4242424242424242", payment_method_id: "pm_card_visa" },
      { card_cvc: "123", payment_method_id: "pm_card_visa" },
    ]) {
      const r = await checkout(s.offerId, { ...BUYER, email: mail, method: "card", card_holder: "MARIA SILVA", ...card });
      expect(r.status).toBe(422);
      expect(r.body.field).toBe("card_number");
      expect(r.body.error).toMatch(/dados do cartão não podem ser enviados/);
      expect(JSON.stringify(r.body)).not.toContain("4242");
    }
    // Pix does not open the door either.
    const pix = await checkout(s.offerId, { ...BUYER, email: mail, method: "pix", card_number: "4242424242424242" });
    expect(pix.status).toBe(422);
    const prisma = svc.runtime.db.prisma;
    expect(await prisma.customer.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    expect(await prisma.subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    expect(await prisma.gatewayEvent.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    expect(fake.requests.length).toBe(before);
  });

  it("the page (no JSON) shows the refusal in the card box and keeps no card data", async () => {
    const s = await stripeOffer(fake);
    const r = await call("POST", `/checkout/${s.offerId}`, { body: { ...BUYER, email: email("page"), method: "card", card_number: "4242424242424242" }, as: "form" });
    expect(r.status).toBe(422);
    expect(r.text).toMatch(/<p class="err" id="e-card-element" role="alert">os dados do cartão não podem ser enviados/);
    expect(r.text).not.toContain("4242");
    expect(r.headers.get("content-security-policy")).toContain(new URL(fake.url).origin);
  });

  it("posting payment_method_id subscribes: 201 active, the card saved as cus_|pm_ at the fake, the first charge with our idempotency key", async () => {
    const s = await stripeOffer(fake);
    const r = await checkout(s.offerId, { ...BUYER, email: email("ok"), method: "card", card_holder: "MARIA SILVA", payment_method_id: "pm_card_visa" });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("active");
    const prisma = svc.runtime.db.prisma;
    const sub = await prisma.subscription.findUniqueOrThrow({ where: { id: r.body.subscription_id }, include: { paymentMethod: true } });
    expect(sub.paymentMethod?.token).toMatch(/^cus_[A-Za-z0-9]+\|pm_[A-Za-z0-9]+$/);
    expect(sub.paymentMethod?.last4).toBe("4242");
    const customerId = sub.paymentMethod!.token!.split("|")[0]!;
    expect(fake.customers.has(customerId)).toBe(true);
    const invoice = await prisma.invoice.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(fake.chargesFor(`${invoice.id}:1`)).toBe(1);
    const kinds = (await prisma.gatewayEvent.findMany({ where: { subscriptionId: sub.id }, orderBy: { id: "asc" } })).map((e) => [e.kind, e.outcome]);
    expect(kinds).toContainEqual(["save_payment_method", "approved"]);
    expect(kinds).toContainEqual(["charge_card", "approved"]);
    // Every Stripe call of the checkout carried an Idempotency-Key; the SetupIntent was made.
    const calls = fake.requests.filter((q) => q.method === "POST");
    expect(calls.some((q) => q.path === "/v1/setup_intents")).toBe(true);
    expect(calls.every((q) => q.idempotencyKey)).toBe(true);
  });

  it("a declined pm_ is refused with the one generic text and leaves no subscription", async () => {
    const s = await stripeOffer(fake);
    const r = await checkout(s.offerId, { ...BUYER, email: email("declined"), method: "card", payment_method_id: "pm_card_chargeDeclined" });
    expect(r.status).toBe(422);
    expect(r.body.field).toBe("card_number");
    expect(await svc.runtime.db.prisma.subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
  });

  it("something that is not a pm_ id is refused before Stripe is asked", async () => {
    const s = await stripeOffer(fake);
    const before = fake.requests.length;
    for (const pm of ["4242424242424242", "tok_visa", "pm_<x>", ""]) {
      const r = await checkout(s.offerId, { ...BUYER, email: email("bad"), method: "card", payment_method_id: pm });
      expect(r.status).toBe(422);
      expect(r.body.field).toBe("payment_method_id");
    }
    expect(fake.requests.length).toBe(before);
  });

  it("Pix on Stripe keeps the no-JavaScript path: a PaymentIntent of type pix and its QR on our own page", async () => {
    const s = await stripeOffer(fake);
    const before = fake.requests.length;
    const r = await checkout(s.offerId, { ...BUYER, email: email("pix"), method: "pix" });
    expect(fake.requests.slice(before).filter((q) => q.method === "POST" && q.path === "/v1/payment_intents" && q.idempotencyKey)).toHaveLength(1);
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("pending_first_payment");
    expect(r.body.pix.copy_paste).toMatch(/^000201/);
    const png = await call("GET", new URL(r.body.pix.qr_png_url).pathname);
    expect(png.status).toBe(200);
  });

  it("a Stripe account without a publishable key offers Pix only (no card field, no script)", async () => {
    const s = await stripeOffer(fake, { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    const r = await call("GET", `/checkout/${s.offerId}`);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('name="method" value="card"');
    expect(r.text.replace(COUPON_SCRIPT, "")).not.toMatch(/<script/);
    expect(r.headers.get("content-security-policy")).toMatch(/script-src 'self'(;|$)/);
    const post = await checkout(s.offerId, { ...BUYER, email: email("nopk"), method: "card", payment_method_id: "pm_card_visa" });
    expect(post.status).toBe(422);
    expect(post.body.field).toBe("method");
  });

  it("a sandbox offer's page is unchanged: card fields, no provider script, our own coupon script only", async () => {
    const t = await newTenant();
    const r = await call("GET", `/checkout/${t.monthlyOfferId}`);
    for (const name of ["card_holder", "card_number", "card_exp_month", "card_exp_year", "card_cvc"]) expect(r.text).toContain(`name="${name}"`);
    expect(r.text.replace(COUPON_SCRIPT, "")).not.toMatch(/<script|payment_method_id|card-element/);
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/frame-src/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
  });
});

describe("3-D Secure when the checkout saves the card (SetupIntent requires_action)", () => {
  it("422 with next_action and nothing written; after the challenge the same post with authentication_id subscribes, the customer keeping the cus_ id Stripe's record carries", async () => {
    const s = await stripeOffer(fake);
    const buyer = { ...BUYER, email: email("3ds"), method: "card" };
    const first = await checkout(s.offerId, { ...buyer, payment_method_id: "pm_card_authenticationRequiredOnSetup" });
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ field: "authentication_id", next_action: expect.stringMatching(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/) });
    expect(await svc.runtime.db.prisma.subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
    const id = first.body.next_action.split("_secret_")[0];
    const ref = fake.setupIntents.get(id)!.metadata.customer_ref;

    // Posting the handle before the challenge is done saves nothing.
    const early = await checkout(s.offerId, { ...buyer, payment_method_id: "pm_card_authenticationRequiredOnSetup", authentication_id: first.body.next_action });
    expect(early.status).toBe(422);
    expect(await svc.runtime.db.prisma.subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);

    fake.authenticateSetup(id, first.body.next_action, "complete");
    const pm = fake.setupIntents.get(id)!.payment_method;
    const done = await checkout(s.offerId, { ...buyer, payment_method_id: pm, authentication_id: first.body.next_action });
    expect(done.status).toBe(201);
    expect(done.body.status).toBe("active");
    const sub = await svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: done.body.subscription_id }, include: { paymentMethod: true } });
    expect(sub.customerId).toBe(ref);
    expect(sub.paymentMethod!.token).toBe(`${fake.setupIntents.get(id)!.customer}|${pm}`);
    expect(sub.paymentMethod!.last4).toBe("3155");
  });

  it("a failed challenge (the payer cancels) saves nothing: the post is refused with the generic text", async () => {
    const s = await stripeOffer(fake);
    const buyer = { ...BUYER, email: email("3ds-fail"), method: "card" };
    const first = await checkout(s.offerId, { ...buyer, payment_method_id: "pm_card_threeDSecure2Required" });
    const id = first.body.next_action.split("_secret_")[0];
    fake.authenticateSetup(id, first.body.next_action, "fail");
    const r = await checkout(s.offerId, { ...buyer, payment_method_id: "pm_card_threeDSecure2Required", authentication_id: first.body.next_action });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ field: "card_number", error: "pagamento não aprovado; verifique os dados ou use outro cartão" });
    expect(await svc.runtime.db.prisma.subscription.count({ where: { tenantId: s.t.tenantId } })).toBe(0);
  });

  it("the HTML answer hands the handle to the page's script: data-next-action and the posted pm_ kept in the hidden field", async () => {
    const s = await stripeOffer(fake);
    const r = await call("POST", `/checkout/${s.offerId}`, { as: "form", body: { ...BUYER, email: email("3ds-html"), method: "card", payment_method_id: "pm_card_authenticationRequiredOnSetup" } });
    expect(r.status).toBe(422);
    expect(r.text).toMatch(/data-next-action="seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+"/);
    expect(r.text).toContain('name="payment_method_id" value="pm_card_authenticationRequiredOnSetup"');
    expect(r.text).toContain("confirme o cartão na janela do seu banco");
  });
});
