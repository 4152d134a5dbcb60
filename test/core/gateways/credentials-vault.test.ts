// The gateway credentials vault: AES-256-GCM under GATEWAY_CREDENTIALS_KEY or a key made once
// in the data directory, the key id beside each ciphertext, old keys for rotation, and the hints.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { REDACT_PATHS } from "../../../core/shared/logger.ts";
import { credentialHint, parseApiBaseUrl, parseCredentials } from "../../../core/gateways/credential-rules.ts";
import { credentialKey, CredentialKeyError, CredentialsVault, loadCredentialKeys } from "../../../core/gateways/credentials-vault.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gw-vault-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const b64 = (n = 32) => randomBytes(n).toString("base64");
const SECRET = `sk_test_${randomBytes(18).toString("hex")}`;
const ACCOUNT = "gwa_01JTESTVAULT00000000000000";

describe("credentials vault", () => {
  it("seals and opens; the ciphertext names its key and holds nothing clear", () => {
    const key = b64();
    const vault = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: key }, tempDir()));
    const sealed = vault.seal(ACCOUNT, { secretKey: SECRET });
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(CredentialsVault.keyIdOf(sealed)).toBe(credentialKey(Buffer.from(key, "base64")).id);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString("base64url").slice(0, 12));
    expect(vault.open(ACCOUNT, sealed)).toEqual({ secretKey: SECRET });
    // A fresh IV each time: the same credentials never seal to the same text.
    expect(vault.seal(ACCOUNT, { secretKey: SECRET })).not.toBe(sealed);
  });

  it("refuses a ciphertext altered or moved onto another account, without echoing anything secret", () => {
    const vault = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: b64() }, tempDir()));
    const sealed = vault.seal(ACCOUNT, { secretKey: SECRET });
    expect(() => vault.open("gwa_01JTESTVAULTOTHER000000000", sealed)).toThrow(/do not open/);
    const parts = sealed.split(".");
    const data = Buffer.from(parts[4]!, "base64url");
    data[0]! ^= 1;
    parts[4] = data.toString("base64url");
    expect(() => vault.open(ACCOUNT, parts.join("."))).toThrow(/do not open/);
    try {
      vault.open("gwa_01JTESTVAULTOTHER000000000", sealed);
    } catch (err) {
      expect(String(err)).not.toContain(SECRET);
    }
  });

  it("rotation: the old key (GATEWAY_CREDENTIALS_OLD_KEYS) still opens, new seals use the new key", () => {
    const [oldKey, newKey] = [b64(), b64()];
    const dir = tempDir();
    const before = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: oldKey }, dir));
    const sealed = before.seal(ACCOUNT, { secretKey: SECRET });
    const without = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: newKey }, dir));
    expect(without.holdsKeyOf(sealed)).toBe(false);
    expect(() => without.open(ACCOUNT, sealed)).toThrow(new RegExp(`key ${CredentialsVault.keyIdOf(sealed)}, which this process does not hold`));
    const after = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: newKey, GATEWAY_CREDENTIALS_OLD_KEYS: ` ${b64()}, ${oldKey} ` }, dir));
    expect(after.open(ACCOUNT, sealed)).toEqual({ secretKey: SECRET });
    const resealed = after.seal(ACCOUNT, after.open(ACCOUNT, sealed));
    expect(CredentialsVault.keyIdOf(resealed)).toBe(after.currentKeyId());
    expect(after.currentKeyId()).not.toBe(CredentialsVault.keyIdOf(sealed));
  });

  it.each([
    ["GATEWAY_CREDENTIALS_KEY", { GATEWAY_CREDENTIALS_KEY: b64(16) }, /GATEWAY_CREDENTIALS_KEY must be 32 random bytes in base64.*decodes to 16 bytes/],
    ["GATEWAY_CREDENTIALS_KEY", { GATEWAY_CREDENTIALS_KEY: "not base64 at all!" }, /GATEWAY_CREDENTIALS_KEY must be 32 random bytes/],
    ["GATEWAY_CREDENTIALS_KEY", { GATEWAY_CREDENTIALS_KEY: b64(48) }, /decodes to 48 bytes/],
    ["GATEWAY_CREDENTIALS_OLD_KEYS", { GATEWAY_CREDENTIALS_KEY: b64(), GATEWAY_CREDENTIALS_OLD_KEYS: `${b64()},${b64(31)}` }, /OLD_KEYS \(entry 2\) must be 32/],
  ])("a wrong %s is refused with a clear message", (_name, env, message) => {
    expect(() => loadCredentialKeys(env, tempDir())).toThrow(CredentialKeyError);
    expect(() => loadCredentialKeys(env, tempDir())).toThrow(message);
  });

  it("without GATEWAY_CREDENTIALS_KEY: one key made on first use in the data directory (0600), then kept", () => {
    const dir = tempDir();
    const file = path.join(dir, "gateway-credentials.key");
    const ring = loadCredentialKeys({}, dir);
    expect(ring.source).toBe("data_dir");
    expect(fs.existsSync(file)).toBe(false); // nothing sealed yet, no key made
    const sealed = new CredentialsVault(ring).seal(ACCOUNT, { secretKey: SECRET });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64")).toHaveLength(32);
    // A restart reads the same key.
    expect(new CredentialsVault(loadCredentialKeys({}, dir)).open(ACCOUNT, sealed)).toEqual({ secretKey: SECRET });
    // Moving to GATEWAY_CREDENTIALS_KEY later: the data directory's key still opens what it sealed.
    const configured = new CredentialsVault(loadCredentialKeys({ GATEWAY_CREDENTIALS_KEY: b64() }, dir));
    expect(configured.open(ACCOUNT, sealed)).toEqual({ secretKey: SECRET });
    expect(CredentialsVault.keyIdOf(configured.seal(ACCOUNT, { secretKey: SECRET }))).not.toBe(CredentialsVault.keyIdOf(sealed));
  });
});

