// A real SMTP server on 127.0.0.1 for the e-mail tests: records every message as mailparser reads it.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SmtpCapture {
  url: string;
  received: ParsedMail[];
  /** The envelope recipients of each message, in arrival order. */
  envelopes: string[][];
  close(): Promise<void>;
}

export async function captureSmtp(): Promise<SmtpCapture> {
  const received: ParsedMail[] = [];
  const envelopes: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream).then((m) => {
        received.push(m);
        envelopes.push(session.envelope.rcptTo.map((r) => r.address));
        cb();
      }, cb);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, envelopes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
