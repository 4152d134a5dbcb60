// A tenant whose offer is at a Mercado Pago account pointing at the fake (apiBaseUrl, allowed in tests by
// GATEWAY_ALLOW_BASE_URL_OVERRIDE): shared by the Mercado Pago checkout, scenario and inbound-webhook tests.
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { startFakeMercadoPago, type FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import { CPF } from "./billing.ts";
import { call, op } from "./http.ts";
import { testService, type TestService } from "./service.ts";
import { newTenant, type TestTenant } from "./tenant.ts";
import { postNotice } from "./provider-notice.ts";

export { eventsOf, paymentsOf, subscriptionOf } from "./provider-reads.ts";

export const ACCESS_TOKEN = `TEST-${randomBytes(8).toString("hex")}-112233-${randomBytes(16).toString("hex")}-${randomBytes(4).readUInt32BE()}`;
export const PUBLIC_KEY = `TEST-${randomBytes(4).toString("hex")}-1234-1234-1234-${randomBytes(6).toString("hex")}`;
export const WEBHOOK_SECRET = randomBytes(32).toString("hex");

export interface MercadoPagoOffer {
  t: TestTenant;
  accountId: string;
  offerId: string;
}

export async function mercadopagoOffer(
  fake: FakeMercadoPago,
  opts: { credentials?: Record<string, string>; priceCents?: number; collectionMethods?: string[]; tenant?: TestTenant } = {},
): Promise<MercadoPagoOffer> {
  const t = opts.tenant ?? (await newTenant());
  const { createGatewayAccount } = await op(
    `mutation($t: ID!, $c: JSON, $u: String) { createGatewayAccount(tenantId: $t, provider: MERCADOPAGO, name: "mercadopago", credentials: $c, apiBaseUrl: $u) { id } }`,
    { t: t.tenantId, c: opts.credentials ?? { accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET }, u: fake.url },
  );
  const { createOffer } = await op(
    `mutation($t: ID!, $p: ID!, $g: String!, $price: Int!, $m: [CollectionMethod!]!) { createOffer(tenantId: $t, planId: $p, name: "Pro Mercado Pago", interval: MONTH, priceCents: $price, currency: "BRL",
       gateway: $g, collectionMethods: $m, trialDays: 0) { id } }`,
    { t: t.tenantId, p: t.planId, g: createGatewayAccount.id, price: opts.priceCents ?? 4990, m: opts.collectionMethods ?? ["CARD_AUTO", "PIX_MANUAL"] },
  );
  return { t, accountId: createGatewayAccount.id, offerId: createOffer.id };
}

/**
 * The shared test service and a fake Mercado Pago accepting this file's credentials (close the fake in afterAll).
 * The fake's account lacks Automatic Payments, as most real accounts do; a file that renews cards opts in.
 */
export async function startMercadoPagoTestbed(opts: { automaticPayments?: boolean } = {}): Promise<{ fake: FakeMercadoPago; svc: TestService }> {
  const svc = await testService();
  return { svc, fake: await startFakeMercadoPago({ accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY, webhookSecret: WEBHOOK_SECRET, ...opts }) };
}

export type Obj = Record<string, any>;

/** The hosted checkout's JSON post: a MercadoPago.js card token (card) or Pix. */
export async function mercadopagoCheckout(s: MercadoPagoOffer, pay: { cardToken: string } | "pix", extra: Obj = {}) {
  const ext = `ext-${randomBytes(5).toString("hex")}`;
  const body: Obj = { external_id: ext, name: "Maria Silva", email: `${ext}@example.com`, phone: "11987654321", doc: CPF, ...extra };
  Object.assign(body, pay === "pix" ? { method: "pix" } : { method: "card", mercadopago_token: pay.cardToken });
  return call("POST", `/checkout/${s.offerId}`, { body, as: "json", headers: { accept: "application/json" } });
}

/** A Mercado Pago tenant with a subscription made on the hosted checkout; fails the test if refused. */
export async function mercadopagoSubscription(fake: FakeMercadoPago, pay: { holder?: string; number?: string } | "pix" = {}, offer: Parameters<typeof mercadopagoOffer>[1] = {}) {
  const s = await mercadopagoOffer(fake, offer);
  const r = await mercadopagoCheckout(s, pay === "pix" ? "pix" : { cardToken: fake.browserToken(pay) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { ...s, subscriptionId: r.body.subscription_id as string, answer: r.body };
}

/** Delivers Mercado Pago's notice about a payment to the account's webhook address, signed as it signs them. */
export async function deliverNotice(fake: FakeMercadoPago, accountId: string, paymentId: string | number, opts: Parameters<FakeMercadoPago["signedNotice"]>[1] = {}) {
  const { baseUrl } = await testService();
  const n = fake.signedNotice(paymentId, opts);
  return postNotice(`${baseUrl}/gateways/${accountId}/webhooks?${n.query}`, n.headers, n.rawBody) as Promise<{ status: number; body: Obj }>;
}

/**
 * The fake's card behind one of our Mercado Pago tokens: by its id, or, for a card paid first and saved after
 * ("p<last4><MMYYYY>"), the customer's card of those last four digits and expiry.
 */
export function mercadopagoCardOf(fake: FakeMercadoPago, token: string): Obj | undefined {
  const [customer, ref] = token.split("|");
  const pending = /^p(\d{4})(\d{2})(\d{4})$/.exec(ref ?? "");
  if (!pending) return fake.cards.get(ref ?? "");
  return [...fake.cards.values()].find((c) => c.customer_id === customer && c.last_four_digits === pending[1] && c.expiration_month === Number(pending[2]) && c.expiration_year === Number(pending[3]));
}

/** The subscription's saved Mercado Pago card: customer and brand of its token, and the card at the fake ("" if none). */
export async function savedCardOf(fake: FakeMercadoPago, subscriptionId: string) {
  const sub = await (await testService()).runtime.db.prisma.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { paymentMethod: true } });
  const token = sub.paymentMethod?.token ?? "";
  const [customer, , brand] = token.split("|");
  return { customer: customer!, card: (mercadopagoCardOf(fake, token)?.id as string | undefined) ?? "", brand: brand! };
}

/** Mercado Pago's side of one of our charge keys: its payments (external_reference) and approved charges. */
export function mercadopagoSideOf(fake: FakeMercadoPago, idempotencyKey: string) {
  const payments = fake.paymentsFor(idempotencyKey);
  return { payments: payments.length, status: payments.map((p) => p.status), charges: fake.chargesFor(idempotencyKey) };
}