describe("credential rules", () => {
  it.each([
    ["sk_live_4eC39HqLyjWDarjtT1zdp7dc4242", "sk_live_...4242"],
    ["sk_test_51H8xYzAbCdEfGhIjKlMnOpQrStUv9999", "sk_test_...9999"],
    ["pk_test_TYooMQauvdEDq54NiTphI7jx", "pk_test_...I7jx"],
    ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_...LaSw"],
    ["APP_USR-1234567890123456-112233-abcdef", "APP_...cdef"],
    ["sk_live_short", "sk_live_..."],
    ["0123456789abcdef0123", "...0123"],
    ["abc", "..."],
  ])("hint of %s is %s", (value, hint) => {
    expect(credentialHint(value)).toBe(hint);
  });

  it.each([
    ["a string", "sk_test_x"],
    ["an array", ["sk_test_x"]],
    ["a number value", { secretKey: 5 }],
    ["an empty value", { secretKey: "  " }],
    ["a bad field name", { "secret key": "x" }],
    ["a control character", { secretKey: "sk_test_a\u0000b" }],
    ["too long a value", { secretKey: "x".repeat(4097) }],
  ])("credentials as %s are refused, naming no value", (_what, input) => {
    let err: unknown;
    try {
      parseCredentials(input);
    } catch (e) {
      err = e;
    }
    expect((err as { key?: string }).key).toBe("invalid_argument");
    expect(String((err as Error).message)).not.toMatch(/sk_test_x|xxxx/);
  });

  it("credentials are trimmed", () => {
    expect(parseCredentials({ secretKey: " sk_test_abc\n" })).toEqual({ secretKey: "sk_test_abc" });
  });

  it("apiBaseUrl: even when allowed, only loopback (the same address guard as webhook URLs)", () => {
    for (const bad of ["https://proxy.example/stripe", "http://10.0.0.1:4010", "http://169.254.169.254/", "http://[::ffff:0:10.0.0.1]/", "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::7f00:1]/", "http://0.0.0.0:4010", "http://metadata.google.internal/"]) {
      expect({ bad, err: (() => { try { parseApiBaseUrl(bad, true); return null; } catch (e) { return (e as Error).message; } })() }).toEqual({ bad, err: expect.stringMatching(/apiBaseUrl must be on loopback/) });
    }
  });

  it("apiBaseUrl: refused unless allowed; http(s) without user, query or fragment", () => {
    expect(parseApiBaseUrl(null, false)).toBeNull();
    expect(() => parseApiBaseUrl("http://127.0.0.1:4010", false)).toThrow(/GATEWAY_ALLOW_BASE_URL_OVERRIDE=true/);
    expect(parseApiBaseUrl("http://127.0.0.1:4010/", true)).toBe("http://127.0.0.1:4010");
    expect(parseApiBaseUrl("http://localhost:4010/v1", true)).toBe("http://localhost:4010/v1");
    expect(parseApiBaseUrl("http://[::1]:4010", true)).toBe("http://[::1]:4010");
    for (const bad of ["ftp://x.example", "http://u:p@x.example", "http://x.example/?a=1", "http://x.example/#f", "not a url"]) {
      expect(() => parseApiBaseUrl(bad, true)).toThrow(/apiBaseUrl must be/);
    }
  });
});

describe("logger", () => {
  it("redacts gateway credentials wherever a log line carries them", () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: "[redacted]" } }, sink);
    const creds = { secretKey: SECRET, webhookSecret: `whsec_${randomBytes(12).toString("hex")}` };
    logger.info({ credentials: creds }, "a");
    logger.info({ input: { credentials: creds } }, "b");
    logger.info({ req: { body: { credentials: creds } } }, "c");
    logger.info({ candidate: { secretKey: SECRET, webhookSecret: creds.webhookSecret } }, "d");
    logger.info({ config: { gatewayCredentialKeys: { old: [{ key: "k" }] } } }, "e");
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(creds.webhookSecret);
      expect(line).toContain("[redacted]");
    }
  });
});
