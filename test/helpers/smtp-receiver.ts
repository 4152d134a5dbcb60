// A real SMTP server on 127.0.0.1 (smtp-server) that records every message it accepts, parsed with
// mailparser: what the e-mail drills and multi-instance tests count, by Message-ID and recipient.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface Receipt {
  /** Order in which the messages' DATA began, from 0. */
  seq: number;
  messageId: string;
  /** The first recipient's address. */
  to: string;
  subject: string;
  /** Whatever the test's `tag()` said when DATA began (e.g. which process generation was sending). */
  tag: number;
}

export class SmtpReceiver {
  readonly receipts: Receipt[] = [];
  /** Tags each receipt at the moment the server accepts it (before it answers 250). */
  tag: () => number = () => 0;
  /** A pause before each 250 reply: a slow server, so that concurrent senders overlap. */
  acceptDelayMs = 0;
  private started = 0;
  private constructor(private readonly server: SMTPServer, readonly port: number) {}

  static async start(): Promise<SmtpReceiver> {
    let self: SmtpReceiver | null = null;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, cb) {
        // Order and tag when DATA starts (the sender is surely alive then), not when parsing ends.
        const seq = self!.started++;
        const tag = self!.tag();
        simpleParser(stream).then((m) => {
          const to = m.to && !Array.isArray(m.to) ? (m.to.value[0]?.address ?? "") : "";
          self!.receipts.push({ seq, messageId: m.messageId ?? "", to, subject: m.subject ?? "", tag });
          if (self!.acceptDelayMs > 0) setTimeout(() => cb(), self!.acceptDelayMs);
          else cb();
        }, cb);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    self = new SmtpReceiver(server, (server.server.address() as AddressInfo).port);
    return self;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Receipts per Message-ID. */
  byMessageId(): Map<string, Receipt[]> {
    const out = new Map<string, Receipt[]>();
    for (const r of this.receipts) out.set(r.messageId, [...(out.get(r.messageId) ?? []), r]);
    return out;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
