// The customer e-mails events cause, end to end: checkout, renewals, dunning, cancel and refund through
// the public surfaces queue them with their events; the send-emails job renders and delivers them to a
// real SMTP server on 127.0.0.1; the tenant's settings and the emails connection.
import { afterAll, describe, expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { smtpMailer } from "../../core/emails/mailer.ts";
import { queueEventEmails } from "../../core/emails/queue-event-emails.ts";
import { queueEmail } from "../../core/emails/queue-email.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { advanceClock, CARDS, checkout, events, payPix, subscribe } from "../helpers/billing.ts";
import { oneTimeOffer } from "../orders/order-helpers.ts";
import { gql, op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";
import { captureSmtp, type SmtpCapture } from "./smtp-capture.ts";

const servers: SmtpCapture[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close().catch(() => {})));
});

const prisma = async () => (await testService()).runtime.db.prisma;
const rows = async (t: TestTenant, kind?: string) =>
  (await prisma()).emailMessage.findMany({ where: { tenantId: t.tenantId, ...(kind ? { kind } : {}) }, orderBy: { id: "asc" } });

/** Runs the send-emails job for the tenant against a fresh SMTP server; returns what arrived. */
async function deliver(t: TestTenant): Promise<ParsedMail[]> {
  const smtp = await captureSmtp();
  servers.push(smtp);
  const runtime = (await testService()).runtime;
  const counts = await sendEmails(runtime, { mailer: smtpMailer(smtp.url), tenantId: t.tenantId });
  expect(counts.failed).toBe(0);
  return smtp.received;
}

const settings = (t: TestTenant, input: Record<string, unknown>) =>
  gql(`mutation($t: ID!, $i: TenantEmailSettingsInput!) { updateTenantEmailSettings(tenantId: $t, input: $i) { senderName replyTo customerEmailsOff } }`, {
    t: t.tenantId,
    i: input,
  });

async function coupon(t: TestTenant) {
  await op(`mutation($t: ID!) { createCoupon(tenantId: $t, code: "BEMVINDO10", percentOff: 10, cycles: 3) { id } }`, { t: t.tenantId });
}

const BRL = (s: string) => new RegExp(`R\\$\\s${s.replace(".", "\\.")}`);

