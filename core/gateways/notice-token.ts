// The secret token in the notice URL of a provider whose notices are unsigned (Pagar.me v5,
// `webhookSecretRequired: false`). Re-reading the object at the provider keeps a forged notice from
// changing anything, but anyone could still make us read the API for any known charge id; the token
// (`?token=` on /gateways/<id>/webhooks, in the URL the operator registers at the provider) tells the
// provider's notices apart before any read. It is kept with the account's credentials (sealed by the
// vault, rotated with them by the rekey job, masked in the hints) as `webhookToken`.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "../shared/errors.ts";
import type { GatewayAdapter } from "./adapter.ts";
import { credentialHint } from "./credential-rules.ts";

export const NOTICE_TOKEN_FIELD = "webhookToken";
const SHAPE = /^[A-Za-z0-9_-]{32,200}$/;

/** Providers that sign nothing get a token in their notice URL. */
export const takesNoticeToken = (adapter: Pick<GatewayAdapter, "webhookSecretRequired">): boolean => adapter.webhookSecretRequired === false;

/** 256 random bits, URL-safe; the prefix only makes its masked hint readable (wht_...abcd). */
export const newNoticeToken = (): string => `wht_${randomBytes(32).toString("base64url")}`;

/**
 * The credentials to seal with their notice token: the one given (checked), else the account's current
 * one (a key rotation keeps the registered URL working), else a new one.
 */
export function withNoticeToken(credentials: Record<string, string>, current?: string | null): Record<string, string> {
  const given = credentials[NOTICE_TOKEN_FIELD];
  if (given !== undefined && !SHAPE.test(given)) {
    throw new AppError("invalid_argument", { error: `credentials: ${NOTICE_TOKEN_FIELD} must be 32 to 200 letters, digits, - or _ (or left out: one is made)` });
  }
  return { ...credentials, [NOTICE_TOKEN_FIELD]: given ?? (current && SHAPE.test(current) ? current : newNoticeToken()) };
}

/** Constant time (over digests, so lengths do not leak either); no token stored matches nothing. */
export function noticeTokenMatches(given: string | null | undefined, expected: string | null | undefined): boolean {
  if (!expected || typeof given !== "string" || !given) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The address the operator registers at the provider for an account's notices. */
export function noticeUrl(publicUrl: string, accountId: string, token: string | null): string {
  const base = `${publicUrl.replace(/\/+$/, "")}/gateways/${accountId}/webhooks`;
  return token ? `${base}?token=${encodeURIComponent(token)}` : base;
}

/** The notice URL with its token masked (wht_...abcd): what someone who may not register it sees. */
export function maskNoticeUrl(url: string): string {
  const parsed = new URL(url);
  const token = parsed.searchParams.get("token");
  if (!token) return url;
  parsed.searchParams.set("token", credentialHint(token));
  return parsed.toString();
}
