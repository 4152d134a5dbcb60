// Pure rules of a vendor's team: what each role may do, how long sessions and links live, and what a
// password must be. Kept as data so the README's table and the scopes cannot disagree.
import type { TenantUserRole } from "../../generated/prisma/client.ts";
import { tokenStrengthEstimate } from "../shared/secrets.ts";

export const ROLES: readonly TenantUserRole[] = ["OWNER", "ADMIN", "DEVELOPER", "SUPPORT", "VIEWER"];

/** What a role may do in the panel. `write` is the API-key-like scope of ordinary tenant writes. */
export const ROLE_PERMISSIONS: Record<TenantUserRole, { write: boolean; developer: boolean; team: boolean; owner: boolean }> = {
  OWNER: { write: true, developer: true, team: true, owner: true },
  ADMIN: { write: true, developer: true, team: true, owner: false },
  DEVELOPER: { write: true, developer: true, team: false, owner: false },
  SUPPORT: { write: true, developer: false, team: false, owner: false },
  VIEWER: { write: false, developer: false, team: false, owner: false },
};

/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
/** ...and in any case this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 24 * 60 * 60_000;
/** A password-correct sign-in waiting for its two-factor code. */
export const PENDING_CODE_MS = 10 * 60_000;
/** lastSeenAt is written at most this often: a page view is not a database write each time. */
export const SESSION_TOUCH_MS = 60_000;

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;

/** Wrong passwords or codes in a row before the account waits LOCK_MS. */
export const MAX_FAILED_SIGN_INS = 5;
export const SIGN_IN_LOCK_MS = 15 * 60_000;

export const RECOVERY_CODE_COUNT = 10;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** Why a new password is refused, or null: length, then a guessability estimate (zxcvbn, 10^8 guesses). */
export function passwordWeakness(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `a senha precisa ter ao menos ${MIN_PASSWORD_LENGTH} caracteres`;
  if (length > MAX_PASSWORD_LENGTH) return `a senha pode ter no máximo ${MAX_PASSWORD_LENGTH} caracteres`;
  if (password.toLowerCase().includes(email.split("@")[0]!.toLowerCase()) && email.split("@")[0]!.length >= 4) return "a senha não pode conter o seu e-mail";
  if (tokenStrengthEstimate(password).guessesLog10 < 8) return "esta senha é fácil de adivinhar; use uma frase longa ou um gerenciador de senhas";
  return null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a stored session may still act, by the wall clock. */
export function sessionAlive(session: { lastSeenAt: Date; expiresAt: Date; revokedAt: Date | null }, now: Date): boolean {
  return !session.revokedAt && session.expiresAt > now && now.getTime() - session.lastSeenAt.getTime() < SESSION_IDLE_MS;
}