describe("receipt", () => {
  it("card checkout with BEMVINDO10: the amount actually charged, brand and last 4, period and next charge; vendor name and reply-to", async () => {
    const t = await newTenant();
    await coupon(t);
    const set = await settings(t, { senderName: "Loja Exemplo", replyTo: "Suporte@Loja.example.com" });
    expect(set.errors).toBeUndefined();
    expect(set.data.updateTenantEmailSettings).toEqual({ senderName: "Loja Exemplo", replyTo: "suporte@loja.example.com", customerEmailsOff: [] });
    await advanceClock(t, "2027-03-10T10:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { coupon: "BEMVINDO10" });

    const [receipt] = await rows(t, "receipt");
    expect(receipt).toMatchObject({ status: "PENDING", body: null, fromName: "Loja Exemplo", replyTo: "suporte@loja.example.com" });
    const paid = (await events(t, "invoice.paid")).find((e) => e.data.subscription_id === sub.subscription_id)!;
    expect(receipt!.eventId).toBe(paid.id);
    expect(receipt!.sourceKey).toBe(paid.id);
    expect(receipt!.to).toBe(paid.data.customer.email);
    expect(receipt!.subject).toMatch(/^\[TESTE\] /);
    expect(receipt!.subject).toMatch(BRL("44,91"));
    expect(receipt!.params).toMatchObject({
      subject: "invoice",
      amountCents: 4491,
      method: { kind: "card", last4: "4242" },
      periodStart: "2027-03-10T10:00:00.000Z",
      periodEnd: "2027-04-10T10:00:00.000Z",
      nextChargeAt: "2027-04-10T10:00:00.000Z",
      nextChargeCents: 4491,
    });

    const [mail] = await deliver(t);
    expect(mail!.subject).toBe(receipt!.subject);
    expect(mail!.from?.value[0]).toMatchObject({ name: "Loja Exemplo", address: "no-reply@localhost" });
    expect(mail!.replyTo?.value[0]?.address).toBe("suporte@loja.example.com");
    expect(mail!.text).toMatch(BRL("44,91"));
    expect(mail!.text).toMatch(/Visa/i);
    expect(mail!.text).toContain("4242");
    expect(mail!.text).toContain("10 de março de 2027");
    expect(mail!.text).toContain("10 de abril de 2027");
    expect(mail!.text).toContain("Olá, Maria");
    expect(mail!.html).toContain("4242");
    const [sent] = await rows(t, "receipt");
    expect(sent).toMatchObject({ status: "SENT", attempts: 1 });
    // The parts that went out are kept on the row.
    expect(sent!.body).toContain("4242");
    expect(sent!.html).toContain("4242");
  });

  it("receipts turned off for a tenant: none queued, the other e-mails still are", async () => {
    const t = await newTenant();
    expect((await settings(t, { customerEmailsOff: ["receipt"] })).data.updateTenantEmailSettings.customerEmailsOff).toEqual(["receipt"]);
    const sub = await subscribe(t.monthlyOfferId);
    expect((await post(`/v1/subscriptions/${sub.subscription_id}/cancel`, t.writeKey, { reason: "fechando a empresa" })).status).toBe(200);
    expect((await rows(t)).map((r) => r.kind)).toEqual(["subscription_canceled"]);
  });

  it("renewals settled in one batch: a receipt per subscription and cycle, with the cycle's period and the coupon's last cycles", async () => {
    const t = await newTenant();
    await coupon(t);
    await advanceClock(t, "2027-01-15T12:00:00.000Z");
    const subs = [await subscribe(t.monthlyOfferId, { coupon: "BEMVINDO10" }), await subscribe(t.monthlyOfferId)];
    const passed = await advanceClock(t, "2027-03-16T00:00:00.000Z");
    expect(passed.renewed).toBe(4);
    const receipts = (await rows(t, "receipt")).map((r) => ({ to: r.to, p: r.params as Record<string, any> }));
    expect(receipts).toHaveLength(6);
    const paid = await events(t, "invoice.paid");
    const emailOf = (id: string) => paid.find((e) => e.data.subscription_id === id)!.data.customer.email;
    const ofSub = (i: number) => receipts.filter((r) => r.to === emailOf(subs[i]!.subscription_id)).map((r) => [r.p.amountCents, r.p.periodStart, r.p.nextChargeCents]);
    expect(ofSub(0)).toEqual([
      [4491, "2027-01-15T12:00:00.000Z", 4491],
      [4491, "2027-02-15T12:00:00.000Z", 4491],
      [4491, "2027-03-15T12:00:00.000Z", 4990],
    ]);
    expect(ofSub(1)).toEqual([
      [4990, "2027-01-15T12:00:00.000Z", 4990],
      [4990, "2027-02-15T12:00:00.000Z", 4990],
      [4990, "2027-03-15T12:00:00.000Z", 4990],
    ]);
  });

  it("a Pix checkout paid: the receipt says Pix", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId, {}, { pix: true });
    expect(await rows(t, "receipt")).toHaveLength(0);
    await payPix(sub.pix!.copy_paste);
    const [receipt] = await rows(t, "receipt");
    expect(receipt!.params).toMatchObject({ amountCents: 4990, method: { kind: "pix" } });
    const [mail] = (await deliver(t)).filter((m) => m.subject === receipt!.subject);
    expect(mail!.text).toContain("Pix");
  });

  it("a one-time order paid by card: a receipt for the order, no next charge", async () => {
    const t = await newTenant();
    const offerId = await oneTimeOffer(t, { unitPriceCents: 1500 });
    const res = await checkout(offerId, { quantity: "2" });
    expect(res.body.order_id).toBeTruthy();
    const [receipt] = await rows(t, "receipt");
    expect(receipt!.params).toMatchObject({ subject: "order", reference: res.body.order_id, productName: "App", amountCents: 3000, nextChargeAt: null });
    const [mail] = await deliver(t);
    expect(mail!.text).toMatch(BRL("30,00"));
    expect(mail!.text).toContain(res.body.order_id!);
  });

  it("a LIVE tenant's subject has no [TESTE]", async () => {
    const t = await newTenant({ mode: "LIVE" });
    await subscribe(t.monthlyOfferId);
    const [receipt] = await rows(t, "receipt");
    expect(receipt!.subject).not.toContain("[TESTE]");
    expect(receipt!.subject).toMatch(BRL("49,90"));
  });
});

