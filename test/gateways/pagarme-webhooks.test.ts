// Inbound Pagar.me notices: POST /gateways/{gateway_account_id}/webhooks against the fake
// Pagar.me (test/fakes/pagarme/). Pagar.me v5 signs nothing, so a notice is only a hint: the adapter
// re-reads the charge (or order) by id with the account's secret key and acts on what Pagar.me answers.
// The state is built with the core use cases (issuePixCharge, chargeInvoice) on a Pagar.me account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeInvoice } from "../../core/billing/charge-invoice.ts";
import { ensureCycleInvoice } from "../../core/billing/ensure-cycle-invoice.ts";
import { issuePixCharge } from "../../core/billing/issue-pix-charge.ts";
import type { PagarmeAdapter } from "../../core/gateways/pagarme-adapter.ts";
import { accountRef } from "../../core/gateways/registry.ts";
import type { FakePagarme } from "../fakes/pagarme/fake-pagarme.ts";
import { makeCustomer, makeSubscription } from "../helpers/factories.ts";
import { deliverNotice, PAGARME_PUBLIC_KEY, PAGARME_SECRET_KEY, pagarmeOffer, sealWithoutNoticeToken, startPagarmeTestbed, type PagarmeOffer } from "../helpers/pagarme.ts";
import { op } from "../helpers/http.ts";
import type { TestService } from "../helpers/service.ts";
import { REFUSED_NOTICES_PER_MINUTE } from "../../server/gateway-webhooks.ts";
import { sendFrom } from "../security/hosted-client.ts";

let fake: FakePagarme;
let svc: TestService;
beforeAll(async () => void ({ fake, svc } = await startPagarmeTestbed()));
afterAll(() => fake?.close());

const prisma = () => svc.runtime.db.prisma;
const now = () => svc.runtime.wallClock.now();

/** A subscription of the Pagar.me offer with a card saved at the fake (token cus_|card_), and its open December invoice. */
async function subscriptionWithInvoice(s: PagarmeOffer, cardNumber = "4000000000000010") {
  const made = await makeCustomer(s.t);
  const customer = await prisma().customer.update({ where: { id: made.id }, data: { doc: "52998224725", phone: "+5511987654321" } });
  const sub = await makeSubscription(s.t, customer.id, { offerId: s.offerId });
  const account = await prisma().gatewayAccount.findUniqueOrThrow({ where: { id: s.accountId } });
  const saved = await (svc.runtime.gateways.adapter("pagarme") as PagarmeAdapter).savePaymentMethod(
    accountRef(account),
    { paymentMethodId: fake.tokenFor(cardNumber), customerRef: customer.id, email: customer.email, name: customer.name },
    now(),
  );
  if (!saved.ok) throw new Error(`save failed: ${saved.code}`);
  await prisma().paymentMethod.update({ where: { id: sub.paymentMethodId! }, data: { token: saved.token, gatewayAccountId: s.accountId } });
  const invoice = (await ensureCycleInvoice(svc.runtime, { tenantId: s.t.tenantId, subscriptionId: sub.id, periodStart: sub.currentPeriodEnd!, anchorDay: 1, now: now() }))!;
  return { customer, sub, invoice };
}

const eventCount = (s: PagarmeOffer, type: string) => prisma().event.count({ where: { tenantId: s.t.tenantId, type } });
const notifications = (s: PagarmeOffer) => prisma().gatewayNotification.findMany({ where: { gatewayAccountId: s.accountId }, orderBy: { id: "asc" } });
const paymentStatus = async (id: string) => (await prisma().payment.findUniqueOrThrow({ where: { id } })).status;

/** A Pix of the invoice issued at the fake through the adapter (its payer looked up from our customer). */
async function pendingPix(s: PagarmeOffer) {
  const { invoice } = await subscriptionWithInvoice(s);
  const pix = await issuePixCharge(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, expiresAt: new Date(now().getTime() + 3_600_000), now: now() });
  const payment = await prisma().payment.findUniqueOrThrow({ where: { id: pix.paymentId } });
  return { invoice, payment };
}

