// The e-mail outbox against a real SMTP server on 127.0.0.1: a cancellation through /v1 queues its
// e-mail in the canceling transaction, the send-emails job delivers it once; outages and 4xx replies
// are retried, a 5xx fails the message alone; the .eml default; no header injection.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";
import { fileMailer, smtpMailer } from "../../core/emails/mailer.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { subscribe } from "../helpers/billing.ts";
import { op, post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant as newTestTenant, type TestTenant } from "../helpers/tenant.ts";

interface Smtp {
  port: number;
  received: ParsedMail[];
  /** Reply code for the next MAIL FROM (421, 550...) or per recipient. */
  mailFromReply?: number;
  rcptReply?: (address: string) => number | undefined;
  close(): Promise<void>;
  listen(): Promise<void>;
}

async function startSmtp(port = 0): Promise<Smtp> {
  const received: ParsedMail[] = [];
  const state: Smtp = {
    port,
    received,
    close: async () => {},
    listen: async () => {},
  };
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onMailFrom(_addr, _session, cb) {
        const code = state.mailFromReply;
        if (code) return cb(Object.assign(new Error(`refused with ${code}`), { responseCode: code }));
        cb();
      },
      onRcptTo(addr, _session, cb) {
        const code = state.rcptReply?.(addr.address);
        if (code) return cb(Object.assign(new Error(`mailbox refused ${code}`), { responseCode: code }));
        cb();
      },
      onData(stream, _session, cb) {
        simpleParser(stream).then((m) => {
          received.push(m);
          cb();
        }, cb);
      },
    });
  let server = make();
  state.listen = async () => {
    server = make();
    await new Promise<void>((resolve) => server.listen(state.port, "127.0.0.1", () => resolve()));
    state.port = (server.server.address() as AddressInfo).port;
  };
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await state.listen();
  return state;
}

/** A tenant whose outbox holds only what these tests make (its checkouts' receipts are turned off). */
async function newTenant(): Promise<TestTenant> {
  const t = await newTestTenant();
  await op(`mutation($t: ID!) { updateTenantEmailSettings(tenantId: $t, input: { customerEmailsOff: ["receipt"] }) { customerEmailsOff } }`, { t: t.tenantId });
  return t;
}

const cancel = (t: TestTenant, id: string, reason?: string) => post(`/v1/subscriptions/${id}/cancel`, t.writeKey, reason ? { reason } : {});
const prisma = async () => (await testService()).runtime.db.prisma;
const rows = async (t: TestTenant) => (await prisma()).emailMessage.findMany({ where: { tenantId: t.tenantId }, orderBy: { createdAt: "asc" } });
const later = (ms: number) => () => new Date(Date.now() + ms);

const servers: Smtp[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close().catch(() => {})));
});

