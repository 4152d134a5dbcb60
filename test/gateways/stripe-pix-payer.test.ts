// The payer of a Pix at Stripe: the PaymentIntent's payment_method_data.billing_details carries the
// customer's name and e-mail (from the checkout form, or looked up by the invoice for a renewal QR); the
// CPF/CNPJ goes as tax_id only for an account outside Latin America, where Stripe requires it (a
// Brazilian account refuses it: tax_id_prohibited). The fake enforces both rules by its account country.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { advanceClock } from "../helpers/billing.ts";
import { SECRET_KEY, startStripeTestbed, WEBHOOK_SECRET } from "../helpers/stripe.ts";
import { deliver, eventAbout, paymentsOf, stripeSubscription, subscriptionOf } from "../scenarios/stripe-kit.ts";

let br: FakeStripe;
let us: FakeStripe;
beforeAll(async () => {
  ({ fake: br } = await startStripeTestbed());
  us = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, country: "US" });
});
afterAll(async () => {
  await br?.close();
  await us?.close();
});

/** The billing details Stripe keeps on the Pix PaymentIntent's payment method. */
const billingOf = (fake: FakeStripe, pi: string) => fake.paymentMethods.get(fake.paymentIntents.get(pi)!.payment_method)!.billing_details;

describe("Pix payer details at Stripe", () => {
  it("a Brazilian account: name and e-mail of the buyer, no tax id; a renewal QR names the subscription's customer too", async () => {
    const s = await stripeSubscription(br, "pix");
    const [first] = await paymentsOf(s.subscriptionId);
    const sub = await subscriptionOf(s.t.readKey, s.subscriptionId);
    expect(billingOf(br, first!.gatewayChargeId)).toEqual({ address: null, phone: null, tax_id: null, name: "Maria Silva", email: sub.customer.email });

    br.payPix(first!.gatewayChargeId);
    expect((await deliver(br, s.accountId, eventAbout(br, "payment_intent.succeeded", first!.gatewayChargeId))).status).toBe(200);
    const due = (await subscriptionOf(s.t.readKey, s.subscriptionId)).current_period_end as string;
    await advanceClock(s.t, new Date(new Date(due).getTime() - 3 * 86_400_000).toISOString()); // the renewal QR (no form: looked up by the invoice)
    const renewal = (await paymentsOf(s.subscriptionId)).at(-1)!;
    expect(renewal).toMatchObject({ method: "PIX", status: "PROCESSING" });
    expect(billingOf(br, renewal.gatewayChargeId)).toEqual({ address: null, phone: null, tax_id: null, name: "Maria Silva", email: sub.customer.email });
  });

  it("an account outside Latin America: the buyer's CPF goes as tax_id, and the Pix is made", async () => {
    const s = await stripeSubscription(us, "pix");
    const [first] = await paymentsOf(s.subscriptionId);
    expect(billingOf(us, first!.gatewayChargeId)).toMatchObject({ name: "Maria Silva", tax_id: "52998224725" });
    expect(us.requests.filter((q) => q.path === "/v1/account")).toHaveLength(1);
    // Asked once per account key: a second Pix does not ask again.
    await stripeSubscription(us, "pix");
    expect(us.requests.filter((q) => q.path === "/v1/account")).toHaveLength(1);
  });
});
