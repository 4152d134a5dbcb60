// Webhook endpoint URL rules: http(s) only, no credentials, and for LIVE tenants no private or
// loopback literal targets (SSRF guard). SANDBOX tenants may use loopback for testing.
import net from "node:net";
import { AppError } from "../shared/errors.ts";

const PRIVATE_V4 = [/^10\./, /^127\./, /^169\.254\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^0\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];

export function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".internal") || h.endsWith(".local")) return true;
  if (net.isIPv4(h)) return PRIVATE_V4.some((r) => r.test(h));
  if (net.isIPv6(h)) return h === "::1" || h === "::" || h.startsWith("fc") || h.startsWith("fd") || h.startsWith("fe80") || h.startsWith("::ffff:");
  return false;
}

export function validateEndpointUrl(raw: string, mode: "LIVE" | "SANDBOX"): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("invalid_argument", { error: "url is not a valid URL" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AppError("invalid_argument", { error: "url must be http or https" });
  if (url.username || url.password) throw new AppError("invalid_argument", { error: "url must not carry credentials" });
  if (mode === "LIVE" && isPrivateHost(url.hostname)) {
    throw new AppError("invalid_argument", { error: "url must not target a private or loopback address" });
  }
  return url.toString();
}