describe("dunning", () => {
  it("a declining renewal: payment_declined with a working /pay link at each step, then subscription_suspended alone", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-06-01T00:00:00.000Z");
    const sub = await subscribe(t.monthlyOfferId, { card_number: CARDS.laterDeclines });
    await advanceClock(t, "2027-07-01T01:00:00.000Z");
    const [declined] = await rows(t, "payment_declined");
    expect(declined).toBeDefined();
    const params = declined!.params as Record<string, any>;
    expect(params).toMatchObject({ amountCents: 4990, nextRetryAt: "2027-07-02T00:00:00.000Z", suspendsAt: "2027-07-10T00:00:00.000Z" });
    expect(params.payUrl).toMatch(/^\/pay\/pl_/);

    const body = (await op(`query($t: ID!) { emailMessages(tenantId: $t) { kind body } }`, { t: t.tenantId })).emailMessages.find(
      (m: any) => m.kind === "payment_declined",
    ).body as string;
    expect(body).toContain(`http://localhost${params.payUrl}`);
    const { baseUrl } = await testService();
    const page = await fetch(`${baseUrl}${params.payUrl}`);
    expect(page.status).toBe(200);

    await advanceClock(t, "2027-07-20T00:00:00.000Z");
    const suspended = await rows(t, "subscription_suspended");
    expect(suspended).toHaveLength(1);
    expect((suspended[0]!.params as any).payUrl).toMatch(/^\/pay\/pl_/);
    // One per failed step before suspension (D0, D+1, D+3, D+5); the last failure is the suspension e-mail.
    const failures = (await events(t, "invoice.payment_failed")).filter((e) => e.data.subscription_id === sub.subscription_id);
    expect(failures.filter((e) => e.data.status === "suspended")).toHaveLength(1);
    expect(await rows(t, "payment_declined")).toHaveLength(failures.length - 1);

    const mails = await deliver(t);
    const susp = mails.find((m) => /suspensa/.test(m.subject ?? ""))!;
    expect(susp.text).toContain("http://localhost/pay/pl_");
  });
});

describe("cancellation and refund", () => {
  it("cancel with a reason: subscription_canceled carries it, delivered", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    expect((await post(`/v1/subscriptions/${sub.subscription_id}/cancel`, t.writeKey, { reason: "Achei caro demais" })).status).toBe(200);
    const [row] = await rows(t, "subscription_canceled");
    expect(row!.params).toMatchObject({ planName: "Pro", reason: "Achei caro demais" });
    const mail = (await deliver(t)).find((m) => m.subject === row!.subject)!;
    expect(mail.text).toContain("Motivo informado: Achei caro demais");
  });

  it("a Pix checkout that expires unpaid ends silently", async () => {
    const t = await newTenant();
    await advanceClock(t, "2027-04-01T12:00:00.000Z");
    await subscribe(t.monthlyOfferId, {}, { pix: true });
    await advanceClock(t, "2027-04-10T12:00:00.000Z");
    expect((await events(t, "subscription.canceled")).length).toBe(1);
    expect(await rows(t, "subscription_canceled")).toHaveLength(0);
  });

  it("refund: refund_issued with the amount refunded, one e-mail for the refund", async () => {
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    const paymentId = (await events(t, "invoice.paid")).find((e) => e.data.subscription_id === sub.subscription_id)!.data.last_payment.payment_id;
    const r = await post(`/v1/payments/${paymentId}/refund`, t.writeKey, { amount_cents: 1500, reason: "cortesia", revoke: "none" });
    expect(r.status).toBe(200);
    const refunds = await rows(t, "refund_issued");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.params).toMatchObject({ reference: paymentId, amountCents: 1500, method: { kind: "card", last4: "4242" } });
    const mail = (await deliver(t)).find((m) => m.subject === refunds[0]!.subject)!;
    expect(mail.text).toMatch(BRL("15,00"));
  });
});

describe("one e-mail per event and template", () => {
  it("the same event queued twice writes one row; the database refuses a second (tenant, template, source)", async () => {
    const t = await newTenant();
    await subscribe(t.monthlyOfferId);
    const db = await prisma();
    const [event] = await db.event.findMany({ where: { tenantId: t.tenantId, type: "invoice.paid" } });
    const again = await db.$transaction((tx) =>
      queueEventEmails(tx, [{ id: event!.id, tenantId: t.tenantId, type: event!.type, data: event!.data as Record<string, unknown>, at: event!.createdAt }]),
    );
    expect(again).toBe(0);
    expect(await rows(t, "receipt")).toHaveLength(1);
    const [row] = await rows(t, "receipt");
    await expect(
      db.emailMessage.create({ data: { id: `${row!.id.slice(0, -4)}ZZZZ`, tenantId: t.tenantId, kind: "receipt", sourceKey: row!.sourceKey, to: row!.to, subject: "x" } }),
    ).rejects.toThrow();
  });
});

