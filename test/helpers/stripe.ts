// A tenant whose offer is at a Stripe account pointing at the fake (apiBaseUrl, allowed in tests by
// GATEWAY_ALLOW_BASE_URL_OVERRIDE): shared by the Stripe checkout, /pay and inbound-webhook tests.
import { randomBytes } from "node:crypto";
import { op } from "./http.ts";
import { newTenant, type TestTenant } from "./tenant.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { testService, type TestService } from "./service.ts";

const alnum = (n: number) => randomBytes(n).toString("base64url").replace(/[-_]/g, "x");
export const SECRET_KEY = `sk_test_${alnum(24)}`;
export const WEBHOOK_SECRET = `whsec_${alnum(24)}`;
export const PUBLISHABLE_KEY = `pk_test_${alnum(24)}`;

export interface StripeOffer {
  t: TestTenant;
  accountId: string;
  offerId: string;
}

/** `tenant`: add the Stripe account and offer to this tenant (a plan change to another gateway) instead of a new one. */
export async function stripeOffer(
  fake: FakeStripe,
  credentials: Record<string, string> = { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, publishableKey: PUBLISHABLE_KEY },
  tenant?: TestTenant,
): Promise<StripeOffer> {
  const t = tenant ?? (await newTenant());
  const { createGatewayAccount } = await op(
    `mutation($t: ID!, $c: JSON, $u: String) { createGatewayAccount(tenantId: $t, provider: STRIPE, name: "stripe", credentials: $c, apiBaseUrl: $u) { id } }`,
    { t: t.tenantId, c: credentials, u: fake.url },
  );
  const { createOffer } = await op(
    `mutation($t: ID!, $p: ID!, $g: String!) { createOffer(tenantId: $t, planId: $p, name: "Pro Stripe", interval: MONTH, priceCents: 4990, currency: "BRL",
       gateway: $g, collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
    { t: t.tenantId, p: t.planId, g: createGatewayAccount.id },
  );
  return { t, accountId: createGatewayAccount.id, offerId: createOffer.id };
}

/** The shared test service and a fake Stripe accepting this file's keys (close the fake in afterAll). */
export async function startStripeTestbed(): Promise<{ fake: FakeStripe; svc: TestService }> {
  const svc = await testService();
  return { svc, fake: await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET }) };
}
