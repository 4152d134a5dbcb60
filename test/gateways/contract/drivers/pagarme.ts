// The contract suite's Pagar.me: the fake Pagar.me (test/fakes/pagarme/), tokenizecard.js' tokens at the
// hosted checkout, and Pagar.me's unsigned notices (re-read by id) to POST /gateways/{id}/webhooks.
import { expect } from "vitest";
import { startFakePagarme, type FakePagarme } from "../../../fakes/pagarme/fake-pagarme.ts";
import { deliverNotice, PAGARME_PUBLIC_KEY, PAGARME_SECRET_KEY, pagarmeOffer } from "../../../helpers/pagarme.ts";
import { testService } from "../../../helpers/service.ts";
import { postCheckout, savedToken, type Notice, type Obj, type ProviderDriver } from "../driver.ts";

let fake: FakePagarme;

const CARD = { card: "4000000000000010", card_declining_later: "4000000000000010", declined_card: "4000000000000028" } as const;

function notice(accountId: string, event: Obj | undefined): Notice {
  if (!event) throw new Error("fake pagarme: no such notice");
  return { deliver: async () => (await deliverNotice(accountId, event)).body?.result ?? null };
}

export const pagarme: ProviderDriver & { fake(): FakePagarme } = {
  name: "Pagar.me (fake)",
  provider: "pagarme",
  sendsNotices: true,
  fake: () => fake,
  async start() {
    await testService();
    fake = await startFakePagarme({ secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY });
  },
  stop: async () => fake?.close(),
  offer: () => pagarmeOffer(fake),
  async checkout(o, pay) {
    if (pay === "pix") return postCheckout(o.offerId, { method: "pix" });
    const r = await postCheckout(o.offerId, { method: "card", pagarme_token: fake.tokenFor(CARD[pay]) });
    if (pay === "card_declining_later" && r.status === 201) fake.setCardBehaviour((await savedToken(r.body.subscription_id)).split("|")[1]!, "insufficient_funds");
    return r;
  },
  card: { brand: "visa", last4: "0010" },
  declineCode: "insufficient_funds",
  async payPix(o, copyPaste) {
    const charge = fake.payPix(copyPaste);
    return notice(o.accountId, fake.lastEvent("charge.paid", charge.id));
  },
  async dispute(o, payment) {
    fake.chargeback(payment.gatewayChargeId);
    return notice(o.accountId, fake.lastEvent("charge.chargedback", payment.gatewayChargeId));
  },
  chargeNotice: (o, key) => notice(o.accountId, fake.lastEvent("charge.paid", fake.ordersFor(key)[0]!.charges[0].id)),
  failNextCharge: async (_o, kind) => fake.failNext(kind, { method: "POST", path: /^\/orders$/ }),
  async withShortTimeout(fn) {
    const adapter = (await testService()).runtime.gateways.adapter("pagarme") as unknown as { opts: { timeoutMs?: number }; clients: Map<string, unknown> };
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
    const orders = fake.ordersFor(key);
    const refunded = orders.flatMap((o) => o.charges).reduce((n, c) => n + (fake.charges.get(c.id)?.canceled_amount ?? 0), 0);
    return { made: orders.length, charged: fake.chargesFor(key), refunded };
  },
  // A refund is DELETE /charges/{id} with the amount, under our refund's key, the key again as operation_reference.
  async refundsOf(chargeId) {
    return fake.requests
      .filter((r) => r.method === "DELETE" && r.path === `/charges/${chargeId}` && r.status === 200 && !r.replayed)
      .map((r) => ({ amount: r.body.amount, key: r.body.operation_reference === r.idempotencyKey ? r.idempotencyKey : `operation_reference ${r.body.operation_reference}` }));
  },
  hooks: {
    // At Pagar.me: a customer whose code is our cus_ id, the card from the token, one paid order under our key.
    async cardCheckout(s, first) {
      const [customer, card] = (await savedToken(s.subscriptionId)).split("|");
      expect(fake.customers.get(customer!)!.code).toMatch(/^cus_/);
      expect(fake.cards.get(card!)!.customer.id).toBe(customer);
      expect(fake.ordersFor(first.idempotencyKey).map((o) => o.status)).toEqual(["paid"]);
      expect(fake.charges.get(first.gatewayChargeId)).toMatchObject({ amount: 4990, status: "paid", recurrency_cycle: "first" });
    },
    // The renewal is a "subsequent" card-on-file use of the saved card.
    async renewal(s, _first, renewal) {
      const [customer, card] = (await savedToken(s.subscriptionId)).split("|");
      const request = fake.requests.find((q) => q.method === "POST" && q.path === "/orders" && q.idempotencyKey === renewal.idempotencyKey)!;
      expect(request.body).toMatchObject({
        code: renewal.idempotencyKey,
        customer_id: customer,
        payments: [{ payment_method: "credit_card", amount: 4990, credit_card: { card_id: card, recurrence: true, recurrency_cycle: "subsequent" } }],
      });
    },
    // A Pix order with the buyer and the checkout's one-day expiry (as a duration); its BR Code on our answer.
    async pixCheckout(_s, pix, answer) {
      const charge = fake.charges.get(pix.gatewayChargeId)!;
      expect(charge).toMatchObject({ status: "pending", payment_method: "pix", amount: 4990, customer: { document: "52998224725", name: "Maria Silva" } });
      expect(answer.pix.copy_paste).toBe(charge.last_transaction.qr_code);
      expect(fake.requests.find((r) => r.method === "POST" && r.path === "/orders" && r.idempotencyKey === pix.idempotencyKey)!.body.payments[0].pix.expires_in).toBe(86_400);
    },
    // The open invoice's Pix names the payer, looked up from our customer.
    async linkPix(_s, copyPaste) {
      const charge = [...fake.charges.values()].find((c) => c.last_transaction?.qr_code === copyPaste);
      expect(charge?.customer).toMatchObject({ name: "Maria Silva", document: "52998224725" });
    },
    // Refunded in full, the charge is canceled at Pagar.me; its charge.refunded notice, re-read, finds nothing left to do.
    async refunded(s, payment) {
      expect(fake.charges.get(payment.gatewayChargeId)).toMatchObject({ status: "canceled", canceled_amount: 4990 });
      expect(await notice(s.accountId, fake.lastEvent("charge.refunded", payment.gatewayChargeId)).deliver()).toBe("ignored");
    },
    async declinedAttempt(attempt) {
      expect(fake.ordersFor(attempt.idempotencyKey).map((o) => o.status)).toEqual(["failed"]);
    },
  },
};
