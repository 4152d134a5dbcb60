// /pay/{token} for a card saved at Stripe (issue 18 item 2, PCI SAQ A), over HTTP: the page loads the
// provider's tokenizer for the account the card will be saved at (the subscription's, or a gateway
// migration's TARGET account), renders no card fields, sets a CSP of exactly the provider's origins,
// refuses any posted card field unread, and saves the posted pm_ id with savePaymentMethod; a card that
// wants 3-D Secure at setup is a 422 carrying next_action, then completed only with Stripe's own record.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock, subscribe } from "../helpers/billing.ts";
import { call, get, op, post } from "../helpers/http.ts";
import type { TestService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, payJson, payPage, tokenOf } from "../links/pay-helpers.ts";
import { PUBLISHABLE_KEY, SECRET_KEY, startStripeTestbed, stripeOffer, WEBHOOK_SECRET, type StripeOffer } from "../helpers/stripe.ts";
import { changePlan } from "../subscriptions/plan-change-helpers.ts";
import { campaignLink, createCampaign } from "../campaigns/campaign-helpers.ts";

let fake: FakeStripe;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startStripeTestbed()));
afterAll(() => fake?.close());

/** An active subscription of the Stripe offer, its card saved at the fake through the checkout. */
async function stripeSubscription(s?: StripeOffer, extra: Record<string, string> = {}): Promise<StripeOffer & { subscriptionId: string }> {
  s ??= await stripeOffer(fake);
  const r = await call("POST", `/checkout/${s.offerId}`, {
    as: "json",
    headers: { accept: "application/json" },
    body: { name: "Maria Silva", email: `stripe-pay-${Date.now()}-${Math.random()}@example.com`, phone: "11987654321", doc: "52998224725", method: "card", payment_method_id: "pm_card_visa", ...extra },
  });
  expect(r.status).toBe(201);
  return { ...s, subscriptionId: r.body.subscription_id };
}

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).filter((p) => p[0]).map(([k, ...v]) => [k!, v]));
}

/** The page's CSP lets in exactly the fake's origin (the account's apiBaseUrl) for script, frames and connections. */
async function expectStripeCsp(token: string) {
  const r = await call("GET", `/pay/${token}`);
  expect(r.status).toBe(200);
  const d = directives(r.headers.get("content-security-policy") ?? "");
  const origin = new URL(fake.url).origin;
  const script = d.get("script-src") ?? [];
  // A page that also shows a live Pix loads our own follow script and polls our status route: 'self' too.
  const own = r.text.includes('<script src="/pix/follow.js"') ? ["'self'"] : [];
  expect(script.filter((x) => !x.startsWith("'nonce-"))).toEqual([origin, ...own]);
  expect(d.get("frame-src")).toEqual([origin]);
  expect(d.get("connect-src")).toEqual([origin, ...own]);
  expect(d.get("default-src")).toEqual(["'none'"]);
  expect(r.text).toContain(`<script src="${origin}/v3/"></script>`);
  expect(r.text).toContain(`data-public-key="${PUBLISHABLE_KEY}"`);
  expect(r.text).not.toContain('name="card_number"');
  expect(r.text).toContain('name="payment_method_id"');
  return r.text;
}

const savedCardOf = (subscriptionId: string) =>
  svc.runtime.db.prisma.subscription.findFirstOrThrow({ where: { id: subscriptionId }, include: { paymentMethod: true } });

