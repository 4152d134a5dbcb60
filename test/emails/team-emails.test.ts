// Team e-mails through the outbox, against a real SMTP server: an operator's invitation and a password
// reset asked on /panel/forgot are queued with their link and delivered to the one address named; the
// link works (once, for a reset), and its single-use token is never readable at rest: not in the row's
// params, body or html, not in the GraphQL lists, before or after sending.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpMailer } from "../../core/emails/mailer.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { op } from "../helpers/http.ts";
import { newMember, PanelBrowser, uniqueEmail } from "../helpers/panel.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { captureSmtp, type SmtpCapture } from "./smtp-capture.ts";

let smtp: SmtpCapture;

const LISTS = `query($t: ID!, $tt: ID) {
  emailMessages(tenantId: $t) { kind to subject body }
  emails(tenantId: $tt, first: 50) { edges { node { id template recipient subject status } } }
}`;

/** Everything the tenant's e-mails show through the graph and hold at rest, as one string. */
async function everythingStored(tenantId: string): Promise<string> {
  const { runtime } = await testService();
  const rows = await runtime.db.prisma.emailMessage.findMany({ where: { tenantId } });
  const lists = await op(LISTS, { t: tenantId, tt: tenantId });
  return JSON.stringify({ rows, lists });
}

async function deliver(tenantId: string) {
  return sendEmails((await testService()).runtime, { mailer: smtpMailer(smtp.url), tenantId });
}

const tokenOf = (url: string) => url.split("/").pop()!;

describe("team e-mails", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    smtp = await captureSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("an operator's invitation is delivered to the invited address with the returned link, which opens the invitation; the token never rests in clear", async () => {
    const t = await newTenant();
    const email = uniqueEmail("convidado");
    const { inviteTenantUser } = await op(`mutation($t: ID!, $e: String!) { inviteTenantUser(tenantId: $t, email: $e, role: ADMIN) { url } }`, { t: t.tenantId, e: email });
    const url = inviteTenantUser.url as string;
    const token = tokenOf(url);
    expect(token.length).toBeGreaterThanOrEqual(40);

    // Queued in the invitation's transaction, to the invited address only.
    const { runtime } = await testService();
    const queued = await runtime.db.prisma.emailMessage.findMany({ where: { tenantId: t.tenantId } });
    expect(queued.map((r) => [r.kind, r.to, r.status])).toEqual([["team_invitation", email, "PENDING"]]);
    const before = await everythingStored(t.tenantId);
    expect(before).not.toContain(token);
    expect(before).toContain("TEAM_INVITATION");

    expect(await deliver(t.tenantId)).toEqual({ sent: 1, retry: 0, failed: 0 });
    const i = smtp.envelopes.findIndex((e) => e.includes(email));
    expect(i).toBeGreaterThanOrEqual(0);
    expect(smtp.envelopes[i]).toEqual([email]);
    const mail = smtp.received[i]!;
    expect(mail.subject).toContain("Convite para a equipe de");
    expect(mail.text).toContain("administrador");
    const links = [...(mail.text ?? "").matchAll(/https?:\/\/\S+\/panel\/invite\/[0-9A-Za-z]+/g)].map((m) => m[0]);
    expect(links.length).toBeGreaterThan(0);
    expect(new Set(links)).toEqual(new Set([url]));
    expect(String(mail.html)).toContain(`href="${url}"`);

    const page = await (await PanelBrowser.open()).get(new URL(links[0]!).pathname);
    expect(page.status).toBe(200);
    expect(page.html).toContain(email);

    const after = await everythingStored(t.tenantId);
    expect(after).not.toContain(token);
    const sent = await runtime.db.prisma.emailMessage.findFirstOrThrow({ where: { tenantId: t.tenantId, kind: "team_invitation" } });
    expect(sent.status).toBe("SENT");
    expect(sent.body).toContain("[link de uso único");
    // Once sent, not even the sealed link is kept.
    expect(Object.keys(sent.params as object)).not.toContain("url");
  });

  it("a password reset asked on /panel/forgot is delivered to the account's address and its link works once", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const b = await PanelBrowser.open();
    const asked = await b.submit("/panel/forgot", "/panel/forgot", { email: m.email });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("Se houver uma conta");

    const { runtime } = await testService();
    const row = await runtime.db.prisma.emailMessage.findFirstOrThrow({ where: { tenantId: t.tenantId, kind: "password_reset" } });
    expect(row.to).toBe(m.email);
    const pending = await everythingStored(t.tenantId);

    const count = smtp.received.length;
    expect((await deliver(t.tenantId)).failed).toBe(0);
    const mail = smtp.received.slice(count).find((r) => r.subject?.includes("Redefinição de senha"));
    expect(mail).toBeDefined();
    expect(smtp.envelopes[smtp.received.indexOf(mail!)]).toEqual([m.email]);
    expect(mail!.text).toContain("Se não foi você, ignore este e-mail");
    const url = /https?:\/\/\S+\/panel\/reset\/[0-9A-Za-z]+/.exec(mail!.text ?? "")?.[0];
    expect(url).toBeDefined();
    const token = tokenOf(url!);
    expect(pending).not.toContain(token);
    expect(await everythingStored(t.tenantId)).not.toContain(token);

    const path = new URL(url!).pathname;
    const done = await b.submit(path, path, { password: "uma-senha-nova-e-bem-longa-7" });
    expect(done.status).toBe(200);
    expect(done.html).toContain("Senha alterada");
    const again = await b.submit(path, path, { password: "outra-senha-nova-e-longa-8" });
    expect(again.status).toBe(410);
  });
});
