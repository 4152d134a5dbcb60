// Password resets in the panel: a single-use link that expires, sent to the account's own address; the
// form answers the same for an unknown e-mail; using the link ends every session of the account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PasswordResetLink } from "../../core/team/request-password-reset.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { newMember, PanelBrowser, signIn, uniqueEmail } from "../helpers/panel.ts";

const sent: PasswordResetLink[] = [];

describe("panel password reset", () => {
  beforeAll(async () => {
    (await testService()).runtime.passwordResetLinks = (links) => sent.push(...links);
  });
  afterAll(async () => {
    (await testService()).runtime.passwordResetLinks = undefined;
  });

  it("a reset link sets a new password once, ends the old sessions, and the old password stops working", async () => {
    const t = await newTenant();
    const m = await newMember(t.tenantId);
    const before = await signIn(m.email, m.password);
    const b = await PanelBrowser.open();
    const asked = await b.submit("/panel/forgot", "/panel/forgot", { email: m.email.toUpperCase() });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("Se houver uma conta");
    const link = sent.find((l) => l.email === m.email && l.tenantId === t.tenantId)!;
    expect(link).toBeDefined();
    const path = new URL(link.url).pathname;
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
    const count = sent.length;
    const asked = await b.submit("/panel/forgot", "/panel/forgot", { email: uniqueEmail("ninguem") });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain("Se houver uma conta");
    expect(sent.length).toBe(count);

    const t = await newTenant();
    const m = await newMember(t.tenantId);
    await b.submit("/panel/forgot", "/panel/forgot", { email: m.email });
    const link = sent.find((l) => l.email === m.email)!;
    const { runtime } = await testService();
    await runtime.db.prisma.teamLink.updateMany({ where: { tenantId: t.tenantId, kind: "PASSWORD_RESET" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const path = new URL(link.url).pathname;
    expect((await b.submit(path, path, { password: "uma-senha-nova-e-bem-longa-7" })).status).toBe(410);
    await signIn(m.email, m.password);
  });
});
