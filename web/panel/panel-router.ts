// The vendor's panel at /panel/: a GraphQL client of the core. Every page reads and writes through the
// persisted operations contract/operations/panel-*.graphql, as the signed-in member (their session
// token as the credential) or, before sign-in, as the panel itself; the core decides everything.
// This router only keeps the cookies, checks the CSRF token of every POST, limits failed sign-ins per
// address, and draws the answers.
import express, { Router, type NextFunction, type Request, type Response } from "express";
import { ipKeyGenerator, rateLimit, type Store } from "express-rate-limit";
import helmet from "helmet";
import QRCode from "qrcode";
import { loadOperation } from "../../contract/trusted-operations.ts";
import type { PanelClient } from "../../contract/panel-request.ts";
import { HttpError } from "../../http/error-map.ts";
import { clearCookie, csrfMatches, csrfToken, PENDING_COOKIE, PRE_COOKIE, preSessionKey, readCookie, SESSION_COOKIE, setCookie } from "./panel-cookies.ts";
import { forgotPage, resetPage, teamPage, type TeamRow, homePage, invitePage, loginPage, messagePage, recoveryCodesPage, securityPage, sessionsPage, type Member, type SessionRow } from "./panel-pages.tsx";

const OPS = [
  "panel-sign-in",
  "panel-confirm-sign-in-code",
  "panel-me",
  "panel-sessions",
  "panel-sign-out",
  "panel-security",
  "panel-start-two-factor",
  "panel-enable-two-factor",
  "panel-set-two-factor-required",
  "panel-invitation",
  "panel-accept-invitation",
  "panel-request-password-reset",
  "panel-reset-password",
  "panel-team",
  "panel-invite-team-member",
] as const;
type OpName = (typeof OPS)[number];

/**
 * The core as the panel calls it: a persisted operation by its document, with the member's credential
 * and `extensions.panel`; a refusal is thrown as an HttpError carrying the core's status and body. The
 * facade's client (rest-facade/core-client.ts) is one; server/service.ts hands it in.
 */
export interface PanelCore {
  request<T>(document: string, variables: Record<string, unknown>, headers: Record<string, string>, extensions?: Record<string, unknown>): Promise<T>;
}

export interface PanelOptions {
  core: PanelCore;
  publicUrl: string;
  storeFor?: (prefix: string) => Store;
  /** Failed sign-ins per address per minute (PANEL_SIGN_IN_ATTEMPTS_PER_MINUTE, default 30). */
  signInAttemptsPerMinute?: number;
}

/** A refusal from the core: its status and catalogue code. */
function refusal(err: unknown): { status: number; code: string; error: string } | null {
  if (err instanceof HttpError) return { status: err.status, code: String(err.body.code ?? ""), error: String(err.body.error ?? "") };
  return null;
}

function send(res: Response, status: number, html: string): void {
  res.status(status).set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).send(html);
}

function panelHeaders() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'unsafe-inline'"],
        // The two-factor QR code is a data: image made on the server.
        "img-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    crossOriginResourcePolicy: { policy: "same-origin" },
  });
}

