// The team page: every member sees the team; owners and admins invite (only an owner invites an
// owner); a viewer posting the invitation form is refused with a clear page.
import { describe, expect, it } from "vitest";
import { newTenant } from "../helpers/tenant.ts";
import { newMember, PanelBrowser, PASSWORD, signIn, uniqueEmail } from "../helpers/panel.ts";

const linkOf = (html: string) => new URL(/<textarea[^>]*>([^<]+)<\/textarea>/.exec(html)![1]!).pathname;

describe("panel team", () => {
  it("the owner invites a developer from the panel; the link works once and the team lists both", async () => {
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const o = await signIn(owner.email, owner.password);
    const email = uniqueEmail("novo");
    const invited = await o.submit("/panel/team", "/panel/team/invite", { email, role: "DEVELOPER" });
    expect(invited.status).toBe(200);
    expect(invited.html).toContain("Convite criado");
    const path = linkOf(invited.html);
    const b = await PanelBrowser.open();
    expect((await b.submit(path, path, { password: PASSWORD })).status).toBe(200);
    await signIn(email, PASSWORD);
    const team = await o.get("/panel/team");
    expect(team.html).toContain(owner.email);
    expect(team.html).toContain(email);
    expect(team.html).toContain("Desenvolvedor");
  });

  it("an admin cannot invite an owner; a viewer cannot post the invitation form", async () => {
    const t = await newTenant();
    const admin = await newMember(t.tenantId, "ADMIN");
    const a = await signIn(admin.email, admin.password);
    expect((await a.get("/panel/team")).html).not.toContain('value="OWNER"');
    const owner = await a.submit("/panel/team", "/panel/team/invite", { email: uniqueEmail(), role: "OWNER" });
    expect(owner.status).toBe(403);
    expect(owner.html).toContain("só o proprietário pode convidar outro proprietário");
    expect((await a.submit("/panel/team", "/panel/team/invite", { email: uniqueEmail(), role: "VIEWER" })).status).toBe(200);

    const viewer = await newMember(t.tenantId, "VIEWER");
    const v = await signIn(viewer.email, viewer.password);
    const page = await v.get("/panel/team");
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('action="/panel/team/invite"');
    const forged = await v.submit("/panel/team", "/panel/team/invite", { email: uniqueEmail(), role: "DEVELOPER" });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain("o seu papel na equipe não permite esta ação");
    expect(forged.html).not.toContain("Convite criado");
  });
});
