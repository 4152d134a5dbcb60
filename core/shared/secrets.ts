// Random secrets and hashing. Clear API keys and link tokens are never stored; only their SHA-256.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]; // 248 = 4*62: no modulo bias
    }
  }
  return out;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function sha256(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Compares SHA-256 digests (one fixed length): neither the matching prefix nor the secret's length shows in the time. */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

let fixed: { secret: string; digest: Buffer } | null = null;

/** constantTimeEqual(token, secret) given the token's digest; the fixed secret's digest is computed once. */
export function digestMatchesSecret(tokenDigest: Buffer, secret: string): boolean {
  if (fixed?.secret !== secret) fixed = { secret, digest: sha256(secret) };
  return timingSafeEqual(tokenDigest, fixed.digest);
}

/** The operator token's floor: 32 characters, as many as a 128-bit secret needs from 16 symbols. */
export const MIN_OPERATOR_TOKEN_LENGTH = 32;
/** Floor of the entropy estimate below (length × Shannon entropy per character), in bits. */
export const MIN_OPERATOR_TOKEN_BITS = 80;

/** length × the Shannon entropy of the token's own character frequencies: what its characters can carry. */
export function entropyEstimateBits(token: string): number {
  const chars = [...token];
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / chars.length) * Math.log2(n / chars.length);
  return chars.length * perChar;
}

/**
 * Why an operator token (ADMIN_TOKEN) is too weak to guard the operator API, or null. Refused: under
 * 32 characters; an entropy estimate under 80 bits ("aaaa…", "abab…"); a repeated block
 * ("abcdefgh" × 5); mostly steps of one ("abcdef…0123…"). The estimate is biased low for short
 * random strings (32 random hex characters, 128 bits, read 116 typically and 88 at worst over a
 * million draws), hence
 * 80 and not 128: a random token of 32 or more characters always passes, a patterned one does not.
 * A phrase of words can pass; the generated token (adm_ + 40 base62, 238 bits) is the one to use.
 */
export function operatorTokenWeakness(token: string): string | null {
  const chars = [...token];
  const length = chars.length;
  if (length < MIN_OPERATOR_TOKEN_LENGTH) return `it is ${length} characters long; at least ${MIN_OPERATOR_TOKEN_LENGTH} are needed`;
  const bits = entropyEstimateBits(token);
  if (bits < MIN_OPERATOR_TOKEN_BITS) {
    return `its characters carry about ${Math.floor(bits)} bits (${new Set(chars).size} distinct characters); at least ${MIN_OPERATOR_TOKEN_BITS} are needed`;
  }
  for (let period = 1; period <= length / 2; period++) {
    if (chars.every((c, i) => i < period || c === chars[i - period])) return `it repeats a block of ${period} characters`;
  }
  let steps = 0;
  for (let i = 1; i < length; i++) if (Math.abs(chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!) <= 1) steps++;
  if (steps >= 0.75 * (length - 1)) return "it is mostly a run of consecutive characters";
  return null;
}
