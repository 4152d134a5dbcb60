// Gateway credentials at rest: AES-256-GCM (node:crypto) under GATEWAY_CREDENTIALS_KEY, or under a key
// generated once into the data directory for the embedded default. Each ciphertext names its key id, so
// the key can be rotated: older keys (GATEWAY_CREDENTIALS_OLD_KEYS) still open what they sealed, and
// every seal uses the current key. The account id is bound in as associated data: a ciphertext copied
// onto another account does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "../../prisma/connection.ts";

const VERSION = "v1";
const KEY_FILE = "gateway-credentials.key";
const MIN_DISTINCT_BYTES = 16;

export interface CredentialKey {
  /** First 8 hex digits of the key's SHA-256: stored beside each ciphertext, reveals nothing of the key. */
  id: string;
  key: Buffer;
}

/** Where the current key comes from, for the start banner and the warnings. */
export type KeySource = "env" | "data_dir";

export interface CredentialKeyRing {
  /** The key every seal uses. A data-directory key is read or made on first use (lazily). */
  current(): CredentialKey;
  /** Keys that only open older ciphertexts. */
  old: CredentialKey[];
  source: KeySource;
}

/** A refusal to start: the message says what is wrong and how to fix it, never the key. */
export class CredentialKeyError extends Error {
  override name = "CredentialKeyError";
}

export function credentialKey(key: Buffer): CredentialKey {
  return { id: createHash("sha256").update(key).digest("hex").slice(0, 8), key };
}

/** Strict base64 (standard or url-safe, padding optional) of exactly 32 bytes. */
function parseKey(text: string, name: string): CredentialKey {
  const trimmed = text.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64") : Buffer.alloc(0);
  if (key.length !== 32) {
    throw new CredentialKeyError(
      `${name} must be 32 random bytes in base64 (44 characters); it decodes to ${key.length} bytes. ` +
        "Make one with: openssl rand -base64 32",
    );
  }
  // 32 random bytes hold ~30 distinct values (fewer than 16: odds under 1e-15); all zeros, a repeated
  // byte or a short pattern is a placeholder someone typed, and anyone could guess it.
  const distinct = new Set(key).size;
  if (distinct < MIN_DISTINCT_BYTES) {
    throw new CredentialKeyError(
      `${name} is not random: its 32 bytes hold only ${distinct} distinct values (all zeros or a repeated pattern). ` +
        "Make one with: openssl rand -base64 32",
    );
  }
  return credentialKey(key);
}

/** The data directory's key, made once (mode 0600). `wx` so two processes starting together agree on one. */
function dataDirKey(dir: string): CredentialKey {
  const file = path.join(dir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return parseKey(fs.readFileSync(file, "utf8"), file);
}

/**
 * The key ring from GATEWAY_CREDENTIALS_KEY and GATEWAY_CREDENTIALS_OLD_KEYS (comma-separated), else the
 * data directory's key. A configured key of the wrong length throws CredentialKeyError (main.ts refuses
 * to start). With a configured key, a data-directory key left from the embedded default still opens what
 * it sealed, so moving to GATEWAY_CREDENTIALS_KEY loses nothing (the start re-seals those rows).
 */
export function loadCredentialKeys(env: NodeJS.ProcessEnv = process.env, dir: string = dataDir()): CredentialKeyRing {
  const old = (env.GATEWAY_CREDENTIALS_OLD_KEYS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s, i) => parseKey(s, `GATEWAY_CREDENTIALS_OLD_KEYS (entry ${i + 1})`));
  if (env.GATEWAY_CREDENTIALS_KEY) {
    const current = parseKey(env.GATEWAY_CREDENTIALS_KEY, "GATEWAY_CREDENTIALS_KEY");
    const file = path.join(dir, KEY_FILE);
    if (fs.existsSync(file)) old.push(parseKey(fs.readFileSync(file, "utf8"), file));
    return { current: () => current, old, source: "env" };
  }
  let made: CredentialKey | undefined;
  return { current: () => (made ??= dataDirKey(dir)), old, source: "data_dir" };
}

const b64 = (b: Buffer) => b.toString("base64url");

export class CredentialsVault {
  constructor(private readonly ring: CredentialKeyRing) {}

  get source(): KeySource {
    return this.ring.source;
  }

  currentKeyId(): string {
    return this.ring.current().id;
  }

  /** The key id a ciphertext was sealed under (readable without any key). */
  static keyIdOf(sealed: string): string {
    return sealed.split(".")[1] ?? "";
  }

  /** Whether this process holds the key that sealed `sealed`. */
  holdsKeyOf(sealed: string): boolean {
    return this.find(CredentialsVault.keyIdOf(sealed)) !== undefined;
  }

  /** "v1.<keyId>.<iv>.<tag>.<data>", each part base64url: 12-byte IV, 16-byte tag. */
  seal(accountId: string, credentials: Record<string, string>): string {
    const { id, key } = this.ring.current();
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(aad(id, accountId));
    const data = Buffer.concat([cipher.update(JSON.stringify(credentials), "utf8"), cipher.final()]);
    return [VERSION, id, b64(iv), b64(cipher.getAuthTag()), b64(data)].join(".");
  }

  /** Throws an Error naming the key id (never a secret) when the key is missing or the ciphertext was altered. */
  open(accountId: string, sealed: string): Record<string, string> {
    const [version, keyId, iv, tag, data] = sealed.split(".");
    if (version !== VERSION || !keyId || !iv || !tag || data === undefined) throw new Error("gateway credentials: unknown ciphertext format");
    const found = this.find(keyId);
    if (!found) {
      throw new Error(
        `gateway credentials of ${accountId} are sealed under key ${keyId}, which this process does not hold ` +
          "(set GATEWAY_CREDENTIALS_KEY, or list the old key in GATEWAY_CREDENTIALS_OLD_KEYS)",
      );
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", found.key, Buffer.from(iv, "base64url"));
      decipher.setAAD(aad(keyId, accountId));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      const clear = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
      return JSON.parse(clear) as Record<string, string>;
    } catch {
      throw new Error(`gateway credentials of ${accountId} do not open under key ${keyId} (altered, or sealed for another account)`);
    }
  }

  private find(keyId: string): CredentialKey | undefined {
    const current = this.ring.current();
    return current.id === keyId ? current : this.ring.old.find((k) => k.id === keyId);
  }
}

function aad(keyId: string, accountId: string): Buffer {
  return Buffer.from(`${VERSION}.${keyId}.${accountId}`, "utf8");
}
