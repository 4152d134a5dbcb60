// Every hosted page (checkout, /pay) leaves with the same headers, set by helmet on the hosted routes:
// no framing, no referrer, no sniffing, and a CSP without any script source (the pages use no
// JavaScript, so no script can run, inline or not). Pix QR images may come from PUBLIC_URL's origin.
import type { RequestHandler, Response } from "express";
import helmet from "helmet";
import type { Runtime } from "../../core/runtime.ts";

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

export function sendHostedPage(res: Response, _runtime: Runtime, status: number, page: string): void {
  res.status(status).set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).send(page);
}
