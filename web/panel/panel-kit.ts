// What every section of the panel uses to talk to the core and answer the browser: the persisted
// operation by name, run as the signed-in member (their session token as the credential) or, before
// sign-in, as the panel itself; the signed-in check; the core's refusal; and the HTML answer.
import type { NextFunction, Request, Response } from "express";
import type { Store } from "express-rate-limit";
import { loadOperation } from "../../contract/trusted-operations.ts";
import type { PanelClient } from "../../contract/panel-request.ts";
import { HttpError } from "../../http/error-map.ts";
import { clearCookie, csrfToken, preSessionKey, readCookie, SESSION_COOKIE } from "./panel-cookies.ts";
import type { Member } from "./panel-layout.tsx";

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
export function refusal(err: unknown): { status: number; code: string; error: string } | null {
  if (err instanceof HttpError) return { status: err.status, code: String(err.body.code ?? ""), error: String(err.body.error ?? "") };
  return null;
}

export function send(res: Response, status: number, html: string): void {
  res.status(status).set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).send(html);
}

/** A form field as text: absent or repeated fields read as empty. */
export const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" ? v : "";
};

/** An express handler from an async one: a rejection goes to the panel's error page. */
export const wrap =
  (handler: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch(next);
  };

export interface PanelKit {
  publicUrl: string;
  /** Runs the persisted operation `contract/operations/<op>.graphql`, as the member when a token is given. */
  call<T>(req: Request, op: string, variables: Record<string, unknown>, token?: string): Promise<T>;
  /**
   * The signed-in member with the answer of `op` (which must select `me`), or a redirect to the login
   * page (and null). A member who owes two-factor is sent to their security page unless `owing` allows.
   */
  signedIn<T extends { me: Member }>(req: Request, res: Response, op?: string, variables?: Record<string, unknown>, opts?: { owing?: boolean }): Promise<(T & { token: string; csrf: string }) | null>;
  /** The session token of a POST, or a redirect to the login page (and ""). */
  sessionToken(req: Request, res: Response): string;
  /** The CSRF token of this browser's forms: its session's, or before sign-in its pre-session cookie's. */
  formCsrf(req: Request, res: Response): string;
}

export function createPanelKit(opts: PanelOptions): PanelKit {
  const { core, publicUrl } = opts;
  const docs = new Map<string, string>();
  const doc = (op: string) => {
    let text = docs.get(op);
    if (text === undefined) {
      text = loadOperation(op);
      docs.set(op, text);
    }
    return text;
  };
  const client = (req: Request): PanelClient => ({ address: req.ip ?? req.socket.remoteAddress ?? "", userAgent: req.get("user-agent") ?? "" });
  const call = <T>(req: Request, op: string, variables: Record<string, unknown>, token?: string): Promise<T> =>
    core.request<T>(doc(op), variables, token ? { authorization: `Bearer ${token}` } : {}, { panel: client(req) });

  return {
    publicUrl,
    call,
    async signedIn(req, res, op = "panel-me", variables = {}, o = {}) {
      const token = readCookie(req, SESSION_COOKIE);
      if (!token) {
        res.redirect(303, "/panel/login");
        return null;
      }
      try {
        const data = await call<{ me: Member }>(req, op, variables, token);
        if (data.me.owesTwoFactor && !o.owing) {
          res.redirect(303, "/panel/security");
          return null;
        }
        return { ...(data as object), token, csrf: csrfToken(token) } as never;
      } catch (err) {
        const r = refusal(err);
        if (r?.status === 401) {
          clearCookie(req, res, publicUrl, SESSION_COOKIE);
          res.redirect(303, "/panel/login");
          return null;
        }
        // A member who owes two-factor holds no scope but their own account: their security page first.
        if (r?.status === 403 && !o.owing && op !== "panel-me") {
          const { me } = await call<{ me: Member }>(req, "panel-me", {}, token);
          if (me.owesTwoFactor) {
            res.redirect(303, "/panel/security");
            return null;
          }
        }
        throw err;
      }
    },
    sessionToken(req, res) {
      const token = readCookie(req, SESSION_COOKIE);
      if (!token) res.redirect(303, "/panel/login");
      return token;
    },
    formCsrf: (req, res) => csrfToken(readCookie(req, SESSION_COOKIE) || preSessionKey(req, res, publicUrl)),
  };
}