describe("send-emails job over SMTP", () => {
  it("delivers the cancellation e-mail once, with its To, Subject, Message-ID and text", async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    expect((await cancel(t, sub.subscription_id, "Achei caro demais")).status).toBe(200);
    const [row] = await rows(t);
    expect(row).toMatchObject({ status: "PENDING", attempts: 0, messageId: `<${row!.id}@billing>` });

    const runtime = (await testService()).runtime;
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId })).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: later(3_600_000) })).toEqual({ sent: 0, retry: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]!.address : null).toBe(row!.to);
    expect(mail.subject).toBe(row!.subject);
    expect(mail.subject).toMatch(/^\[TESTE\] Sua assinatura do plano Pro foi cancelada/);
    expect(mail.messageId).toBe(`<${row!.id}@billing>`);
    expect(mail.from?.text).toContain("no-reply@localhost");
    expect(mail.text).toContain("Motivo informado: Achei caro demais");
    const [sent] = await rows(t);
    expect(sent).toMatchObject({ status: "SENT", attempts: 1, lastErrorCategory: null });
    expect(sent!.sentAt).toBeInstanceOf(Date);
  });

  it("three senders at once deliver each message once", async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    const t = await newTenant();
    for (let i = 0; i < 3; i++) {
      const sub = await subscribe(t.monthlyOfferId);
      expect((await cancel(t, sub.subscription_id)).status).toBe(200);
    }
    const runtime = (await testService()).runtime;
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    const counts = await Promise.all([1, 2, 3].map(() => sendEmails(runtime, { mailer, tenantId: t.tenantId })));
    expect(counts.reduce((n, c) => n + c.sent, 0)).toBe(3);
    expect(smtp.received).toHaveLength(3);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(3);
  });

  it("an outage (server down), then back: retried after a short backoff, delivered once", async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    await smtp.close();
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    expect((await cancel(t, sub.subscription_id)).status).toBe(200);
    const runtime = (await testService()).runtime;
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);

    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId })).toEqual({ sent: 0, retry: 1, failed: 0 });
    const [down] = await rows(t);
    expect(down).toMatchObject({ status: "PENDING", attempts: 1, lastErrorCategory: "connection" });
    // Not due again at once; due within the backoff cap.
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId })).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(down!.nextAttemptAt!.getTime() - Date.now()).toBeLessThanOrEqual(30_000);

    await smtp.listen();
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: later(30_000) })).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: later(120_000) })).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect((await rows(t))[0]).toMatchObject({ status: "SENT", attempts: 2 });
  });

  it("a 421 reply is a temporary rejection, retried; the backoff is capped at 30 s", async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    smtp.mailFromReply = 421;
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    expect((await cancel(t, sub.subscription_id)).status).toBe(200);
    const runtime = (await testService()).runtime;
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    let offset = 0;
    for (let i = 0; i < 5; i++) {
      expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: later(offset) })).toEqual({ sent: 0, retry: 1, failed: 0 });
      const [row] = await rows(t);
      expect(row).toMatchObject({ attempts: i + 1, lastErrorCategory: "temporary_rejection" });
      const wait = row!.nextAttemptAt!.getTime() - (Date.now() + offset);
      expect(wait).toBeLessThanOrEqual(30_500);
      offset += 31_000;
    }
    smtp.mailFromReply = undefined;
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: later(offset) })).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("a 550 for one recipient: that message FAILED with permanent_rejection, the others are sent", async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    smtp.rcptReply = (a) => (a.startsWith("refused-") ? 550 : undefined);
    const t = await newTenant();
    const bad = await subscribe(t.monthlyOfferId, { email: `refused-${Date.now()}@example.com` });
    const good = await subscribe(t.monthlyOfferId);
    expect((await cancel(t, bad.subscription_id)).status).toBe(200);
    expect((await cancel(t, good.subscription_id)).status).toBe(200);
    const runtime = (await testService()).runtime;
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId })).toEqual({ sent: 1, retry: 0, failed: 1 });
    const all = await rows(t);
    expect(all.find((r) => r.to.startsWith("refused-"))).toMatchObject({ status: "FAILED", attempts: 1, lastErrorCategory: "permanent_rejection" });
    expect(all.find((r) => !r.to.startsWith("refused-"))).toMatchObject({ status: "SENT" });
    expect(smtp.received).toHaveLength(1);
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, now: later(3_600_000) })).toEqual({ sent: 0, retry: 0, failed: 0 });
  });

  it("CR/LF in a plan name (the subject) and in MAIL_FROM's name inject no header", async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    const t = await newTenant();
    const plan = await op(`mutation($t: ID!, $p: ID!) { createPlan(tenantId: $t, productId: $p, name: "Pro\\r\\nBcc: evil@example.com\\r\\nX-Injected: 1", entitlements: {}) { id } }`, {
      t: t.tenantId,
      p: t.productId,
    }).catch(() => null);
    let subscriptionId: string;
    if (plan) {
      const offer = await op(
        `mutation($t: ID!, $p: ID!) { createOffer(tenantId: $t, planId: $p, name: "Pro", interval: MONTH, priceCents: 4990, currency: "BRL", gateway: "sandbox",
          collectionMethods: [CARD_AUTO, PIX_MANUAL], trialDays: 0) { id } }`,
        { t: t.tenantId, p: plan.createPlan.id },
      );
      subscriptionId = (await subscribe(offer.createOffer.id)).subscription_id;
    } else {
      // The catalog refuses such a name: the sender still guards a subject written by anything else.
      subscriptionId = (await subscribe(t.monthlyOfferId)).subscription_id;
    }
    expect((await cancel(t, subscriptionId)).status).toBe(200);
    if (!plan) await (await prisma()).emailMessage.updateMany({ where: { tenantId: t.tenantId }, data: { subject: "Oi\r\nBcc: evil@example.com\r\nX-Injected: 1" } });

    const runtime = (await testService()).runtime;
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    expect(await sendEmails(runtime, { mailer, tenantId: t.tenantId, from: "Loja\r\nX-Evil: 1 <loja@example.com>" })).toEqual({ sent: 1, retry: 0, failed: 0 });
    const mail = smtp.received[0]!;
    expect(mail.headers.has("x-injected")).toBe(false);
    expect(mail.headers.has("x-evil")).toBe(false);
    expect(mail.bcc).toBeUndefined();
    expect(mail.subject).toContain("Bcc: evil@example.com");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.from?.value[0]?.address).toBe("loja@example.com");
  });
});

describe("send-emails job without SMTP_URL", () => {
  it("writes each message as a parseable .eml file under the mail directory", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-"));
    const t = await newTenant();
    const sub = await subscribe(t.monthlyOfferId);
    expect((await cancel(t, sub.subscription_id, "Mudei de ideia")).status).toBe(200);
    const runtime = (await testService()).runtime;
    expect(await sendEmails(runtime, { mailer: fileMailer(dir, runtime.logger), tenantId: t.tenantId })).toEqual({ sent: 1, retry: 0, failed: 0 });
    const [row] = await rows(t);
    const file = path.join(dir, `${row!.id}.eml`);
    const mail = await simpleParser(fs.readFileSync(file));
    expect(mail.messageId).toBe(`<${row!.id}@billing>`);
    expect(mail.subject).toBe(row!.subject);
    expect(mail.text).toContain("Motivo informado: Mudei de ideia");
    expect(row).toMatchObject({ status: "SENT" });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
