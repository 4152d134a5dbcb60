// Entering and leaving the panel: sign-in (password, then the two-factor code), sign-out, accepting an
// invitation and resetting a password. Failed sign-ins are limited per address here; per account, the
// core limits them.
import type { Router } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { clearCookie, csrfToken, PENDING_COOKIE, PRE_COOKIE, preSessionKey, readCookie, SESSION_COOKIE, setCookie } from "./panel-cookies.ts";
import { field, refusal, send, wrap, type PanelKit, type PanelOptions } from "./panel-kit.ts";
import { messagePage } from "./panel-layout.tsx";
import { forgotPage, invitePage, loginPage, resetPage } from "./sign-in-pages.tsx";

export function signInRoutes(router: Router, kit: PanelKit, opts: PanelOptions): void {
  const { call, formCsrf, publicUrl } = kit;
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
    const csrf = formCsrf(req, res);
    const pending = readCookie(req, PENDING_COOKIE);
    const codeStep = !!pending && typeof (req.body as Record<string, unknown>).code === "string";
    try {
      const answer = codeStep
        ? (await call<{ confirmSignInCode: { status: string; token: string } }>(req, "panel-confirm-sign-in-code", { pendingToken: pending, code: field(req.body, "code") })).confirmSignInCode
        : (await call<{ signIn: { status: string; token: string } }>(req, "panel-sign-in", { email: field(req.body, "email"), password: field(req.body, "password") })).signIn;
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
      // A pending sign-in that expired starts over with the password.
      if (codeStep && r.code === "invalid_credentials") clearCookie(req, res, publicUrl, PENDING_COOKIE);
      const status = r.status === 429 || r.status === 401 ? r.status : 422;
      send(res, status, loginPage({ csrf, step: codeStep && r.code !== "invalid_credentials" ? "code" : "password", email: field(req.body, "email"), error: r.error }));
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

  const badInvitation = () => messagePage("Convite inválido", "Este convite expirou ou já foi utilizado. Peça um novo convite a quem administra a equipe.");

  router.get("/panel/invite/:token", wrap(async (req, res) => {
    const token = String(req.params.token ?? "");
    const csrf = formCsrf(req, res);
    try {
      const { invitation } = await call<{ invitation: { email: string; tenantName: string } }>(req, "panel-invitation", { token });
      send(res, 200, invitePage({ csrf, token, ...invitation }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      send(res, r.status === 410 ? 410 : 400, badInvitation());
    }
  }));

  router.post("/panel/invite/:token", wrap(async (req, res) => {
    const token = String(req.params.token ?? "");
    try {
      const { acceptInvitation } = await call<{ acceptInvitation: { email: string; tenantName: string } }>(req, "panel-accept-invitation", { token, password: field(req.body, "password") });
      send(res, 200, messagePage("Conta criada", `Pronto: ${acceptInvitation.email} faz parte da equipe ${acceptInvitation.tenantName}. Entre com o seu e-mail e a senha que você escolheu.`, { href: "/panel/login", text: "Entrar no painel" }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.code === "weak_password") {
        const { invitation } = await call<{ invitation: { email: string; tenantName: string } }>(req, "panel-invitation", { token });
        return send(res, 422, invitePage({ csrf: formCsrf(req, res), token, ...invitation, error: r.error }));
      }
      send(res, r.status === 410 ? 410 : 400, badInvitation());
    }
  }));

  router.get("/panel/forgot", (req, res) => send(res, 200, forgotPage({ csrf: formCsrf(req, res) })));

  // Limited like sign-in: each request makes links and e-mails.
  router.post("/panel/forgot", signInLimit, wrap(async (req, res) => {
    await call(req, "panel-request-password-reset", { email: field(req.body, "email") });
    // The same answer whether the e-mail has an account or not.
    send(res, 200, messagePage("Verifique o seu e-mail", "Se houver uma conta com este e-mail, enviamos um link para criar uma nova senha. Ele vale por uma hora e uma única vez.", { href: "/panel/login", text: "Voltar para a entrada" }));
  }));

  router.get("/panel/reset/:token", (req, res) => send(res, 200, resetPage({ csrf: formCsrf(req, res), token: String(req.params.token ?? "") })));

  router.post("/panel/reset/:token", wrap(async (req, res) => {
    const token = String(req.params.token ?? "");
    try {
      await call(req, "panel-reset-password", { token, password: field(req.body, "password") });
      clearCookie(req, res, publicUrl, SESSION_COOKIE);
      send(res, 200, messagePage("Senha alterada", "Pronto: entre com a nova senha.", { href: "/panel/login", text: "Entrar no painel" }));
    } catch (err) {
      const r = refusal(err);
      if (!r) throw err;
      if (r.code === "weak_password") return send(res, 422, resetPage({ csrf: formCsrf(req, res), token, error: r.error }));
      send(res, r.status === 410 ? 410 : 400, messagePage("Link inválido", "Este link expirou ou já foi utilizado. Peça um novo na página de entrada.", { href: "/panel/forgot", text: "Pedir outro link" }));
    }
  }));
}
