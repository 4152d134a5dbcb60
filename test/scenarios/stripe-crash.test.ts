// Stripe scenario (issue 18 item 5): a crash between Stripe's approval and our commit, the way the crash
// drills do it (test/drills): the real service runs as a child process (main.ts) on a database that
// outlives it, is armed through CRASH_AT_FILE and SIGKILLed at the fault point after-gateway-charge while
// the billing run renews a card subscription at the fake Stripe; restarted on the same data, it recovers
// (advanceClock, and its own jobs). Stripe must hold exactly one PaymentIntent per idempotency key and
// the fake one successful charge per key: nothing is charged twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe/fake-stripe.ts";
import { CPF } from "../helpers/billing.ts";
import { PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET } from "../helpers/stripe.ts";
import { DrillService } from "../drills/drill-service.ts";

let fake: FakeStripe;
let svc: DrillService;

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  process.env.GATEWAY_ALLOW_BASE_URL_OVERRIDE = "true"; // the child inherits it: accounts may point at the fake
  svc = await DrillService.start(""); // embedded PGlite in a data directory kept across restarts
}, 120_000);

afterAll(async () => {
  await svc?.close();
  await fake?.close();
});

/** A Stripe tenant on the child, set up through the operator mutations, and a card subscription from its hosted checkout. */
async function stripeCardSubscription() {
  const { createTenant } = await svc.gql(`mutation { createTenant(name: "stripe-crash", mode: SANDBOX) { id } }`);
  const t = createTenant.id as string;
  const { createApiKey } = await svc.gql(`mutation($t: ID!) { createApiKey(tenantId: $t, scope: WRITE) { key } }`, { t });
  const { createProduct } = await svc.gql(`mutation($t: ID!) { createProduct(tenantId: $t, name: "App") { id } }`, { t });
  const { createPlan } = await svc.gql(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Pro", entitlements: {seats: 1}) { id } }`, { t, p: createProduct.id });
  const { createGatewayAccount } = await svc.gql(
    `mutation($t: ID!, $c: JSON, $u: String) { createGatewayAccount(tenantId: $t, provider: STRIPE, name: "stripe", credentials: $c, apiBaseUrl: $u) { id } }`,
    { t, c: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, publishableKey: PUBLISHABLE_KEY }, u: fake.url },
  );
  const { createOffer } = await svc.gql(
    `mutation($t: ID!, $p: ID!, $g: String!) { createOffer(tenantId: $t, planId: $p, name: "Pro", interval: MONTH, priceCents: 4990, currency: "BRL", gateway: $g, collectionMethods: [CARD_AUTO], trialDays: 0) { id } }`,
    { t, p: createPlan.id, g: createGatewayAccount.id },
  );
  const res = await fetch(`${svc.baseUrl}/checkout/${createOffer.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ external_id: "crash-1", name: "Maria Silva", email: "crash-1@example.com", phone: "11987654321", doc: CPF, method: "card", payment_method_id: "pm_card_visa" }),
  });
  const answer = (await res.json()) as { status: string; subscription_id: string };
  expect(res.status, JSON.stringify(answer)).toBe(201);
  expect(answer.status).toBe("active");
  return { tenantId: t, key: createApiKey.key as string, subscriptionId: answer.subscription_id };
}

/** Every key our service charged with at Stripe: one PaymentIntent each, at most one successful charge each. */
function chargesPerKey() {
  const keys = [...new Set(fake.requests.filter((q) => q.method === "POST" && q.path === "/v1/payment_intents" && q.idempotencyKey).map((q) => q.idempotencyKey!))];
  return keys.map((k) => ({ key: k, intents: fake.intentsFor(k).length, charges: fake.chargesFor(k) }));
}

describe("Stripe: SIGKILL between Stripe's approval and our commit", () => {
  it("the renewal charged at Stripe, the process killed before our commit: after the restart it is settled from Stripe's record, never charged again", { timeout: 180_000 }, async () => {
    const s = await stripeCardSubscription();
    const sub = await svc.v1("GET", `/subscriptions/${s.subscriptionId}`, s.key);
    const due = sub.body.current_period_end as string;

    svc.arm("after-gateway-charge", 1);
    const fired = svc.advanceClock(s.tenantId, due).then(
      () => "answered",
      () => "connection died",
    );
    await Promise.race([svc.exited(), new Promise((r) => setTimeout(r, 30_000))]);
    expect(svc.alive()).toBe(false);
    expect(await fired).toBe("connection died");
    expect(svc.child.output()).toContain("crash drill: SIGKILL at after-gateway-charge");
    // Stripe charged the renewal; we recorded nothing of it.
    expect(chargesPerKey()).toEqual([
      { key: expect.any(String), intents: 1, charges: 1 },
      { key: expect.any(String), intents: 1, charges: 1 },
    ]);

    await svc.restart();
    await svc.advanceClock(s.tenantId, new Date(new Date(due).getTime() + 60_000).toISOString());
    const after = await svc.v1("GET", `/subscriptions/${s.subscriptionId}`, s.key);
    expect(after.body.status).toBe("active");
    expect(new Date(after.body.current_period_end).getTime()).toBeGreaterThan(new Date(due).getTime());
    const payments = await svc.v1("GET", `/customers/crash-1/payments`, s.key);
    expect(payments.body.results.map((p: any) => p.status)).toEqual(["paid", "paid"]);
    // Still one PaymentIntent and one charge per key, two charges in all: nothing charged twice.
    expect(chargesPerKey()).toEqual([
      { key: expect.any(String), intents: 1, charges: 1 },
      { key: expect.any(String), intents: 1, charges: 1 },
    ]);
    expect(fake.totalCharges).toBe(2);
  });
});
