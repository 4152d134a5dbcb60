// "Your Pix charge": queued with the BR Code wherever a Pix charge is issued (hosted checkout, the
// renewal QR 3 days before the due date, /pay, one-time orders), with the amount, the expiry, the copy-and-paste code and
// a /pay link that shows that charge; one per charge; off when the tenant turned it off.
import { afterAll, describe, expect, it } from "vitest";
import { smtpMailer } from "../../core/emails/mailer.ts";
import { formatMoney } from "../../core/shared/format-money.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { advanceClock, checkout, payPix, subscribe } from "../helpers/billing.ts";
import { get, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { payJson, tokenOf } from "../links/pay-helpers.ts";
import { oneTimeOffer } from "../orders/order-helpers.ts";
import { emailRows, startSmtpSink, toAddresses, type SmtpSink } from "./email-rows.ts";

const sinks: SmtpSink[] = [];
afterAll(async () => {
  await Promise.all(sinks.map((s) => s.close()));
});

/** The /pay page a queued e-mail links to, fetched from the test service. */
async function openPayUrl(payUrl: string) {
  const { baseUrl } = await testService();
  expect(payUrl).toMatch(/^http:\/\/localhost\/pay\/pl_[0-9A-Za-z]+$/);
  const res = await fetch(`${baseUrl}${new URL(payUrl).pathname}`);
  return { status: res.status, text: await res.text() };
}

const customerEmail = async (t: TestTenant, subscriptionId: string) =>
  (await testService()).runtime.db.prisma.subscription
    .findFirstOrThrow({ where: { id: subscriptionId, tenantId: t.tenantId }, include: { customer: true } })
    .then((s) => s.customer.email);

const tenantName = async (t: TestTenant) => (await op(`query($t: ID!) { tenant(id: $t) { name } }`, { t: t.tenantId })).tenant.name as string;

describe("pix_charge_issued", { timeout: 120_000 }, () => {
  it("hosted checkout by Pix: one e-mail with the code, amount, expiry and a /pay link showing the QR; the job delivers it over SMTP", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-10T15:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    const rows = await emailRows(t.tenantId);
    expect(rows.map((r) => r.kind)).toEqual(["pix_charge_issued"]);
    const [row] = rows;
    const payment = await (await testService()).runtime.db.prisma.payment.findFirstOrThrow({ where: { tenantId: t.tenantId, subscriptionId: sub.subscription_id } });
    expect(row).toMatchObject({ sourceKey: payment.id, to: await customerEmail(t, sub.subscription_id), status: "PENDING" });
    expect(row!.createdAt.toISOString()).toBe("2027-03-10T15:00:00.000Z"); // the tenant's clock
    const params = row!.params as Record<string, any>;
    expect(params).toMatchObject({
      reference: payment.id,
      productName: "App",
      planName: "Pro",
      amountCents: 4990,
      brCode: sub.pix!.copy_paste,
      expiresAt: sub.pix!.expires_at,
    });
    expect(params.currency.toLowerCase()).toBe("brl");
    expect(row!.subject).toBe(`[TESTE] Seu Pix de ${formatMoney(4990, "BRL")} para ${await tenantName(t)}: código e QR code`);
    expect(row!.subject).toMatch(/^\[TESTE\] Seu Pix de R\$\s49,90 para /);
    const page = await openPayUrl(params.payUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain(sub.pix!.copy_paste);

    const smtp = await startSmtpSink();
    sinks.push(smtp);
    const { runtime } = await testService();
    expect(await sendEmails(runtime, { mailer: smtpMailer(smtp.url), tenantId: t.tenantId })).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(toAddresses(smtp.received[0]!)).toEqual([row!.to]);
    expect(smtp.received[0]!.subject).toBe(row!.subject);
    expect(smtp.received[0]!.messageId).toBe(`<${row!.id}@billing>`);
  });

  it("the renewal QR issued 3 days before the due date is e-mailed at that instant, once", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-05-31T18:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    await payPix(sub.pix!.copy_paste);
    // One long move over the D-3 instant: the clock stops there and the e-mail carries that time.
    const moved = await advanceClock(t, "2027-06-29T00:00:00.000Z");
    expect(moved.pixIssued).toBe(1);
    const rows = await emailRows(t.tenantId, "pix_charge_issued");
    expect(rows).toHaveLength(2); // the checkout's and the renewal's
    const renewal = rows[1]!;
    expect(renewal.createdAt.toISOString()).toBe("2027-06-27T18:00:00.000Z");
    const payment = await (await testService()).runtime.db.prisma.payment.findFirstOrThrow({ where: { id: renewal.sourceKey, tenantId: t.tenantId } });
    expect(payment).toMatchObject({ method: "PIX", status: "PROCESSING", invoiceId: expect.any(String) });
    const params = renewal.params as Record<string, any>;
    expect(params).toMatchObject({ reference: payment.id, amountCents: 4990, brCode: payment.pixCopyPaste, expiresAt: payment.pixExpiresAt!.toISOString() });
    const page = await openPayUrl(params.payUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain(payment.pixCopyPaste);

    // Asking for the open invoice's link again reuses the live QR: no second e-mail.
    expect((await get(`/v1/subscriptions/${sub.subscription_id}/payment-link`, t.readKey)).status).toBe(200);
    await advanceClock(t, "2027-06-29T12:00:00.000Z");
    expect(await emailRows(t.tenantId, "pix_charge_issued")).toHaveLength(2);
  });

  it("/pay: a renewal link paid by Pix e-mails the order's QR with a /pay link that shows it", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey)).body.url);
    const pending = await payJson(token, { method: "pix" });
    expect(pending.status).toBe(200);
    const rows = await emailRows(t.tenantId, "pix_charge_issued");
    expect(rows).toHaveLength(1);
    const params = rows[0]!.params as Record<string, any>;
    expect(params).toMatchObject({ brCode: pending.body.pix.copy_paste, expiresAt: pending.body.pix.expires_at, planName: "Pro" });
    expect(rows[0]!.to).toBe(await customerEmail(t, id));
    const page = await openPayUrl(params.payUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain(pending.body.pix.copy_paste);
  });

  it("a one-time order by Pix, then its QR reopened after it expired: one e-mail per charge, each linking to the order's QR", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-03-01T12:00:00.000Z");
    const offerId = await oneTimeOffer(t, { unitPriceCents: 2000, grantDays: 7 });
    const res = await checkout(offerId, { quantity: "2" }, { pix: true });
    expect(res.status).toBe(201);
    let rows = await emailRows(t.tenantId, "pix_charge_issued");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.params).toMatchObject({ amountCents: 4000, brCode: res.body.pix!.copy_paste, planName: "Pro", productName: "App" });
    expect((await openPayUrl((rows[0]!.params as any).payUrl)).text).toContain(res.body.pix!.copy_paste);

    await advanceClock(t, "2027-03-03T12:00:00.000Z");
    const reopened = await get(`/v1/orders/${res.body.order_id}/payment-link`, t.readKey);
    expect(reopened.status).toBe(200);
    await get(`/v1/orders/${res.body.order_id}/payment-link`, t.readKey); // the same live QR: no third e-mail
    rows = await emailRows(t.tenantId, "pix_charge_issued");
    expect(rows).toHaveLength(2);
    expect(rows[1]!.createdAt.toISOString()).toBe("2027-03-03T12:00:00.000Z");
    expect(rows[1]!.params).toMatchObject({ amountCents: 4000, brCode: reopened.body.pix.copy_paste });
    expect((await openPayUrl((rows[1]!.params as any).payUrl)).text).toContain(reopened.body.pix.copy_paste);
  });

  it("a tenant that sends its own Pix e-mails: nothing queued", async () => {
    const t = await newTenant();
    await (await testService()).runtime.db.prisma.tenant.update({ where: { id: t.tenantId }, data: { customerEmailsOff: ["pix_charge_issued"] } });
    await subscribe(t.monthlyOfferId, {}, { pix: true });
    expect(await emailRows(t.tenantId)).toEqual([]);
  });

  it("a card checkout queues no Pix e-mail", async () => {
    const t = await newTenant();
    await subscribe(t.monthlyOfferId);
    expect(await emailRows(t.tenantId, "pix_charge_issued")).toEqual([]);
  });
});
