// A rendered Pix e-mail through the real mailer: over SMTP to a server on 127.0.0.1, and as an .eml
// file, read back with mailparser. The QR code arrives as an inline PNG under the cid the HTML uses,
// and the vendor's reply-to is carried.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileMailer, smtpMailer, type OutgoingEmail } from "../../core/emails/mailer.ts";
import type { RenderedEmail } from "../../core/emails/templates/email-content.ts";
import { renderEmail } from "../../core/emails/templates/render-email.ts";
import { BR_CODE, CONTENT, CUSTOMER_FRAME } from "../helpers/email-content.ts";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the PNG's IHDR chunk (which must come first). */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

function outgoing(id: string, r: RenderedEmail): OutgoingEmail {
  return {
    id,
    messageId: `<${id}@billing.test>`,
    from: "Acme Cursos <no-reply@billing.test>",
    to: "maria@cliente.test",
    replyTo: "suporte@acme.test",
    subject: r.subject,
    text: r.text,
    html: r.html,
    inline: r.inline,
  };
}

/** What every transport must deliver for the Pix e-mail. */
function expectPixMessage(m: ParsedMail, r: RenderedEmail): void {
  expect(m.subject).toBe(r.subject);
  expect(m.replyTo?.value).toEqual([{ address: "suporte@acme.test", name: "" }]);
  expect(m.text).toContain(BR_CODE);
  const [qr] = r.inline;
  expect(m.attachments).toHaveLength(1);
  const a = m.attachments[0]!;
  expect(a.cid).toBe(qr!.cid);
  expect(a.contentType).toBe("image/png");
  expect(a.contentDisposition).toBe("inline");
  expect(a.related).toBe(true);
  expect(Buffer.from(a.content).equals(qr!.content)).toBe(true);
  expect(pngSize(Buffer.from(a.content))).toEqual([240, 240]);
  expect(m.html).toContain(`src="cid:${qr!.cid}"`);
  expect(m.html).toContain(BR_CODE);
}

describe("a Pix e-mail through the mailer", () => {
  const received: ParsedMail[] = [];
  let server: SMTPServer;
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, cb) {
        // keepCidLinks: read the HTML as sent, not with the images already swapped in.
        simpleParser(stream, { keepCidLinks: true }).then((m) => {
          received.push(m);
          cb();
        }, cb);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("over SMTP: the QR code is an inline PNG under its cid, and reply-to is carried", async () => {
    const r = await renderEmail(CONTENT.pix_charge_issued, CUSTOMER_FRAME);
    await smtpMailer(`smtp://127.0.0.1:${port}`).send(outgoing("eml_pix_smtp", r));
    expect(received).toHaveLength(1);
    expectPixMessage(received[0]!, r);
    expect(received[0]!.messageId).toBe("<eml_pix_smtp@billing.test>");
  });

  it("as an .eml file: the same attachment and reply-to", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-"));
    try {
      const r = await renderEmail(CONTENT.pix_charge_issued, { ...CUSTOMER_FRAME, sandbox: true });
      await fileMailer(dir, pino({ level: "silent" })).send(outgoing("eml_pix_file", r));
      const m = await simpleParser(fs.readFileSync(path.join(dir, "eml_pix_file.eml")), { keepCidLinks: true });
      expectPixMessage(m, r);
      expect(m.subject?.startsWith("[TESTE] ")).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a message without reply-to or images is sent as before", async () => {
    const r = await renderEmail(CONTENT.receipt, CUSTOMER_FRAME);
    const before = received.length;
    await smtpMailer(`smtp://127.0.0.1:${port}`).send({ ...outgoing("eml_receipt", r), replyTo: null, inline: undefined });
    const m = received[before]!;
    expect(m.replyTo).toBeUndefined();
    expect(m.attachments).toEqual([]);
    expect(m.text).toContain("Cartão Visa final 4242");
  });
});
