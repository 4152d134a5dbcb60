// Stripe's webhook signature, written from https://docs.stripe.com/webhooks#verify-manually:
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the whsec_ secret>`.
// Written independently of stripe-node, so the adapter's verification is checked against a second reading.
import { createHmac } from "node:crypto";

export function signatureHeader(rawBody: string, secret: string, timestampSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${timestampSeconds}.${rawBody}`, "utf8").digest("hex");
  return `t=${timestampSeconds},v1=${v1}`;
}
