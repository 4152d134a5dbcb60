// Inbound Mercado Pago notices (issue 19, item 2): POST /gateways/{gateway_account_id}/webhooks?data.id=…&type=payment
// against the fake Mercado Pago, signed as Mercado Pago signs them (x-signature over id, request id and ts), then
// the payment re-fetched by id with the account's access token before anything changes.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeMercadoPago } from "../fakes/mercadopago/fake-mercadopago.ts";
import type { TestService } from "../helpers/service.ts";
import { REFUSED_NOTICES_PER_MINUTE } from "../../server/gateway-webhooks.ts";
import { sendFrom } from "../security/hosted-client.ts";
import { ACCESS_TOKEN, mercadopagoOffer, mercadopagoSubscription, paymentsOf, PUBLIC_KEY, startMercadoPagoTestbed, WEBHOOK_SECRET } from "../helpers/mercadopago.ts";
import { postNotice } from "../helpers/provider-notice.ts";

let fake: FakeMercadoPago;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startMercadoPagoTestbed()));
afterAll(() => fake?.close());

const prisma = () => svc.runtime.db.prisma;

async function post(accountId: string, n: { query: string; rawBody: string; headers: Record<string, string> }) {
  return postNotice(`${svc.baseUrl}/gateways/${accountId}/webhooks?${n.query}`, n.headers, n.rawBody);
}

/** A Pix checkout at the fake, paid by the payer's bank: our payment still PROCESSING until a notice arrives. */
async function paidPix() {
  const s = await mercadopagoSubscription(fake, "pix");
  const [payment] = await paymentsOf(s.subscriptionId);
  fake.payPix(payment!.gatewayChargeId);
  return { s, payment: payment! };
}

const statusOf = async (id: string) => (await prisma().payment.findUniqueOrThrow({ where: { id } })).status;
const notifications = (accountId: string) => prisma().gatewayNotification.findMany({ where: { gatewayAccountId: accountId }, orderBy: { id: "asc" } });
const invoicePaid = (tenantId: string) => prisma().event.count({ where: { tenantId, type: "invoice.paid" } });

