// A tenant whose offer is at a Pagar.me account pointing at the fake (apiBaseUrl, allowed in tests by
// GATEWAY_ALLOW_BASE_URL_OVERRIDE), and what the Pagar.me tests share: the hosted checkout's JSON post (the
// tokenizecard.js token, or Pix), Pagar.me's unsigned notices to POST /gateways/{id}/webhooks, reads of
// our payments (provider-reads.ts).
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { startFakePagarme, type FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { CPF } from "./billing.ts";
import { call, op } from "./http.ts";
import { testService, type TestService } from "./service.ts";
import { newTenant, type TestTenant } from "./tenant.ts";
import { postNotice } from "./provider-notice.ts";

export { eventsOf, paymentsOf, subscriptionOf } from "./provider-reads.ts";

type Obj = Record<string, any>;
const hex = (n: number) => randomBytes(n).toString("hex");
export const PAGARME_SECRET_KEY = `sk_test_${hex(16)}`;
export const PAGARME_PUBLIC_KEY = `pk_test_${hex(16)}`;

export interface PagarmeOffer {
  t: TestTenant;
  accountId: string;
  offerId: string;
  /** The notice URL the account shows (GatewayAccount.webhookUrl), with its secret ?token=. */
  webhookUrl: string;
}

/** The notice token of each account made here (from its webhookUrl). */
const noticeTokens = new Map<string, string>();

export async function pagarmeOffer(
  fake: FakePagarme,
  opts: { credentials?: Record<string, string>; priceCents?: number; t?: TestTenant; interval?: "MONTH" | "YEAR" } = {},
): Promise<PagarmeOffer> {
  const t = opts.t ?? (await newTenant());
  const { createGatewayAccount } = await op(
    `mutation($t: ID!, $c: JSON, $u: String, $n: String!) { createGatewayAccount(tenantId: $t, provider: PAGARME, name: $n, credentials: $c, apiBaseUrl: $u) { id webhookUrl } }`,
    { t: t.tenantId, c: opts.credentials ?? { secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY }, u: fake.url, n: `pagarme-${hex(3)}` },
  );
  const { createOffer } = await op(
    `mutation($t: ID!, $p: ID!, $g: String!, $c: Int!, $i: BillingInterval!) { createOffer(tenantId: $t, planId: $p, name: "Pro Pagar.me", interval: $i, priceCents: $c, currency: "BRL",
       gateway: $g, collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
    { t: t.tenantId, p: t.planId, g: createGatewayAccount.id, c: opts.priceCents ?? 4990, i: opts.interval ?? "MONTH" },
  );
  const token = new URL(createGatewayAccount.webhookUrl).searchParams.get("token");
  if (token) noticeTokens.set(createGatewayAccount.id, token);
  return { t, accountId: createGatewayAccount.id, offerId: createOffer.id, webhookUrl: createGatewayAccount.webhookUrl };
}

/** The shared test service and a fake Pagar.me accepting this file's keys (close the fake in afterAll). */
export async function startPagarmeTestbed(): Promise<{ fake: FakePagarme; svc: TestService }> {
  const svc = await testService();
  return { svc, fake: await startFakePagarme({ secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY }) };
}

/** The hosted checkout's JSON post: the token tokenizecard.js made (card) or Pix. */
export async function pagarmeCheckout(s: PagarmeOffer, pay: { token: string } | "pix") {
  const ext = `ext-${Math.random().toString(36).slice(2, 10)}`;
  const body: Obj = { external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF };
  Object.assign(body, pay === "pix" ? { method: "pix" } : { method: "card", pagarme_token: pay.token });
  return call("POST", `/checkout/${s.offerId}`, { body, as: "json", headers: { accept: "application/json" } });
}

/** A Pagar.me tenant with a subscription made on the hosted checkout; fails the test if refused. */
export async function pagarmeSubscription(fake: FakePagarme, pay: { card: string } | "pix" = { card: "4000000000000010" }, opts: { priceCents?: number } = {}) {
  const s = await pagarmeOffer(fake, opts);
  const r = await pagarmeCheckout(s, pay === "pix" ? "pix" : { token: fake.tokenFor(pay.card) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { ...s, subscriptionId: r.body.subscription_id as string, answer: r.body };
}

/**
 * Posts a Pagar.me notice (unsigned JSON, as Pagar.me sends it) to the account's webhook address, with the
 * secret token of the URL it shows (`token`: another one, or null for none).
 */
export async function deliverNotice(accountId: string, notice: Obj, opts: { token?: string | null } = {}) {
  const { baseUrl } = await testService();
  const token = opts.token === undefined ? noticeTokens.get(accountId) : opts.token;
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return postNotice(`${baseUrl}/gateways/${accountId}/webhooks${query}`, { "content-type": "application/json", "user-agent": "Pagar.me-Webhooks" }, JSON.stringify(notice)) as Promise<{ status: number; body: Obj }>;
}

/** Seals an account's credentials as accounts were sealed before notice tokens existed: its keys only. */
export async function sealWithoutNoticeToken(accountId: string): Promise<void> {
  const { runtime } = await testService();
  await runtime.db.prisma.gatewayAccount.update({
    where: { id: accountId },
    data: { credentialsCiphertext: runtime.gateways.vault.seal(accountId, { secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY }) },
  });
  runtime.gateways.forgetCredentials(accountId);
}

/** The subscription's saved Pagar.me card: the cus_ and card_ of its token. */
export async function savedCardOf(subscriptionId: string) {
  const sub = await (await testService()).runtime.db.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { paymentMethod: true } });
  const [customer, card] = (sub.paymentMethod?.token ?? "").split("|");
  return { customer: customer!, card: card! };
}
