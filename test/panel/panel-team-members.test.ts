// Managing the team after invitations: role changes take effect on the member's next request, removal
// ends their sessions and their sign-in, nobody manages themself, only an owner touches an owner, and
// another tenant's member id answers like an unknown one. Plus a member turning two-factor off.
import { describe, expect, it } from "vitest";
import { newTenant } from "../helpers/tenant.ts";
import { newMember, PanelBrowser, secretOf, signIn, totpNow } from "../helpers/panel.ts";

/** The member's usr_ id, read from the action of their role form on the team page. */
function memberId(html: string, email: string): string {
  const at = html.indexOf(`Papel de ${email}`);
  const m = [...html.slice(0, at).matchAll(/action="\/panel\/team\/(usr_[^/"]+)\/role"/g)].pop();
  if (!m) throw new Error(`no role form for ${email}`);
  return m[1]!;
}

describe("panel team members", () => {
  it("an owner changes a role (in force at the member's next request) and removes a member (sessions end, sign-in refused)", async () => {
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const support = await newMember(t.tenantId, "SUPPORT");
    const o = await signIn(owner.email, owner.password);
    const s = await signIn(support.email, support.password);
    expect((await s.get("/panel/team")).html).not.toContain('action="/panel/team/invite"');

    const team = await o.get("/panel/team");
    expect(team.html).not.toContain(`Papel de ${owner.email}`); // no form on oneself
    const id = memberId(team.html, support.email);
    const changed = await o.submit("/panel/team", `/panel/team/${id}/role`, { role: "ADMIN" });
    expect(changed.status).toBe(200);
    expect(changed.html).toContain("Papel alterado.");
    expect((await s.get("/panel/team")).html).toContain('action="/panel/team/invite"');

    const unconfirmed = await o.submit("/panel/team", `/panel/team/${id}/remove`, {});
    expect(unconfirmed.status).toBe(422);
    expect((await s.get("/panel/team")).status).toBe(200);
    const removed = await o.submit("/panel/team", `/panel/team/${id}/remove`, { confirm: "yes" });
    expect(removed.status).toBe(200);
    expect(removed.html).toContain("Membro removido da equipe.");
    expect(removed.html).not.toContain(support.email);
    expect((await s.get("/panel/team")).location).toBe("/panel/login");
    const again = await PanelBrowser.open();
    expect((await again.submit("/panel/login", "/panel/login", { email: support.email, password: support.password })).status).toBe(401);
  });

  it("an admin cannot touch an owner or themself; a viewer's forged post and another tenant's id are refused", async () => {
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const admin = await newMember(t.tenantId, "ADMIN");
    const viewer = await newMember(t.tenantId, "VIEWER");
    const o = await signIn(owner.email, owner.password);
    const ownerTeam = (await o.get("/panel/team")).html;
    const adminId = memberId(ownerTeam, admin.email);
    const viewerId = memberId(ownerTeam, viewer.email);

    const a = await signIn(admin.email, admin.password);
    const adminTeam = (await a.get("/panel/team")).html;
    expect(adminTeam).not.toContain(`Papel de ${owner.email}`);
    expect(adminTeam).not.toContain(`Papel de ${admin.email}`);
    const raise = await a.submit("/panel/team", `/panel/team/${viewerId}/role`, { role: "OWNER" });
    expect(raise.status).toBe(403);
    expect(raise.html).toContain("só o proprietário pode dar ou tirar o papel de proprietário");
    const self = await a.submit("/panel/team", `/panel/team/${adminId}/role`, { role: "OWNER" });
    expect(self.status).toBe(403);
    expect(self.html).toContain("você não pode mudar o seu próprio papel");

    const v = await signIn(viewer.email, viewer.password);
    const forged = await v.submit("/panel/team", `/panel/team/${adminId}/remove`, { confirm: "yes" });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain("o seu papel na equipe não permite esta ação");
    expect((await o.get("/panel/team")).html).toContain(admin.email);

    const other = await newTenant();
    const stranger = await newMember(other.tenantId, "DEVELOPER");
    const otherOwner = await newMember(other.tenantId, "OWNER");
    const strangerId = memberId((await (await signIn(otherOwner.email, otherOwner.password)).get("/panel/team")).html, stranger.email);
    const cross = await o.submit("/panel/team", `/panel/team/${strangerId}/remove`, { confirm: "yes" });
    const unknown = await o.submit("/panel/team", `/panel/team/usr_00000000000000000000000000/remove`, { confirm: "yes" });
    expect(cross.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(cross.html).toContain("Membro não encontrado.");
    expect((await (await signIn(stranger.email, stranger.password)).get("/panel/")).status).toBe(200);
  });

  it("a member turns two-factor off with a current code; not while the owner requires it", async () => {
    const t = await newTenant();
    const owner = await newMember(t.tenantId, "OWNER");
    const o = await signIn(owner.email, owner.password);
    await o.submit("/panel/security", "/panel/security/two-factor/start", {});
    const secret = secretOf((await o.get("/panel/security")).html);
    const start = Date.now();
    expect((await o.submit("/panel/security", "/panel/security/two-factor/confirm", { code: totpNow(secret, start) })).status).toBe(200);

    const wrong = await o.submit("/panel/security", "/panel/security/two-factor/disable", { code: "000000" === totpNow(secret) ? "111111" : "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain("código de verificação inválido");

    await o.submit("/panel/security", "/panel/security/require-two-factor", { required: "on" });
    const page = await o.get("/panel/security");
    expect(page.html).not.toContain('action="/panel/security/two-factor/disable"');
    const forced = await o.request("POST", "/panel/security/two-factor/disable", { csrf: /name="csrf" value="([^"]+)"/.exec(page.html)![1]!, code: totpNow(secret, start + 30_000) });
    expect(forced.status).toBe(409);
    expect(forced.html).toContain("a sua equipe exige a verificação em duas etapas");

    await o.submit("/panel/security", "/panel/security/require-two-factor", { required: "off" });
    const off = await o.submit("/panel/security", "/panel/security/two-factor/disable", { code: totpNow(secret, start + 30_000) });
    expect(off.status).toBe(200);
    expect(off.html).toContain("Verificação em duas etapas desativada.");
    // Sign-in no longer asks for a code.
    await signIn(owner.email, owner.password);
  });
});
