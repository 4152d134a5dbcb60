// The vendor's panel at /panel/: a GraphQL client of the core. Every page reads and writes through the
// persisted operations contract/operations/panel-*.graphql (panel-kit.ts); the core decides everything.
// This router only sets the headers, parses forms, checks the CSRF token of every POST, and hands each
// section (one *-routes.ts file per section) the kit; each section draws its own pages.
import express, { Router, type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { csrfMatches, PRE_COOKIE, readCookie, SESSION_COOKIE } from "./panel-cookies.ts";
import { createPanelKit, refusal, send, type PanelOptions } from "./panel-kit.ts";
import { messagePage } from "./panel-layout.tsx";
import { apiKeyRoutes } from "./api-key-routes.ts";
import { auditRoutes } from "./audit-routes.ts";
import { gatewayRoutes } from "./gateway-routes.ts";
import { homeRoutes } from "./home-routes.ts";
import { securityRoutes } from "./security-routes.ts";
import { settingsRoutes } from "./settings-routes.ts";
import { signInRoutes } from "./sign-in-routes.ts";
import { teamRoutes } from "./team-routes.ts";
import { webhookRoutes } from "./webhook-routes.ts";

export type { PanelCore, PanelOptions } from "./panel-kit.ts";

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
  const kit = createPanelKit(opts);
  const router = Router();

  router.use("/panel", panelHeaders() as unknown as express.RequestHandler);
  router.use("/panel", express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 50 }));

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

  homeRoutes(router, kit);
  signInRoutes(router, kit, opts);
  securityRoutes(router, kit);
  teamRoutes(router, kit);
  apiKeyRoutes(router, kit);
  auditRoutes(router, kit);
  gatewayRoutes(router, kit);
  settingsRoutes(router, kit);
  webhookRoutes(router, kit);

  // Anything else that fails: a page, never a stack or JSON.
  router.use("/panel", ((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const r = refusal(err);
    send(res, r && r.status < 500 ? r.status : 500, messagePage("Algo deu errado", r && r.status < 500 ? r.error : "Não conseguimos concluir agora. Tente novamente em instantes."));
  }) as express.ErrorRequestHandler);

  return router;
}
