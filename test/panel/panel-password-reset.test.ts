// Password resets in the panel: a single-use link that expires, sent to the account's own address; the
// form answers the same for an unknown e-mail; using the link ends every session of the account.
import { describe, expect, it } from "vitest";
import type { Mailer, OutgoingEmail } from "../../core/emails/mailer.ts";
import { sendEmails } from "../../jobs/send-emails.job.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { newMember, PanelBrowser, signIn, uniqueEmail } from "../helpers/panel.ts";

/** Sends the tenant's outbox and returns the reset links delivered to `email` (the e-mail's own words). */
async function resetLinksSent(tenantId: string, email: string): Promise<string[]> {
  const out: OutgoingEmail[] = [];
  const mailer: Mailer = { description: "memory", send: async (m) => void out.push(m), verify: async () => {} };
  await sendEmails((await testService()).runtime, { mailer, tenantId });
  return out.filter((m) => m.to === email).flatMap((m) => [...m.text.matchAll(/https?:\/\/\S+\/panel\/reset\/[0-9A-Za-z]+/g)].map((x) => x[0]));
}

describe("panel password reset", () => {
  it("a reset link sets a new password once, ends the old sessions, and the old password stops working", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const before = await signIn(m.email, m.password);
    const b = await PanelBrowser.open();
    const asked = await b.submit("/panel/forgot", "/panel/forgot", { email: m.email.toUpperCase() });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("Se houver uma conta");
    const [url] = await resetLinksSent(t.tenantId, m.email);
    expect(url).toBeDefined();
    const path = new URL(url!).pathname;
    const weak = await b.submit(path, path, { password: "curta" });
    expect(weak.status).toBe(422);
    const done = await b.submit(path, path, { password: "uma-senha-nova-e-bem-longa-7" });
    expect(done.status).toBe(200);
    expect(done.html).toContain("Senha alterada");
    expect((await before.get("/panel/")).location).toBe("/panel/login");
    expect((await b.submit("/panel/login", "/panel/login", { email: m.email, password: m.password })).status).toBe(401);
    await signIn(m.email, "uma-senha-nova-e-bem-longa-7");
    const again = await b.submit(path, path, { password: "outra-senha-nova-e-longa-8" });
    expect(again.status).toBe(410);
    expect(again.html).toContain("expirou ou já foi utilizado");
  });

  it("an unknown e-mail gets the same answer and no link; an expired link is refused", async () => {
    const b = await PanelBrowser.open();
    const nobody = uniqueEmail("ninguem");
    const asked = await b.submit("/panel/forgot", "/panel/forgot", { email: nobody });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("Se houver uma conta");
    expect(await (await testService()).runtime.db.prisma.emailMessage.count({ where: { to: nobody } })).toBe(0);

    const t = await newTenant();
    const m = await newMember(t.tenantId);
    await b.submit("/panel/forgot", "/panel/forgot", { email: m.email });
    const [url] = await resetLinksSent(t.tenantId, m.email);
    const { runtime } = await testService();
    await runtime.db.prisma.teamLink.updateMany({ where: { tenantId: t.tenantId, kind: "PASSWORD_RESET" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const path = new URL(url!).pathname;
    expect((await b.submit(path, path, { password: "uma-senha-nova-e-bem-longa-7" })).status).toBe(410);
    await signIn(m.email, m.password);
  });
});
