// Every hosted page (checkout, /pay) leaves with the same headers, set by helmet on the hosted routes:
// no framing, no referrer, no sniffing, and a CSP without any script source: no script can run, inline
// or not, except our own files on the pages that load one (sendHostedPage). Pix QR images may come from PUBLIC_URL's origin.
import type { RequestHandler, Response } from "express";
import helmet from "helmet";
import type { Runtime } from "../../core/runtime.ts";
import { LIVE_COUPON_PATH } from "./live-coupon.ts";
import { PIX_FOLLOW_PATH } from "./pix-follow.ts";

/** Our own scripts: a page that loads one lets in 'self' for scripts and for the requests they make. */
const OWN_SCRIPTS = [PIX_FOLLOW_PATH, LIVE_COUPON_PATH];

/** helmet for the hosted pages; mounted on /checkout and /pay before any route. */
export function hostedPageHeaders(runtime: Runtime): RequestHandler {
  const imgSrc = ["'self'"];
  try {
    imgSrc.push(new URL(runtime.config.publicUrl).origin);
  } catch {
    /* no public URL: same-origin images only */
  }
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'none'"],
        // Inline style attributes and <style> only; script-src is absent, so default-src 'none' forbids every script.
        "style-src": ["'unsafe-inline'"],
        "img-src": imgSrc,
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    crossOriginResourcePolicy: { policy: "same-origin" },
  }) as unknown as RequestHandler;
}

/**
 * A page that shows a Pix loads our own follow script (pix-follow.ts) and polls our status route; a
 * checkout with a coupon field loads live-coupon.ts, which posts the coupon form: its CSP, whichever set
 * it (helmet above or a provider's, browser-card.ts), also lets in 'self' for both.
 */
function allowOwnScript(res: Response): void {
  const csp = String(res.get("Content-Security-Policy") ?? "");
  if (!csp) return;
  const directives = csp.split(";").map((d) => d.trim()).filter(Boolean);
  for (const name of ["script-src", "connect-src"]) {
    const i = directives.findIndex((d) => d.split(/\s+/)[0] === name);
    if (i < 0) directives.push(`${name} 'self'`);
    else if (!directives[i]!.split(/\s+/).includes("'self'")) directives[i] = `${directives[i]} 'self'`;
  }
  res.set("Content-Security-Policy", directives.join(";"));
}

export function sendHostedPage(res: Response, _runtime: Runtime, status: number, page: string): void {
  if (OWN_SCRIPTS.some((path) => page.includes(`src="${path}"`))) allowOwnScript(res);
  res.status(status).set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).send(page);
}
