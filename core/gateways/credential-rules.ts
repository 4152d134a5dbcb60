// Pure rules of gateway credentials: the accepted shape, the masked hint shown instead of a secret, and
// the apiBaseUrl override. Refusals name the field, never its value.
import { AppError } from "../shared/errors.ts";
import { isLoopbackHost } from "../webhooks/endpoint-url.ts";

const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_FIELDS = 20;
const MAX_VALUE = 4096;

/** A flat object of credential fields to non-empty strings (trimmed: a pasted key often ends in a newline). */
export function parseCredentials(input: unknown): Record<string, string> {
  const refuse = (why: string) => new AppError("invalid_argument", { error: `credentials: ${why}` });
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw refuse("must be an object of credential fields to strings");
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_FIELDS) throw refuse(`at most ${MAX_FIELDS} fields`);
  const out: Record<string, string> = {};
  for (const [field, value] of entries) {
    if (!FIELD.test(field)) throw refuse("a field name must be a letter followed by letters, digits or _ (at most 64)");
    if (typeof value !== "string") throw refuse(`${field} must be a string`);
    const trimmed = value.trim();
    if (!trimmed) throw refuse(`${field} is empty`);
    if (trimmed.length > MAX_VALUE) throw refuse(`${field} is longer than ${MAX_VALUE} characters`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw refuse(`${field} holds a control character`);
    out[field] = trimmed;
  }
  return out;
}

/**
 * "sk_live_...4242": the provider's prefix (letters and `_`, plus live_/test_) and, when at least 16
 * characters stay hidden, the last 4. Shorter values show their prefix only.
 */
export function credentialHint(value: string): string {
  const prefix = /^[A-Za-z]{2,8}[_-](?:(?:live|test)_)?/.exec(value)?.[0] ?? "";
  const hidden = value.length - prefix.length - 4;
  return hidden >= 16 ? `${prefix}...${value.slice(-4)}` : `${prefix}...`;
}

export function credentialHints(credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([field, value]) => [field, credentialHint(value)]));
}

/**
 * An http(s) base URL without user info, query or fragment, on loopback (the local fakes); only when the
 * operator allowed overrides. Anything else would let an account send its secret key, and our server's
 * requests, to any host inside our network.
 */
export function parseApiBaseUrl(input: string | null | undefined, allowed: boolean): string | null {
  if (input === null || input === undefined || input === "") return null;
  if (!allowed) {
    throw new AppError("invalid_argument", {
      error: "apiBaseUrl is accepted only when the service runs with GATEWAY_ALLOW_BASE_URL_OVERRIDE=true (tests and their loopback fakes)",
    });
  }
  const refuse = () => new AppError("invalid_argument", { error: "apiBaseUrl must be an http(s) URL without user, query or fragment" });
  if (input.length > 2048) throw refuse();
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw refuse();
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash) throw refuse();
  if (!isLoopbackHost(url.hostname)) throw new AppError("invalid_argument", { error: "apiBaseUrl must be on loopback (127.0.0.0/8, ::1 or localhost)" });
  return url.toString().replace(/\/+$/, "");
}
