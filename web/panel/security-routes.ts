// A member's own account: open sessions (and signing out of all of them), two-factor set-up, and the
// owner's switch that requires two-factor of the whole team. A member who owes two-factor reaches these.
import type { Request, Response, Router } from "express";
import QRCode from "qrcode";
import { clearCookie, readCookie, SESSION_COOKIE } from "./panel-cookies.ts";
import { field, refusal, send, wrap, type PanelKit } from "./panel-kit.ts";
import type { Member } from "./panel-layout.tsx";
import { recoveryCodesPage, securityPage, sessionsPage, type SessionRow } from "./security-pages.tsx";

export function securityRoutes(router: Router, kit: PanelKit): void {
  const { call, signedIn, publicUrl } = kit;

  router.get("/panel/sessions", wrap(async (req, res) => {
    const s = await signedIn<{ me: Member; panelSessions: SessionRow[] }>(req, res, "panel-sessions", {}, { owing: true });
    if (!s) return;
    send(res, 200, sessionsPage({ member: s.me, csrf: s.csrf, sessions: s.panelSessions }));
  }));

  router.post("/panel/sessions/sign-out-everywhere", wrap(async (req, res) => {
    await call(req, "panel-sign-out", { everywhere: true }, readCookie(req, SESSION_COOKIE)).catch((err: unknown) => {
      if (refusal(err)?.status !== 401) throw err;
    });
    clearCookie(req, res, publicUrl, SESSION_COOKIE);
    res.redirect(303, "/panel/login");
  }));

  async function renderSecurity(req: Request, res: Response, extra: { status?: number; error?: string | null; notice?: string | null } = {}) {
    const s = await signedIn<{ me: Member; twoFactorSetup: { secret: string; uri: string } | null }>(req, res, "panel-security", {}, { owing: true });
    if (!s) return;
    const setup = s.twoFactorSetup ? { ...s.twoFactorSetup, qr: await QRCode.toDataURL(s.twoFactorSetup.uri, { margin: 1, width: 256 }) } : null;
    send(res, extra.status ?? 200, securityPage({ member: s.me, csrf: s.csrf, setup, error: extra.error, notice: extra.notice }));
  }

  router.get("/panel/security", wrap((req, res) => renderSecurity(req, res)));

  /** A member's POST: the core's refusal is drawn on the security page, anything else is thrown. */
  const securityPost = (op: string, vars: (body: unknown) => Record<string, unknown>, done: (req: Request, res: Response, data: unknown) => Promise<void>) =>
    wrap(async (req, res) => {
      const token = kit.sessionToken(req, res);
      if (!token) return;
      let data: unknown;
      try {
        data = await call(req, op, vars(req.body), token);
      } catch (err) {
        const r = refusal(err);
        if (!r) throw err;
        if (r.status === 401 && r.code !== "invalid_code") return res.redirect(303, "/panel/login");
        return renderSecurity(req, res, { status: r.status === 401 ? 422 : r.status, error: r.error });
      }
      await done(req, res, data);
    });

  router.post("/panel/security/two-factor/start", securityPost("panel-start-two-factor", () => ({}), async (_req, res) => res.redirect(303, "/panel/security")));

  router.post(
    "/panel/security/two-factor/confirm",
    securityPost("panel-enable-two-factor", (b) => ({ code: field(b, "code") }), async (req, res, data) => {
      const s = await signedIn(req, res);
      if (!s) return;
      send(res, 200, recoveryCodesPage({ member: s.me, csrf: s.csrf, codes: (data as { enableTwoFactor: string[] }).enableTwoFactor }));
    }),
  );

  router.post(
    "/panel/security/two-factor/disable",
    securityPost("panel-disable-two-factor", (b) => ({ code: field(b, "code") }), async (req, res) => renderSecurity(req, res, { notice: "Verificação em duas etapas desativada." })),
  );

  router.post(
    "/panel/security/require-two-factor",
    securityPost("panel-set-two-factor-required", (b) => ({ required: field(b, "required") === "on" }), async (req, res) => renderSecurity(req, res, { notice: "Configuração salva." })),
  );
}
