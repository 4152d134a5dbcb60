// The contract suite's Stripe: the fake Stripe (test/fakes/stripe/), Stripe.js' pm_ ids at the hosted
// checkout, and Stripe's signed events to POST /gateways/{id}/webhooks.
import { expect } from "vitest";
import { startFakeStripe, type FakeStripe } from "../../../fakes/stripe/fake-stripe.ts";
import { testService } from "../../../helpers/service.ts";
import { SECRET_KEY, stripeOffer, WEBHOOK_SECRET } from "../../../helpers/stripe.ts";
import { deliver, eventAbout } from "../../../scenarios/stripe-kit.ts";
import { postCheckout, savedToken, type Notice, type Obj, type ProviderDriver } from "../driver.ts";

let fake: FakeStripe;

const PAY = { card: "pm_card_visa", card_declining_later: "pm_card_visa", declined_card: "pm_card_chargeDeclined" } as const;

function notice(accountId: string, event: Obj): Notice {
  return { deliver: async () => (await deliver(fake, accountId, event)).body?.result ?? null };
}

export const stripe: ProviderDriver & { fake(): FakeStripe } = {
  name: "Stripe (fake)",
  provider: "stripe",
  sendsNotices: true,
  fake: () => fake,
  async start() {
    await testService();
    fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  },
  stop: async () => fake?.close(),
  offer: () => stripeOffer(fake),
  async checkout(o, pay) {
    if (pay === "pix") return postCheckout(o.offerId, { method: "pix" });
    const r = await postCheckout(o.offerId, { method: "card", payment_method_id: PAY[pay] });
    if (pay === "card_declining_later" && r.status === 201) fake.setCardBehaviour((await savedToken(r.body.subscription_id)).split("|")[1]!, "insufficient_funds");
    return r;
  },
  card: { brand: "visa", last4: "4242" },
  declineCode: "insufficient_funds",
  async payPix(o, copyPaste) {
    const pi = fake.payPix(copyPaste);
    return notice(o.accountId, eventAbout(fake, "payment_intent.succeeded", pi.id));
  },
  async dispute(o, payment) {
    fake.dispute(payment.gatewayChargeId);
    return notice(o.accountId, eventAbout(fake, "charge.dispute.created", payment.gatewayChargeId));
  },
  chargeNotice: (o, key) => notice(o.accountId, eventAbout(fake, "payment_intent.succeeded", fake.intentsFor(key)[0]!.id)),
  failNextCharge: async (_o, kind) => fake.failNext(kind, { method: "POST", path: /^\/v1\/payment_intents$/ }),
  async withShortTimeout(fn) {
    const adapter = (await testService()).runtime.gateways.adapter("stripe") as unknown as { opts: { timeoutMs?: number }; clients: Map<string, unknown> };
    const saved = adapter.opts.timeoutMs;
    adapter.opts.timeoutMs = 400;
    adapter.clients.clear();
    try {
      return await fn();
    } finally {
      adapter.opts.timeoutMs = saved;
      adapter.clients.clear();
    }
  },
  async side(key) {
    const intents = fake.intentsFor(key);
    const refunded = intents.reduce((n, pi) => n + (fake.charges.get(pi.latest_charge)?.amount_refunded ?? 0), 0);
    return { made: intents.length, charged: fake.chargesFor(key), refunded };
  },
  async refundsOf(pi) {
    // Each Refund carries our key in its metadata and was created under it as Idempotency-Key.
    return [...fake.refunds.values()]
      .filter((r) => r.payment_intent === pi)
      .map((r) => {
        const key = r.metadata?.idempotency_key ?? null;
        const asked = fake.requests.find((q) => q.path === "/v1/refunds" && q.method === "POST" && q.status === 200 && q.params.metadata?.idempotency_key === key);
        return { amount: r.amount, key: asked?.idempotencyKey === key ? key : `asked under ${asked?.idempotencyKey}` };
      });
  },
  hooks: {
    // At Stripe: a customer, a SetupIntent for off-session use, one PaymentIntent under our key.
    async cardCheckout(s, first) {
      const [customer] = (await savedToken(s.subscriptionId)).split("|");
      expect(fake.customers.get(customer!)?.metadata).toBeDefined();
      const setup = fake.requests.find((q) => q.path === "/v1/setup_intents" && q.params.customer === customer)!;
      expect(setup.params).toMatchObject({ usage: "off_session", confirm: "true" });
      expect(fake.intentsFor(first.idempotencyKey).map((pi) => pi.status)).toEqual(["succeeded"]);
      expect(fake.paymentIntents.get(first.gatewayChargeId)).toMatchObject({ amount: 4990, currency: "brl", customer });
    },
    // The renewal charges the saved card off-session.
    async renewal(s, _first, renewal) {
      const [customer, pm] = (await savedToken(s.subscriptionId)).split("|");
      const request = fake.requests.find((q) => q.method === "POST" && q.path === "/v1/payment_intents" && q.idempotencyKey === renewal.idempotencyKey)!;
      expect(request.params).toMatchObject({ off_session: "true", confirm: "true", customer, payment_method: pm, amount: "4990" });
    },
    async pixCheckout(_s, pix, answer) {
      const intent = fake.paymentIntents.get(pix.gatewayChargeId)!;
      expect(intent).toMatchObject({ status: "requires_action", payment_method_types: ["pix"], amount: 4990 });
      expect(answer.pix.copy_paste).toBe(intent.next_action.pix_display_qr_code.data);
    },
    async refunded(_s, payment) {
      expect(fake.charges.get(fake.paymentIntents.get(payment.gatewayChargeId)!.latest_charge)).toMatchObject({ amount_refunded: 4990, refunded: true });
      expect([...fake.refunds.values()].filter((r) => r.payment_intent === payment.gatewayChargeId).map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    },
    // Each failed attempt is a PaymentIntent left requiring a payment method: nothing that could complete later.
    async declinedAttempt(attempt) {
      expect(fake.intentsFor(attempt.idempotencyKey).map((pi) => pi.status)).toEqual(["requires_payment_method"]);
    },
  },
};