describe("POST /gateways/{gateway_account_id}/webhooks (Pagar.me, unsigned: re-read by id)", () => {
  it("charge.paid of a Pix: re-read at Pagar.me, payment and invoice paid once; the same notice again is 200 duplicate", async () => {
    const s = await pagarmeOffer(fake);
    const { invoice, payment } = await pendingPix(s);
    expect(payment.status).toBe("PROCESSING");
    // Pagar.me got the payer from our customer (a Pix order must name its payer).
    expect(fake.charges.get(payment.gatewayChargeId)!.customer).toMatchObject({ document: "52998224725", phones: { mobile_phone: { area_code: "11" } } });
    fake.payPix(payment.gatewayChargeId);
    const notice = fake.lastEvent("charge.paid", payment.gatewayChargeId)!;
    const reads = () => fake.requests.filter((r) => r.method === "GET" && r.path === `/charges/${payment.gatewayChargeId}`).length;
    const before = reads();
    expect(await deliverNotice(s.accountId, notice)).toMatchObject({ status: 200, body: { received: true, event_id: notice.id, result: "applied" } });
    expect(reads()).toBe(before + 1); // the notice was confirmed with Pagar.me before acting
    expect(await paymentStatus(payment.id)).toBe("PAID");
    expect((await prisma().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe("PAID");
    expect(await eventCount(s, "invoice.paid")).toBe(1);
    const rows = await notifications(s);
    expect(rows).toMatchObject([{ providerEventId: notice.id, kind: "pix_paid", result: "applied" }]);
    expect(JSON.stringify(rows[0]!.summary)).not.toMatch(/sk_test_|pk_test_/);
    // Pagar.me delivers again (and the order.paid notice of the same payment): nothing twice.
    expect(await deliverNotice(s.accountId, notice)).toMatchObject({ status: 200, body: { received: true, event_id: notice.id, result: "duplicate" } });
    expect(await deliverNotice(s.accountId, fake.lastEvent("order.paid", payment.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await eventCount(s, "invoice.paid")).toBe(1);
    expect(await notifications(s)).toHaveLength(2);
  });

  it("verified duplicates never count as refusals; a notice naming nothing at Pagar.me is still 400", async () => {
    const s = await pagarmeOffer(fake);
    const { payment } = await pendingPix(s);
    fake.payPix(payment.gatewayChargeId);
    const notice = fake.lastEvent("charge.paid", payment.gatewayChargeId)!;
    const from = "127.0.0.82";
    const url = new URL(s.webhookUrl);
    const send = (body: object) => sendFrom(from, svc.baseUrl, `${url.pathname}${url.search}`, JSON.stringify(body), { "content-type": "application/json" });
    expect((await send(notice)).json()).toMatchObject({ result: "applied" });
    const answers: number[] = [];
    for (let i = 0; i <= REFUSED_NOTICES_PER_MINUTE; i++) answers.push((await send(notice)).status);
    expect(answers).toEqual(Array(REFUSED_NOTICES_PER_MINUTE + 1).fill(200));
    expect(await notifications(s)).toHaveLength(1);
    expect(await eventCount(s, "invoice.paid")).toBe(1);
    // The budget is untouched: a made-up notice is refused (400), not rate limited (429).
    expect((await send(fake.notice("charge.paid", { id: "ch_notatpagarme000000", status: "paid" }))).status).toBe(400);
  });

  it("a Pix Pagar.me reports paid short (paid_amount 100): nothing is paid, the 100 received are refunded, the invoice stays open", async () => {
    const s = await pagarmeOffer(fake);
    const { invoice, payment } = await pendingPix(s);
    fake.payPix(payment.gatewayChargeId);
    fake.charges.get(payment.gatewayChargeId)!.paid_amount = 100;
    expect(await deliverNotice(s.accountId, fake.lastEvent("charge.paid", payment.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "applied" } });
    const cancels = fake.requests.filter((r) => r.method === "DELETE" && r.path === `/charges/${payment.gatewayChargeId}` && !r.replayed);
    expect(cancels.map((r) => r.body.amount)).toEqual([100]);
    expect(await prisma().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: "REFUNDED", amountCents: invoice.amountCents, amountReceivedCents: 100, refundedAmountCents: 100 });
    expect((await prisma().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe("OPEN");
    expect(await eventCount(s, "invoice.paid")).toBe(0);
  });

  it("a forged notice claiming paid for an unpaid Pix changes nothing; a notice for an unknown id is refused", async () => {
    const s = await pagarmeOffer(fake);
    const { payment } = await pendingPix(s);
    const charge = fake.charges.get(payment.gatewayChargeId)!;
    const forged = fake.notice("charge.paid", { ...charge, status: "paid", paid_amount: charge.amount, last_transaction: { ...charge.last_transaction, status: "paid" } });
    expect(await deliverNotice(s.accountId, forged)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await paymentStatus(payment.id)).toBe("PROCESSING");
    expect(await eventCount(s, "invoice.paid")).toBe(0);
    expect((await deliverNotice(s.accountId, fake.notice("charge.paid", { id: "ch_notatpagarme000000", status: "paid" }))).status).toBe(400);
    expect((await deliverNotice(s.accountId, { hello: "world" })).status).toBe(400);
    expect(await paymentStatus(payment.id)).toBe("PROCESSING");
    // The genuine payment, later, still applies.
    fake.payPix(payment.gatewayChargeId);
    expect(await deliverNotice(s.accountId, fake.lastEvent("charge.paid", payment.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await paymentStatus(payment.id)).toBe("PAID");
  });

  it("the notice URL's secret token is required: without it, or with another one, 400 before anything is read at Pagar.me", async () => {
    const s = await pagarmeOffer(fake);
    const other = await pagarmeOffer(fake);
    expect(s.webhookUrl).toMatch(new RegExp(`/gateways/${s.accountId}/webhooks\\?token=wht_[A-Za-z0-9_-]{43}$`));
    const { payment } = await pendingPix(s);
    fake.payPix(payment.gatewayChargeId);
    const notice = fake.lastEvent("charge.paid", payment.gatewayChargeId)!;
    const reads = () => fake.requests.filter((r) => r.method === "GET").length;
    const before = reads();
    const otherToken = new URL(other.webhookUrl).searchParams.get("token")!;
    for (const token of [null, "", otherToken, `${new URL(s.webhookUrl).searchParams.get("token")}x`]) {
      expect((await deliverNotice(s.accountId, notice, { token })).status).toBe(400);
    }
    expect(reads()).toBe(before);
    expect(await notifications(s)).toHaveLength(0);
    expect(await paymentStatus(payment.id)).toBe("PROCESSING");
    expect(await deliverNotice(s.accountId, notice)).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await paymentStatus(payment.id)).toBe("PAID");
  });

  it("an account sealed before notice tokens is still heard without one; once its credentials are updated, the token is required", async () => {
    const s = await pagarmeOffer(fake);
    await sealWithoutNoticeToken(s.accountId);
    const first = await pendingPix(s);
    fake.payPix(first.payment.gatewayChargeId);
    expect(await deliverNotice(s.accountId, fake.lastEvent("charge.paid", first.payment.gatewayChargeId)!, { token: null })).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await paymentStatus(first.payment.id)).toBe("PAID");
    const updated = await op(`mutation($id: ID!, $c: JSON!) { updateGatewayAccountCredentials(id: $id, credentials: $c) { webhookUrl } }`, {
      id: s.accountId,
      c: { secretKey: PAGARME_SECRET_KEY, publicKey: PAGARME_PUBLIC_KEY },
    });
    const token = new URL(updated.updateGatewayAccountCredentials.webhookUrl as string).searchParams.get("token");
    expect(token).toMatch(/^wht_/);
    const second = await pendingPix(s);
    fake.payPix(second.payment.gatewayChargeId);
    const notice = fake.lastEvent("charge.paid", second.payment.gatewayChargeId)!;
    expect((await deliverNotice(s.accountId, notice, { token: null })).status).toBe(400);
    expect(await paymentStatus(second.payment.id)).toBe("PROCESSING");
    expect(await deliverNotice(s.accountId, notice, { token })).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await paymentStatus(second.payment.id)).toBe("PAID");
  });

  it("another account's charge posted to this account's address changes nothing (payments are scoped by account)", async () => {
    const a = await pagarmeOffer(fake);
    const b = await pagarmeOffer(fake);
    const { payment } = await pendingPix(a);
    fake.payPix(payment.gatewayChargeId);
    expect(await deliverNotice(b.accountId, fake.lastEvent("charge.paid", payment.gatewayChargeId)!)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await paymentStatus(payment.id)).toBe("PROCESSING");
    expect(await eventCount(a, "invoice.paid")).toBe(0);
    expect((await deliverNotice("gwa_doesnotexist000000", fake.notice("charge.paid", { id: payment.gatewayChargeId }))).status).toBe(404);
  });

  it("Pagar.me unreachable while re-reading: 5xx (Pagar.me delivers again), nothing recorded, applied on the next delivery", async () => {
    const s = await pagarmeOffer(fake);
    const { payment } = await pendingPix(s);
    fake.payPix(payment.gatewayChargeId);
    const notice = fake.lastEvent("charge.paid", payment.gatewayChargeId)!;
    fake.failNext("500", { method: "GET", path: /^\/charges\// });
    expect((await deliverNotice(s.accountId, notice)).status).toBeGreaterThanOrEqual(500);
    expect(await notifications(s)).toHaveLength(0);
    expect(await paymentStatus(payment.id)).toBe("PROCESSING");
    expect(await deliverNotice(s.accountId, notice)).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await paymentStatus(payment.id)).toBe("PAID");
  });

  it("a forged charge.chargedback for a paid charge is re-read as paid and changes nothing (the genuine one is the contract suite's)", async () => {
    const s = await pagarmeOffer(fake);
    const { invoice } = await subscriptionWithInvoice(s);
    expect(await chargeInvoice(svc.runtime, { tenantId: s.t.tenantId, invoiceId: invoice.id, now: now() })).toBe("paid");
    const payment = await prisma().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    const forged = fake.notice("charge.chargedback", { ...fake.charges.get(payment.gatewayChargeId)!, status: "chargedback" });
    expect(await deliverNotice(s.accountId, forged)).toMatchObject({ status: 200, body: { result: "ignored" } });
    expect(await paymentStatus(payment.id)).toBe("PAID");
    expect(await eventCount(s, "subscription.canceled")).toBe(0);
  });
});
