// The secrets of the team: passwords (argon2id), session and link tokens (random, only their SHA-256
// stored), TOTP secrets (sealed under the gateway credentials' key ring) and recovery codes.
import { hash, verify } from "@node-rs/argon2";
import { generateSecret, generateURI, verifySync } from "otplib";
import type { Runtime } from "../runtime.ts";
import { randomBase62, sha256Hex } from "../shared/secrets.ts";

/** Algorithm 2 = argon2id; the library's defaults (19 MiB, 2 passes) are OWASP's minimum for it. */
const ARGON2ID = 2;

export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: ARGON2ID });

export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Hashed once so an unknown e-mail costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;
export async function spendPasswordTime(password: string): Promise<void> {
  decoy ??= hashPassword(randomBase62(24));
  await passwordMatches(await decoy, password);
}

/** A session cookie's value: `ps_` + 43 base62 characters (256 bits). */
export const newSessionToken = (): string => `ps_${randomBase62(43)}`;
export const looksLikeSessionToken = (token: string): boolean => /^ps_[0-9A-Za-z]{43}$/.test(token);
/** An invitation or reset link's token. */
export const newLinkToken = (): string => randomBase62(43);
export const tokenHash = sha256Hex;

/** Recovery codes: 10 characters each, grouped for reading (xxxxx-xxxxx). */
export function newRecoveryCodes(count: number): string[] {
  return Array.from({ length: count }, () => {
    const raw = randomBase62(10).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}
export const recoveryCodeHash = (code: string): string => sha256Hex(code.trim().toLowerCase());

/** The associated data a member's TOTP secret is sealed with: a ciphertext copied onto another member does not open. */
export const totpSealKey = (userId: string) => `tenant_user:${userId}`;
const sealKey = totpSealKey;

export function newTotpSecret(): string {
  return generateSecret();
}

export function sealTotp(runtime: Runtime, userId: string, secret: string): string {
  return runtime.gateways.vault.seal(sealKey(userId), { totp: secret });
}

export function openTotp(runtime: Runtime, userId: string, sealed: string): string {
  return runtime.gateways.vault.open(sealKey(userId), sealed).totp ?? "";
}

export function totpUri(secret: string, email: string, issuer: string): string {
  return generateURI({ issuer, label: email, secret });
}

/**
 * The 30-second step a 6-digit code belongs to (the current one, one step of drift either way), or
 * null. A step at or before `lastStep` was used already: a code is accepted once.
 */
export function totpStep(secret: string, code: string, now: Date, lastStep: number | null): number | null {
  const clean = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(clean)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  try {
    const result = verifySync({ secret, token: clean, epoch, epochTolerance: 30 });
    if (!result.valid) return null;
    const step = Math.floor(epoch / 30) + ("delta" in result ? (result.delta ?? 0) : 0);
    return lastStep !== null && step <= lastStep ? null : step;
  } catch {
    return null;
  }
}
