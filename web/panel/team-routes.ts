// The team page: members and their roles, and invitations by owners and admins.
import type { Request, Response, Router } from "express";
import { field, refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import type { Member } from "./panel-layout.tsx";
import { teamPage, type TeamRow } from "./team-pages.tsx";

export function teamRoutes(router: Router, kit: PanelKit): void {
  const { call, signedIn } = kit;

  async function renderTeam(req: Request, res: Response, extra: { status?: number; error?: string | null; notice?: string | null; email?: string; invited?: { url: string; email: string; expiresAt: string } } = {}) {
    const s = await signedIn<{ me: Member; teamMembers: TeamRow[] }>(req, res, "panel-team");
    if (!s) return;
    send(res, extra.status ?? 200, teamPage({ member: s.me, csrf: s.csrf, members: s.teamMembers, ...extra }));
  }

  router.get("/panel/team", wrap((req, res) => renderTeam(req, res)));

  router.post("/panel/team/invite", wrap(async (req, res) => {
    const token = kit.sessionToken(req, res);
    if (!token) return;
    const email = field(req.body, "email");
    try {
      const { inviteTeamMember } = await call<{ inviteTeamMember: { url: string; email: string; expiresAt: string } }>(req, "panel-invite-team-member", { email, role: field(req.body, "role") }, token);
      await renderTeam(req, res, { invited: inviteTeamMember });
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      await renderTeam(req, res, { status: r.status, error: r.error, email });
    }
  }));

  /** A change to one member: the core's refusal (another tenant's id included: 404) drawn on the team page. */
  const memberPost = (op: string, vars: (req: Request) => Record<string, unknown>, notice: string) =>
    wrap(async (req, res) => {
      const token = kit.sessionToken(req, res);
      if (!token) return;
      try {
        await call(req, op, { memberId: String(req.params.id ?? ""), ...vars(req) }, token);
      } catch (err) {
        const r = refusal(err);
        if (!r) throw err;
        if (r.status === 401) return res.redirect(303, "/panel/login");
        return renderTeam(req, res, { status: r.status, error: r.status === 404 ? "Membro não encontrado." : r.error });
      }
      await renderTeam(req, res, { notice });
    });

  router.post("/panel/team/:id/role", memberPost("panel-change-member-role", (req) => ({ role: field(req.body, "role") }), "Papel alterado."));
  router.post("/panel/team/:id/remove", (req, res, next) => {
    // The checkbox is the confirmation: without it nothing is removed.
    if (field(req.body, "confirm") !== "yes") return void renderTeam(req, res, { status: 422, error: "Marque a confirmação para remover o membro." }).catch(next);
    memberPost("panel-remove-team-member", () => ({}), "Membro removido da equipe.")(req, res, next);
  });
}
