// CSRF guard for the hosted forms (POST /checkout/{offer_id}, POST /pay/{token}). The pages carry no
// cookie or session, and black-box clients post the contract's fields directly (no page, no token), so
// the guard reads what browsers always send and servers do not: Fetch Metadata and Origin.
// Sec-Fetch-Site, when sent, decides: `same-origin` and `none` (user-initiated) pass, `same-site` and
// `cross-site` are refused (403 cross_site_request). It must decide alone: under our
// `Referrer-Policy: no-referrer` a browser's own same-origin form post carries `Origin: null`.
// Without it (older browsers): an `Origin` that is neither PUBLIC_URL's origin nor the Host the
// request came to, or `Origin: null`, is refused. Neither header (server-side clients, curl) passes.
import type { Request, RequestHandler } from "express";
import { AppError } from "../../core/shared/errors.ts";

function originOf(raw: string): string | null {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
}

export function isCrossSitePost(req: Pick<Request, "get">, publicUrl: string): boolean {
  const site = req.get("sec-fetch-site")?.trim().toLowerCase();
  if (site === "same-origin" || site === "none") return false;
  if (site === "cross-site") return true;
  const origin = req.get("origin")?.trim();
  if (origin === undefined || origin === "") return site === "same-site"; // browsers always send Origin on POST
  if (origin.toLowerCase() === "null") return true;
  const given = originOf(origin);
  if (!given) return true;
  if (given === originOf(publicUrl)) return false;
  // The Host a browser connected to is not the page's to choose: Origin on that host is same-origin.
  const host = req.get("host");
  return !host || new URL(given).host !== host.toLowerCase();
}

export function sameOriginPost(publicUrl: string): RequestHandler {
  return (req, _res, next) => {
    if (req.method === "POST" && isCrossSitePost(req, publicUrl)) throw new AppError("cross_site_request");
    next();
  };
}
