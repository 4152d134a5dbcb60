// Shared by the e-mail tests of Pix, trials and vendor alarms: the outbox rows of a tenant and a
// minimal SMTP server on 127.0.0.1 that keeps what it receives.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { testService } from "../helpers/service.ts";

export async function emailRows(tenantId: string, kind?: string) {
  const prisma = (await testService()).runtime.db.prisma;
  return prisma.emailMessage.findMany({ where: { tenantId, ...(kind ? { kind } : {}) }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

export interface SmtpSink {
  url: string;
  received: ParsedMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, cb) {
      simpleParser(stream).then((m) => {
        received.push(m);
        cb();
      }, cb);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The addresses a received message was sent to. */
export function toAddresses(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => v.address ?? ""));
}
