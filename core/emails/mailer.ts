// The e-mail transport: SMTP when SMTP_URL is set, else each message written as an .eml file under
// DATA_DIR/mail/ (the embedded default: `npm start` shows what would be sent, nothing leaves the host).
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type SendMailOptions } from "nodemailer";
import type { Logger } from "pino";
import type { InlineImage } from "./templates/email-content.ts";

export interface OutgoingEmail {
  /** Our id: names the .eml file. */
  id: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** The vendor's reply-to address, when it set one. */
  replyTo?: string | null;
  /** Images the HTML shows through cid: links (the Pix QR code). */
  inline?: InlineImage[];
}

export interface Mailer {
  /** One line for the banner, without credentials. */
  readonly description: string;
  send(message: OutgoingEmail): Promise<void>;
  /** Resolves when the server answers (or always, for files); rejects with the reason otherwise. */
  verify(): Promise<void>;
}

export const DEFAULT_MAIL_FROM = "Billing <no-reply@localhost>";

// Bounded so that a hung server frees the claimed message well before its lease runs out.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The same message for both transports: inline images as attachments with a Content-ID. */
function nodemailerMessage(m: OutgoingEmail): SendMailOptions {
  return {
    messageId: m.messageId,
    from: m.from,
    to: m.to,
    replyTo: m.replyTo ?? undefined,
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    attachments: m.inline?.map((i) => ({ cid: i.cid, filename: i.filename, contentType: i.contentType, content: i.content, contentDisposition: "inline" as const })),
  };
}

export function smtpMailer(url: string): Mailer {
  const u = new URL(url);
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:") throw new Error(`SMTP_URL must be smtp:// or smtps://, got ${u.protocol}`);
  const secure = u.protocol === "smtps:";
  // nodemailer upgrades a smtp:// connection with STARTTLS whenever the server offers it.
  const transport = nodemailer.createTransport({
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    ...TIMEOUTS,
  });
  return {
    description: `SMTP ${u.protocol}//${u.host}`,
    async send(m) {
      await transport.sendMail(nodemailerMessage(m));
    },
    async verify() {
      await transport.verify();
    },
  };
}

export function fileMailer(dir: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    description: `written to ${dir} (SMTP_URL unset)`,
    async send(m) {
      const info = await transport.sendMail(nodemailerMessage(m));
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${m.id}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      logger.info({ email: m.id, file }, "e-mail written");
    },
    async verify() {
      await fs.mkdir(dir, { recursive: true });
    },
  };
}

export function mailerFromEnv(logger: Logger, dataDir: string, env: NodeJS.ProcessEnv = process.env): Mailer {
  return env.SMTP_URL ? smtpMailer(env.SMTP_URL) : fileMailer(path.join(dataDir, "mail"), logger);
}

export function mailFrom(env: NodeJS.ProcessEnv = process.env): string {
  return env.MAIL_FROM || DEFAULT_MAIL_FROM;
}
