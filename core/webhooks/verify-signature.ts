// Receiver side, as docs/guides/receive-webhooks.md shows it: check X-Billing-Signature over the raw body, reject a `ts`
// older (or newer) than the tolerance, compare in constant time, accept any v1= (secret rotation).
import { createHmac, timingSafeEqual } from "node:crypto";

export function verifyBillingSignature(rawBody: string, header: string, secret: string, nowMs: number, toleranceS = 300): boolean {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const ts = Number(parts.find(([k]) => k === "ts")?.[1]);
  if (!Number.isInteger(ts) || Math.abs(nowMs / 1000 - ts) > toleranceS) return false;
  const expected = createHmac("sha256", secret).update(`${ts}.${rawBody}`).digest();
  return parts.some(([k, v]) => k === "v1" && v !== undefined && /^[0-9a-f]{64}$/.test(v) && timingSafeEqual(Buffer.from(v, "hex"), expected));
}
