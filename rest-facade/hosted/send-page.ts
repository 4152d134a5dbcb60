// Every hosted page (checkout, /pay) leaves with the same headers: no caching, no referrer, no
// framing, and a CSP without scripts. Pix QR images may come from PUBLIC_URL's origin.
import type { Response } from "express";
import type { Runtime } from "../../core/runtime.ts";

export function sendHostedPage(res: Response, runtime: Runtime, status: number, page: string): void {
  let qrOrigin = "";
  try {
    qrOrigin = ` ${new URL(runtime.config.publicUrl).origin}`;
  } catch {
    /* no public URL: same-origin images only */
  }
  res
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'${qrOrigin}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    })
    .send(page);
}