describe("vendor rows and settings", () => {
  it("an alarm to the tenant's contact list reaches every address", async () => {
    const t = await newTenant();
    const db = await prisma();
    await db.tenant.update({ where: { id: t.tenantId }, data: { contactEmails: ["ops@loja.example.com", "dev@loja.example.com"] } });
    await db.$transaction((tx) =>
      queueEmail(tx, {
        tenantId: t.tenantId,
        content: { template: "webhook_endpoint_failing", params: { endpointUrl: "https://loja.example.com/hook", reason: "disabled", at: new Date().toISOString(), eventType: null } },
        sourceKey: `alarm-${t.tenantId}`,
        at: new Date(),
      }),
    );
    const smtp = await captureSmtp();
    servers.push(smtp);
    expect(await sendEmails((await testService()).runtime, { mailer: smtpMailer(smtp.url), tenantId: t.tenantId })).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(smtp.envelopes[0]!.sort()).toEqual(["dev@loja.example.com", "ops@loja.example.com"]);
  });

  it("bad settings are invalid_argument and change nothing; the settings read on Tenant", async () => {
    const t = await newTenant();
    for (const input of [{ replyTo: "not an address" }, { replyTo: "a@b.com\r\nBcc: x@y.com" }, { customerEmailsOff: ["receipt", "newsletter"] }, { senderName: "Loja\nX" }]) {
      const r = await settings(t, input);
      expect(r.errors?.[0]?.extensions?.code).toBe("invalid_argument");
    }
    const read = await op(`query($t: ID!) { tenant(id: $t) { name emailSettings { senderName senderNameIsDefault replyTo customerEmailsOff } } }`, { t: t.tenantId });
    expect(read.tenant.emailSettings).toEqual({ senderName: read.tenant.name, senderNameIsDefault: true, replyTo: null, customerEmailsOff: [] });
    const byKey = await gql(`mutation($t: ID!) { updateTenantEmailSettings(tenantId: $t, input: { senderName: "X" }) { senderName } }`, { t: t.tenantId }, t.writeKey);
    expect(byKey.errors).toBeDefined();
  });
});

describe("the emails connection", () => {
  it("lists a tenant's e-mails with SENT after the job, for the operator and the tenant's key; another tenant's key sees none of them", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    await post(`/v1/subscriptions/${sub.subscription_id}/cancel`, t.writeKey, { reason: "teste" });
    const Q = `query($t: ID, $after: String) { emails(tenantId: $t, first: 1, after: $after) {
      edges { cursor node { id template recipient subject status attempts lastErrorCategory sentAt createdAt } } pageInfo { hasNextPage endCursor } } }`;
    const before = await op(Q, { t: t.tenantId });
    expect(before.emails.edges[0].node).toMatchObject({ template: "RECEIPT", status: "PENDING", attempts: 0, sentAt: null });
    expect(before.emails.pageInfo.hasNextPage).toBe(true);

    await deliver(t);
    const all: any[] = [];
    let after: string | null = null;
    do {
      const page: any = (await op(Q, { t: t.tenantId, after })).emails;
      all.push(...page.edges.map((e: any) => e.node));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(all.map((n) => [n.template, n.status])).toEqual([
      ["RECEIPT", "SENT"],
      ["SUBSCRIPTION_CANCELED", "SENT"],
    ]);
    expect(all[0]).toMatchObject({ attempts: 1, lastErrorCategory: null, recipient: expect.stringContaining("@example.com") });
    expect(all[0].sentAt).toBeTruthy();

    const own = await gql(`query { emails(first: 10) { edges { node { id status } } } }`, {}, t.readKey);
    expect(own.data.emails.edges).toHaveLength(2);
    const foreign = await gql(`query { emails(first: 10) { edges { node { id } } } }`, {}, other.readKey);
    expect(foreign.data.emails.edges).toHaveLength(0);
    const named = await gql(`query($t: ID) { emails(tenantId: $t, first: 10) { edges { node { id } } } }`, { t: t.tenantId }, other.readKey);
    expect(named.data?.emails ?? null).toBeNull();
    expect(named.errors?.[0]?.extensions?.code).toBe("not_found");
  });
});
