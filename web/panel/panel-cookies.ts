// The panel's cookies and its CSRF token. The session cookie holds a random token (its hash is all the
// database keeps): HttpOnly, SameSite=Lax, Secure behind HTTPS, scoped to /panel. The CSRF token is
// derived from the session token (or, before sign-in, from a random pre-session cookie) with HMAC, so
// each session has its own and nothing more is stored; every POST must carry it in a hidden field.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";

export const SESSION_COOKIE = "panel_session";
/** A password-correct sign-in waiting for its two-factor code. */
export const PENDING_COOKIE = "panel_pending";
/** Before sign-in: the key of the login and invitation forms' CSRF token. */
export const PRE_COOKIE = "panel_pre";

export function readCookie(req: Request, name: string): string {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : "";
    }
  }
  return "";
}

/** HTTPS as the browser sees it: a TLS socket, or a proxy's X-Forwarded-Proto, or an https PUBLIC_URL. */
export function isHttps(req: Request, publicUrl: string): boolean {
  const forwarded = req.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return req.secure || forwarded === "https" || publicUrl.startsWith("https://");
}

export function setCookie(req: Request, res: Response, publicUrl: string, name: string, value: string, maxAgeSeconds?: number): void {
  res.cookie(name, value, {
    httpOnly: true,
    sameSite: "lax",
    secure: isHttps(req, publicUrl),
    path: "/panel",
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds * 1000 } : {}),
  });
}

export function clearCookie(req: Request, res: Response, publicUrl: string, name: string): void {
  res.clearCookie(name, { httpOnly: true, sameSite: "lax", secure: isHttps(req, publicUrl), path: "/panel" });
}

/** The pre-session cookie's value, made now if absent (so the form about to be shown can carry its token). */
export function preSessionKey(req: Request, res: Response, publicUrl: string): string {
  const found = readCookie(req, PRE_COOKIE);
  if (found) return found;
  const made = randomBytes(24).toString("base64url");
  setCookie(req, res, publicUrl, PRE_COOKIE, made);
  // Later reads within this request see it too.
  req.headers.cookie = `${req.headers.cookie ? `${req.headers.cookie}; ` : ""}${PRE_COOKIE}=${made}`;
  return made;
}

export function csrfToken(key: string): string {
  return createHmac("sha256", key).update("panel-csrf").digest("base64url");
}

export function csrfMatches(key: string, presented: unknown): boolean {
  if (!key || typeof presented !== "string" || !presented) return false;
  const want = Buffer.from(csrfToken(key));
  const got = Buffer.from(presented);
  return want.length === got.length && timingSafeEqual(want, got);
}
