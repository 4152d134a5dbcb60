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