describe("/pay for a Stripe subscription (PCI SAQ A)", () => {
  it("payment-method link: Stripe.js on the page, a posted card number refused unread, the pm_ saved at the same Stripe customer, nothing charged", async () => {
    const s = await stripeSubscription();
    const before = await savedCardOf(s.subscriptionId);
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey);
    expect(link.status).toBe(201);
    const token = tokenOf(link.body.url);
    const text = await expectStripeCsp(token);
    expect(text).not.toContain("ainda não está disponível");

    const events = () => svc.runtime.db.prisma.gatewayEvent.count({ where: { tenantId: s.t.tenantId } });
    const quiet = { events: await events(), calls: fake.requests.length };
    const refused = await payJson(token, { ...CARD("4242424242424242"), payment_method_id: "pm_card_mastercard" });
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe("card_number");
    expect(refused.body.error).toMatch(/dados do cartão não podem ser enviados/);
    expect(await events()).toBe(quiet.events);
    expect(fake.requests.length).toBe(quiet.calls);
    expect((await payJson(token, { payment_method_id: "4242424242424242" })).body.field).toBe("payment_method_id");

    const charges = fake.charges.size;
    const r = await payJson(token, { payment_method_id: "pm_card_mastercard" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "card_updated", card: { brand: "mastercard", last4: "4444" } });
    const after = await savedCardOf(s.subscriptionId);
    expect(after.paymentMethodId).not.toBe(before.paymentMethodId);
    const [customer, pm] = after.paymentMethod!.token!.split("|");
    expect(customer).toBe(before.paymentMethod!.token!.split("|")[0]); // the customer's Stripe customer is reused
    expect(fake.paymentMethods.get(pm!)!.customer).toBe(customer);
    expect(fake.charges.size).toBe(charges);
    expect((await payJson(token, { payment_method_id: "pm_card_visa" })).status).toBe(410);
  });

  it("renewal link: card by Stripe.js or Pix; the pm_ saved, then one PaymentIntent under the order's key; a decline is the generic text", async () => {
    const s = await stripeSubscription();
    const link = await post(`/v1/subscriptions/${s.subscriptionId}/renewal-link`, s.t.writeKey, {});
    expect(link.status).toBe(201);
    const token = tokenOf(link.body.url);
    const text = await expectStripeCsp(token);
    expect(text).toContain('value="pix"');
    expect((await payJson(token, { method: "card", ...CARD("4242424242424242") })).body.field).toBe("card_number");
    expect((await payJson(token, { method: "card" })).body.field).toBe("payment_method_id");

    const declined = await payJson(token, { method: "card", payment_method_id: "pm_card_chargeDeclined" });
    expect(declined.status).toBe(422);
    expect(declined.body.error).toBe("pagamento não aprovado; verifique os dados ou use outro cartão");

    const periodEnd = (await savedCardOf(s.subscriptionId)).currentPeriodEnd!;
    const r = await payJson(token, { method: "card", payment_method_id: "pm_card_visa" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("paid");
    expect(new Date(r.body.current_period_end).getTime()).toBeGreaterThan(periodEnd.getTime());
    const order = await svc.runtime.db.prisma.order.findFirstOrThrow({ where: { tenantId: s.t.tenantId, targetSubscriptionId: s.subscriptionId, status: "PAID" } });
    expect(fake.chargesFor(`${order.id}:1`)).toBe(1);
  });

  it("open-invoice link of a past_due subscription: paid with a new card through Stripe.js, which becomes the subscription's card", async () => {
    const s = await stripeSubscription();
    const sub = await savedCardOf(s.subscriptionId);
    fake.setCardBehaviour(sub.paymentMethod!.token!.split("|")[1]!, "insufficient_funds");
    await advanceClock(s.t, sub.currentPeriodEnd!.toISOString());
    expect((await savedCardOf(s.subscriptionId)).status).toBe("PAST_DUE");
    const link = await get(`/v1/subscriptions/${s.subscriptionId}/payment-link`, s.t.readKey);
    expect(link.status).toBe(200);
    const token = tokenOf(link.body.url);
    await expectStripeCsp(token);
    expect((await payJson(token, { method: "card", ...CARD("5555555555554444") })).body.field).toBe("card_number");
    const r = await payJson(token, { method: "card", payment_method_id: "pm_card_mastercard" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "paid", subscription_status: "active", card: { brand: "mastercard", last4: "4444" } });
    const after = await savedCardOf(s.subscriptionId);
    expect(after.paymentMethod).toMatchObject({ brand: "mastercard", last4: "4444", gatewayAccountId: s.accountId });
    expect(after.collectionMethod).toBe("CARD_AUTO");
  });

  it("renewal-campaign link on the Stripe offer: Stripe.js on the page, the pm_ saved and the campaign price charged once", async () => {
    const s = await stripeSubscription(undefined, { external_id: "carla" });
    const campaign = await createCampaign(s.t, { offerId: s.offerId, priceCents: 3000, bonusCycles: 1, bonusUnit: "month", audience: { customerExternalIds: ["carla"] } });
    const link = await campaignLink(s.t, campaign, "carla");
    expect(link.status).toBe(200);
    const token = tokenOf(link.body.url);
    await expectStripeCsp(token);
    expect((await payJson(token, { method: "card", ...CARD("4242424242424242") })).body.field).toBe("card_number");
    const r = await payJson(token, { method: "card", payment_method_id: "pm_card_visa" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("paid");
    const order = await svc.runtime.db.prisma.order.findFirstOrThrow({ where: { tenantId: s.t.tenantId, campaignId: campaign, status: "PAID" } });
    expect(order.amountCents).toBe(3000);
    expect(fake.chargesFor(`${order.id}:1`)).toBe(1);
  });

  it("a Stripe account without a publishable key: no card on /pay (a payment-method link says so; a renewal offers Pix only)", async () => {
    const s = await stripeSubscription();
    // Drop the public key: the page can no longer load Stripe.js for this account.
    await op(`mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { id } }`, { id: s.accountId, c: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
    svc.runtime.gateways.forgetCredentials(s.accountId);
    const pmLink = tokenOf((await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey)).body.url);
    const page = await payPage(pmLink);
    expect(page.text).not.toContain("<script");
    expect(page.text).toContain("não está disponível para esta assinatura");
    const renewal = tokenOf((await post(`/v1/subscriptions/${s.subscriptionId}/renewal-link`, s.t.writeKey, {})).body.url);
    const rp = await payPage(renewal);
    expect(rp.text).not.toContain("<script");
    expect(rp.text).not.toContain('value="card"');
    expect((await payJson(renewal, { method: "card", payment_method_id: "pm_card_visa" })).body.field).toBe("method");
  });

  it("3-D Secure on /pay: 422 with next_action (Stripe's client_secret); after the challenge the SetupIntent is checked with Stripe; a stranger's handle is refused", async () => {
    const s = await stripeSubscription();
    const token = tokenOf((await post(`/v1/subscriptions/${s.subscriptionId}/payment-method-link`, s.t.writeKey)).body.url);
    const first = await payJson(token, { payment_method_id: "pm_card_authenticationRequiredOnSetup" });
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ field: "authentication_id", next_action: expect.stringMatching(/^seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+$/) });
    // The HTML answer hands the handle to the page's script (data-next-action) with the token posted first.
    const html = await call("POST", `/pay/${token}`, { as: "form", body: { payment_method_id: "pm_card_authenticationRequiredOnSetup" } });
    expect(html.status).toBe(422);
    expect(html.text).toMatch(/data-next-action="seti_[A-Za-z0-9]+_secret_[A-Za-z0-9]+"/);
    expect(html.text).toContain('name="payment_method_id" value="pm_card_authenticationRequiredOnSetup"');

    // Another customer's authenticated SetupIntent cannot be brought here.
    const other = await stripeSubscription(s);
    const otherToken = tokenOf((await post(`/v1/subscriptions/${other.subscriptionId}/payment-method-link`, s.t.writeKey)).body.url);
    const theirs = await payJson(otherToken, { payment_method_id: "pm_card_threeDSecure2Required" });
    const theirId = theirs.body.next_action.split("_secret_")[0];
    fake.authenticateSetup(theirId, theirs.body.next_action, "complete");
    const theirPm = fake.setupIntents.get(theirId)!.payment_method as string;
    const stolen = await payJson(token, { payment_method_id: theirPm, authentication_id: theirs.body.next_action });
    expect(stolen.status).toBe(422);
    expect(stolen.body.field).toBe("card_number");

    // The genuine challenge, completed in the browser (the fake's issuer page), then posted back.
    const id = first.body.next_action.split("_secret_")[0];
    fake.authenticateSetup(id, first.body.next_action, "complete");
    const pm = fake.setupIntents.get(id)!.payment_method as string;
    const r = await payJson(token, { payment_method_id: pm, authentication_id: first.body.next_action });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "card_updated", card: { last4: "3155" } });
    expect(fake.requests.some((q) => q.method === "GET" && q.path === `/v1/setup_intents/${id}`)).toBe(true);
  });

  it("on-session confirmations at Stripe (the checkout's and /pay's) carry our return page under PUBLIC_URL, which answers a plain page", async () => {
    const from = fake.requests.length;
    const s = await stripeSubscription();
    const renewal = tokenOf((await post(`/v1/subscriptions/${s.subscriptionId}/renewal-link`, s.t.writeKey, {})).body.url);
    const paid = await payJson(renewal, { method: "card", payment_method_id: "pm_card_mastercard" });
    expect(paid.status).toBe(200);
    const returnUrl = `${svc.runtime.config.publicUrl}/pay/return`;
    const confirms = fake.requests.slice(from).filter((q) => q.method === "POST" && /^\/v1\/(setup|payment)_intents$/.test(q.path) && q.params.confirm === "true");
    // The checkout saves the card and charges it, then /pay saves the new card and charges it: all four with the payer there.
    expect(confirms.map((q) => [q.path, q.params.off_session ?? null, q.params.return_url, q.status])).toEqual([
      ["/v1/setup_intents", null, returnUrl, 200],
      ["/v1/payment_intents", "false", returnUrl, 200],
      ["/v1/setup_intents", null, returnUrl, 200],
      ["/v1/payment_intents", "false", returnUrl, 200],
    ]);
    // Stripe would append ?setup_intent=…&setup_intent_client_secret=…: never echoed.
    const back = await call("GET", "/pay/return?setup_intent=seti_X&setup_intent_client_secret=seti_X_secret_Y&redirect_status=succeeded");
    expect(back.status).toBe(200);
    expect(back.text).toContain("Volte à página de pagamento");
    expect(back.text).not.toContain("seti_X");
  });
});