describe("POST /gateways/{gateway_account_id}/webhooks (Mercado Pago)", () => {
  it("a signed notice: the payment re-fetched, Pix paid once; the same delivery again is 200 duplicate and changes nothing", async () => {
    const { s, payment } = await paidPix();
    const gets = () => fake.requests.filter((r) => r.method === "GET" && r.path === `/v1/payments/${payment.gatewayChargeId}`).length;
    const n = fake.signedNotice(payment.gatewayChargeId);
    const first = await post(s.accountId, n);
    expect(first).toMatchObject({ status: 200, body: { received: true, result: "applied" } });
    expect(gets()).toBe(1);
    expect(await statusOf(payment.id)).toBe("PAID");
    expect(await invoicePaid(s.t.tenantId)).toBe(1);
    const rows = await notifications(s.accountId);
    expect(rows).toMatchObject([{ kind: "pix_paid", result: "applied" }]);
    expect(JSON.stringify(rows[0]!.summary)).not.toContain(WEBHOOK_SECRET);
    expect(JSON.stringify(rows[0]!.summary)).not.toContain(ACCESS_TOKEN);

    const replay = await post(s.accountId, n);
    expect(replay).toMatchObject({ status: 200, body: { received: true, event_id: first.body.event_id, result: "duplicate" } });
    expect(await invoicePaid(s.t.tenantId)).toBe(1);
    expect(await notifications(s.accountId)).toHaveLength(1);
  });

  it("verified duplicates never count as refusals; a forged or stale copy of the same delivery is still 400", async () => {
    const { s, payment } = await paidPix();
    const from = "127.0.0.83";
    const send = (n: { query: string; rawBody: string; headers: Record<string, string> }) => sendFrom(from, svc.baseUrl, `/gateways/${s.accountId}/webhooks?${n.query}`, n.rawBody, n.headers);
    const n = fake.signedNotice(payment.gatewayChargeId);
    expect((await send(n)).json()).toMatchObject({ result: "applied" });
    const answers: number[] = [];
    for (let i = 0; i <= REFUSED_NOTICES_PER_MINUTE; i++) answers.push((await send(n)).status);
    expect(answers).toEqual(Array(REFUSED_NOTICES_PER_MINUTE + 1).fill(200));
    expect(await notifications(s.accountId)).toHaveLength(1);
    expect(await invoicePaid(s.t.tenantId)).toBe(1);
    // The budget is untouched: forged and stale are refused (400), not rate limited (429).
    expect((await send(fake.signedNotice(payment.gatewayChargeId, { secret: randomBytes(32).toString("hex") }))).status).toBe(400);
    expect((await send(fake.signedNotice(payment.gatewayChargeId, { ts: Math.floor(Date.now() / 1000) - 301 }))).status).toBe(400);
  });

  it("forged, stale, unsigned, or signed for another id than the URL's: 400, nothing fetched, nothing changed; the genuine one still applies", async () => {
    const { s, payment } = await paidPix();
    const id = payment.gatewayChargeId;
    const before = fake.requests.length;
    expect((await post(s.accountId, fake.signedNotice(id, { secret: randomBytes(32).toString("hex") }))).status).toBe(400);
    expect((await post(s.accountId, fake.signedNotice(id, { ts: Math.floor(Date.now() / 1000) - 301 }))).status).toBe(400);
    const n = fake.signedNotice(id);
    // The signature names the URL's data.id: moved to another payment's id, it no longer verifies.
    expect((await post(s.accountId, { ...n, query: `data.id=${Number(id) + 1}&type=payment` })).status).toBe(400);
    const { "x-signature": _sig, ...unsigned } = n.headers;
    expect((await post(s.accountId, { ...n, headers: unsigned }))).toMatchObject({ status: 400, body: { code: "webhook_refused" } });
    expect(fake.requests.length).toBe(before);
    expect(await statusOf(payment.id)).toBe("PROCESSING");
    expect(await notifications(s.accountId)).toHaveLength(0);
    expect((await post(s.accountId, fake.signedNotice(id))).status).toBe(200);
    expect(await statusOf(payment.id)).toBe("PAID");
  });

  it("a signed notice about a payment that is not paid yet changes nothing (the fetched payment decides, not the notice)", async () => {
    const s = await mercadopagoSubscription(fake, "pix");
    const [payment] = await paymentsOf(s.subscriptionId);
    const answer = await post(s.accountId, fake.signedNotice(payment!.gatewayChargeId, { action: "payment.updated" }));
    expect(answer).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await statusOf(payment!.id)).toBe("PROCESSING");
  });

  it("unknown account 404; an account without webhook secret 400; a payment unknown to Mercado Pago 200 ignored", async () => {
    const s = await mercadopagoOffer(fake);
    const n = fake.signedNotice("123456789");
    expect((await post("gwa_doesnotexist000000000000", n)).status).toBe(404);
    const noSecret = await mercadopagoOffer(fake, { credentials: { accessToken: ACCESS_TOKEN, publicKey: PUBLIC_KEY } });
    expect(await post(noSecret.accountId, n)).toMatchObject({ status: 400, body: { code: "webhook_refused" } });
    expect(await post(s.accountId, n)).toMatchObject({ status: 200, body: { result: "ignored" } });
  });

  it("Mercado Pago unreachable while re-fetching: not a 2xx (Mercado Pago delivers again), nothing recorded; the next delivery applies", async () => {
    const { s, payment } = await paidPix();
    fake.failNext("500", { method: "GET", path: /^\/v1\/payments\/\d+$/ });
    const failed = await post(s.accountId, fake.signedNotice(payment.gatewayChargeId));
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await statusOf(payment.id)).toBe("PROCESSING");
    expect(await notifications(s.accountId)).toHaveLength(0);
    expect((await post(s.accountId, fake.signedNotice(payment.gatewayChargeId))).body).toMatchObject({ result: "applied" });
  });
});