export function panelRouter(opts: PanelOptions): Router {
  const { core, publicUrl } = opts;
  const docs = Object.fromEntries(OPS.map((name) => [name, loadOperation(name)])) as Record<OpName, string>;
  const router = Router();
  const client = (req: Request): PanelClient => ({ address: req.socket.remoteAddress ?? "", userAgent: req.get("user-agent") ?? "" });
  const call = <T>(req: Request, op: OpName, variables: Record<string, unknown>, token?: string): Promise<T> =>
    core.request<T>(docs[op], variables, token ? { authorization: `Bearer ${token}` } : {}, { panel: client(req) });

  router.use("/panel", panelHeaders() as unknown as express.RequestHandler);
  router.use("/panel", express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 20 }));

  // CSRF: every POST carries the token of its session (or of the pre-session cookie before sign-in).
  router.use("/panel", (req, res, next) => {
    if (req.method !== "POST") return next();
    const key = readCookie(req, SESSION_COOKIE) || readCookie(req, PRE_COOKIE);
    const presented = (req.body as Record<string, unknown> | undefined)?.csrf;
    if (!csrfMatches(key, presented)) {
      return send(res, 403, messagePage("Envio recusado", "Este formulário expirou ou não veio desta página. Abra a página de novo e envie outra vez.", { href: "/panel/", text: "Voltar ao painel" }));
    }
    next();
  });

  const perMinute = opts.signInAttemptsPerMinute ?? (Number(process.env.PANEL_SIGN_IN_ATTEMPTS_PER_MINUTE) || 30);
  const signInLimit = rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    // A sign-in that works (a redirect, or the code step) gives its attempt back: only failures count.
    skipSuccessfulRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.socket.remoteAddress ?? "unknown"),
    handler: (_req, res) => send(res, 429, messagePage("Muitas tentativas", "Muitas tentativas de entrada deste endereço. Aguarde um minuto e tente novamente.", { href: "/panel/login", text: "Voltar" })),
    ...(opts.storeFor ? { store: opts.storeFor("rl:panel:sign-in:") } : {}),
  });

  /** The key of this browser's CSRF token: its session, or before sign-in its pre-session cookie (as the check reads it). */
  const formCsrf = (req: Request, res: Response) => csrfToken(readCookie(req, SESSION_COOKIE) || preSessionKey(req, res, publicUrl));

  /** The signed-in member, or a redirect to the login page (and null). */
  async function signedIn<T extends { me: Member }>(req: Request, res: Response, op: OpName = "panel-me"): Promise<(T & { token: string; csrf: string }) | null> {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) {
      res.redirect(303, "/panel/login");
      return null;
    }
    try {
      const data = await call<T>(req, op, {}, token);
      return { ...data, token, csrf: csrfToken(token) };
    } catch (err) {
      if (refusal(err)?.status === 401) {
        clearCookie(req, res, publicUrl, SESSION_COOKIE);
        res.redirect(303, "/panel/login");
        return null;
      }
      throw err;
    }
  }

  const wrap =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    (req: Request, res: Response, next: NextFunction): void => {
      handler(req, res).catch(next);
    };

  router.get(["/panel", "/panel/"], wrap(async (req, res) => {
    const s = await signedIn(req, res);
    if (!s) return;
    if (s.me.owesTwoFactor) return res.redirect(303, "/panel/security");
    send(res, 200, homePage({ member: s.me, csrf: s.csrf }));
  }));

  router.get("/panel/login", (req, res) => {
    if (readCookie(req, SESSION_COOKIE)) return res.redirect(303, "/panel/");
    const step = readCookie(req, PENDING_COOKIE) ? "code" : "password";
    send(res, 200, loginPage({ csrf: csrfToken(preSessionKey(req, res, publicUrl)), step }));
  });

  router.post("/panel/login/restart", (req, res) => {
    clearCookie(req, res, publicUrl, PENDING_COOKIE);
    res.redirect(303, "/panel/login");
  });

  router.post("/panel/login", signInLimit, wrap(async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const csrf = formCsrf(req, res);
    const pending = readCookie(req, PENDING_COOKIE);
    const text = (v: unknown) => (typeof v === "string" ? v : "");
    try {
      const answer = pending && typeof body.code === "string"
        ? (await call<{ confirmSignInCode: { status: string; token: string } }>(req, "panel-confirm-sign-in-code", { pendingToken: pending, code: text(body.code) })).confirmSignInCode
        : (await call<{ signIn: { status: string; token: string } }>(req, "panel-sign-in", { email: text(body.email), password: text(body.password) })).signIn;
      if (answer.status === "CODE_REQUIRED") {
        setCookie(req, res, publicUrl, PENDING_COOKIE, answer.token, 600);
        return res.redirect(303, "/panel/login");
      }
      // A new token at every sign-in (never one the browser had before): no session fixation.
      clearCookie(req, res, publicUrl, PENDING_COOKIE);
      clearCookie(req, res, publicUrl, PRE_COOKIE);
      setCookie(req, res, publicUrl, SESSION_COOKIE, answer.token);
      res.redirect(303, "/panel/");
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      const step = pending && typeof body.code === "string" ? "code" : "password";
      // A pending sign-in that expired starts over with the password.
      if (step === "code" && r.code === "invalid_credentials") clearCookie(req, res, publicUrl, PENDING_COOKIE);
      const status = r.status === 429 || r.status === 401 ? r.status : 422;
      send(res, status, loginPage({ csrf, step: step === "code" && r.code !== "invalid_credentials" ? "code" : "password", email: text(body.email), error: r.error }));
    }
  }));

  router.post("/panel/logout", wrap(async (req, res) => {
    const token = readCookie(req, SESSION_COOKIE);
    await call(req, "panel-sign-out", { everywhere: false }, token).catch((err: unknown) => {
      if (refusal(err)?.status !== 401) throw err;
    });
    clearCookie(req, res, publicUrl, SESSION_COOKIE);
    res.redirect(303, "/panel/login");
  }));

  router.get("/panel/sessions", wrap(async (req, res) => {
    const s = await signedIn<{ me: Member; panelSessions: SessionRow[] }>(req, res, "panel-sessions");
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
    const s = await signedIn<{ me: Member; twoFactorSetup: { secret: string; uri: string } | null }>(req, res, "panel-security");
    if (!s) return;
    const setup = s.twoFactorSetup ? { ...s.twoFactorSetup, qr: await QRCode.toDataURL(s.twoFactorSetup.uri, { margin: 1, width: 256 }) } : null;
    send(res, extra.status ?? 200, securityPage({ member: s.me, csrf: s.csrf, setup, error: extra.error, notice: extra.notice }));
  }

  router.get("/panel/security", wrap((req, res) => renderSecurity(req, res)));

  /** A member's POST: the core's refusal is drawn on the security page, anything else is thrown. */
  const securityPost = (op: OpName, vars: (body: Record<string, unknown>) => Record<string, unknown>, done: (req: Request, res: Response, data: unknown) => Promise<void>) =>
    wrap(async (req, res) => {
      const token = readCookie(req, SESSION_COOKIE);
      if (!token) return res.redirect(303, "/panel/login");
      let data: unknown;
      try {
        data = await call(req, op, vars(req.body as Record<string, unknown>), token);
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
    securityPost("panel-enable-two-factor", (b) => ({ code: typeof b.code === "string" ? b.code : "" }), async (req, res, data) => {
      const s = await signedIn(req, res);
      if (!s) return;
      send(res, 200, recoveryCodesPage({ member: s.me, csrf: s.csrf, codes: (data as { enableTwoFactor: string[] }).enableTwoFactor }));
    }),
  );

  router.post(
    "/panel/security/require-two-factor",
    securityPost("panel-set-two-factor-required", (b) => ({ required: b.required === "on" }), async (req, res) => renderSecurity(req, res, { notice: "Configuração salva." })),
  );

  router.get("/panel/invite/:token", wrap(async (req, res) => {
    const token = String(req.params.token ?? "");
    const csrf = formCsrf(req, res);
    try {
      const { invitation } = await call<{ invitation: { email: string; tenantName: string } }>(req, "panel-invitation", { token });
      send(res, 200, invitePage({ csrf, token, ...invitation }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      send(res, r.status === 410 ? 410 : 400, messagePage("Convite inválido", "Este convite expirou ou já foi utilizado. Peça um novo convite a quem administra a equipe."));
    }
  }));

  router.post("/panel/invite/:token", wrap(async (req, res) => {
    const token = String(req.params.token ?? "");
    const password = typeof (req.body as Record<string, unknown>).password === "string" ? String((req.body as Record<string, unknown>).password) : "";
    try {
      const { acceptInvitation } = await call<{ acceptInvitation: { email: string; tenantName: string } }>(req, "panel-accept-invitation", { token, password });
      send(res, 200, messagePage("Conta criada", `Pronto: ${acceptInvitation.email} faz parte da equipe ${acceptInvitation.tenantName}. Entre com o seu e-mail e a senha que você escolheu.`, { href: "/panel/login", text: "Entrar no painel" }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.code === "weak_password") {
        const { invitation } = await call<{ invitation: { email: string; tenantName: string } }>(req, "panel-invitation", { token });
        return send(res, 422, invitePage({ csrf: formCsrf(req, res), token, ...invitation, error: r.error }));
      }
      send(res, r.status === 410 ? 410 : 400, messagePage("Convite inválido", "Este convite expirou ou já foi utilizado. Peça um novo convite a quem administra a equipe."));
    }
  }));

  async function renderTeam(req: Request, res: Response, extra: { status?: number; error?: string | null; email?: string; invited?: { url: string; email: string; expiresAt: string } } = {}) {
    const s = await signedIn<{ me: Member; teamMembers: TeamRow[] }>(req, res, "panel-team");
    if (!s) return;
    send(res, extra.status ?? 200, teamPage({ member: s.me, csrf: s.csrf, members: s.teamMembers, ...extra }));
  }

  router.get("/panel/team", wrap(async (req, res) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (token) {
      // A member who owes two-factor sees only their security page.
      const me = await call<{ me: Member }>(req, "panel-me", {}, token).catch(() => null);
      if (me?.me.owesTwoFactor) return res.redirect(303, "/panel/security");
    }
    await renderTeam(req, res);
  }));

  router.post("/panel/team/invite", wrap(async (req, res) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) return res.redirect(303, "/panel/login");
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === "string" ? body.email : "";
    const role = typeof body.role === "string" ? body.role : "";
    try {
      const { inviteTeamMember } = await call<{ inviteTeamMember: { url: string; email: string; expiresAt: string } }>(req, "panel-invite-team-member", { email, role }, token);
      await renderTeam(req, res, { invited: inviteTeamMember });
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.status === 401) return res.redirect(303, "/panel/login");
      await renderTeam(req, res, { status: r.status, error: r.error, email });
    }
  }));

  router.get("/panel/forgot", (req, res) => send(res, 200, forgotPage({ csrf: formCsrf(req, res) })));

  // Limited like sign-in: each request makes links and e-mails.
  router.post("/panel/forgot", signInLimit, wrap(async (req, res) => {
    const email = typeof (req.body as Record<string, unknown>).email === "string" ? String((req.body as Record<string, unknown>).email) : "";
    await call(req, "panel-request-password-reset", { email });
    // The same answer whether the e-mail has an account or not.
    send(res, 200, messagePage("Verifique o seu e-mail", "Se houver uma conta com este e-mail, enviamos um link para criar uma nova senha. Ele vale por uma hora e uma única vez.", { href: "/panel/login", text: "Voltar para a entrada" }));
  }));

  router.get("/panel/reset/:token", (req, res) => send(res, 200, resetPage({ csrf: formCsrf(req, res), token: String(req.params.token ?? "") })));

  router.post("/panel/reset/:token", wrap(async (req, res) => {
    const token = String(req.params.token ?? "");
    const password = typeof (req.body as Record<string, unknown>).password === "string" ? String((req.body as Record<string, unknown>).password) : "";
    try {
      await call(req, "panel-reset-password", { token, password });
      clearCookie(req, res, publicUrl, SESSION_COOKIE);
      send(res, 200, messagePage("Senha alterada", "Pronto: entre com a nova senha.", { href: "/panel/login", text: "Entrar no painel" }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.code === "weak_password") return send(res, 422, resetPage({ csrf: formCsrf(req, res), token, error: r.error }));
      send(res, r.status === 410 ? 410 : 400, messagePage("Link inválido", "Este link expirou ou já foi utilizado. Peça um novo na página de entrada.", { href: "/panel/forgot", text: "Pedir outro link" }));
    }
  }));

  // Anything else that fails: a page, never a stack or JSON.
  router.use("/panel", ((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const r = refusal(err);
    send(res, r && r.status < 500 ? r.status : 500, messagePage("Algo deu errado", r && r.status < 500 ? r.error : "Não conseguimos concluir agora. Tente novamente em instantes."));
  }) as express.ErrorRequestHandler);

  return router;
}