describe("a gateway-migration link whose target account is Stripe (the card is saved at the TARGET)", () => {
  it("renders Stripe.js, not the sandbox card form; a posted card number is refused; the pm_ is saved at the Stripe account and the subscription moves", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-01T00:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId); // sandbox card
    await advanceClock(t, "2027-03-11T06:00:00.000Z");
    const target = await stripeOffer(fake, undefined, t);
    const change = await changePlan(t, sub.subscription_id, { offer_id: target.offerId });
    expect(change.status).toBe(200);
    expect(change.body.plan_change.kind).toBe("gateway_migration");
    const token = tokenOf(change.body.plan_change.payment_link.url);
    await expectStripeCsp(token);

    const calls = fake.requests.length;
    const refused = await payJson(token, CARD("4242424242424242"));
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe("card_number");
    expect(fake.requests.length).toBe(calls);

    const r = await payJson(token, { payment_method_id: "pm_card_visa" });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("paid");
    const moved = await savedCardOf(sub.subscription_id);
    expect(moved.offerId).toBe(target.offerId);
    expect(moved.paymentMethod!.gatewayAccountId).toBe(target.accountId);
    expect(moved.paymentMethod!.token).toMatch(/^cus_[A-Za-z0-9]+\|pm_[A-Za-z0-9_]+$/);
    expect(fake.requests.some((q) => q.method === "POST" && q.path === "/v1/setup_intents")).toBe(true);
  });

  it("the reverse (Stripe subscription migrating to a sandbox offer) keeps the sandbox's own card form, no script", async () => {
    const s = await stripeSubscription();
    await advanceClock(s.t, "2027-03-11T06:00:00.000Z").catch(() => undefined);
    const change = await changePlan(s.t, s.subscriptionId, { offer_id: s.t.monthlyOfferId });
    expect(change.body.plan_change?.kind).toBe("gateway_migration");
    const page = await payPage(tokenOf(change.body.plan_change.payment_link.url));
    expect(page.text).toContain('name="card_number"');
    expect(page.text).not.toContain("<script");
  });
});
