// Delivery headers: X-Billing-Event-Id, X-Billing-Signature (hex HMAC-SHA256 of `ts.raw_body` keyed
// with the secret string, one v1= per live secret) and the Standard Webhooks trio (base64 HMAC of
// `id.ts.body` keyed with the secret's base64-decoded bytes). `ts` is wall-clock transport time.
import { createHmac } from "node:crypto";

export interface LiveSecrets {
  secret: string;
  /** The pre-rotation secret while it still signs (24 h). */
  previous?: string | null;
}

const standardKey = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ""), "base64");

export function deliveryHeaders(eventId: string, body: string, secrets: LiveSecrets, nowMs: number): Record<string, string> {
  const ts = Math.floor(nowMs / 1000);
  const live = secrets.previous ? [secrets.secret, secrets.previous] : [secrets.secret];
  const billing = live.map((s) => `v1=${createHmac("sha256", s).update(`${ts}.${body}`).digest("hex")}`);
  const standard = live.map((s) => `v1,${createHmac("sha256", standardKey(s)).update(`${eventId}.${ts}.${body}`).digest("base64")}`);
  return {
    "content-type": "application/json",
    "user-agent": "billing-webhooks/1",
    "x-billing-event-id": eventId,
    "x-billing-signature": [`ts=${ts}`, ...billing].join(","),
    "webhook-id": eventId,
    "webhook-timestamp": String(ts),
    "webhook-signature": standard.join(" "),
  };
}
