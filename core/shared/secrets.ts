// Random secrets and hashing. Clear API keys and link tokens are never stored; only their SHA-256.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

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
 * zxcvbn's floor: 10^24 guesses (80 bits, the floor above). Its model counts ~10 guesses per character
 * nothing explains, so a random token of 32 characters estimates ~10^30-10^32 (the lowest of ~650 draws
 * per shape: 32 hex 10^27.8, 32 base62 10^28.5; fcd_ + base64url(24) 10^34.5), while words, walks and
 * repeats estimate far less ("Password1!Password2!…" 10^23.9, a keyboard walk 10^12-10^19).
 */
export const MIN_OPERATOR_TOKEN_GUESSES_LOG10 = 24;
/**
 * Share of the characters zxcvbn may explain as dictionary words (3 or more characters, with a letter).
 * In random tokens of 32 characters words explain under a third (base62 0.16, hex 0.31 at most over
 * hundreds of draws); a token built of words, however long, is explained almost whole
 * ("correcthorsebattery…" 0.76, "minhasenhasuper…" 0.91). Other patterns (dates, repeats, digits) are
 * left to the guesses floor: random hex has digit runs that read as dates.
 */
export const MAX_OPERATOR_TOKEN_WORD_SHARE = 0.5;

// The dictionaries hold about 15 MB of heap (30 MB of resident memory) that a process needs only for a
// password or token check: a start-up check of the operator's token, a member choosing a password. They
// are loaded on demand through `require` and let go ten seconds after the last check, evicted from
// require's cache so the collector can take them; the next check pays the load again (about half a second).
const ESTIMATOR_PACKAGES = ["@zxcvbn-ts/core", "@zxcvbn-ts/language-common", "@zxcvbn-ts/language-en", "@zxcvbn-ts/language-pt-br"];
const KEEP_ESTIMATOR_MS = 10_000;
// The default 100 makes one check on a long token take seconds; 10 still finds "P@ssw0rd".
const L33T_MAX_SUBSTITUTIONS = 10;
const load = createRequire(import.meta.url);
let estimator: ZxcvbnFactory | undefined;
let release: NodeJS.Timeout | undefined;

/** zxcvbn with the common passwords, English and Brazilian Portuguese words and keyboard layouts (made once per use: building it is slow). */
function strengthEstimator(): ZxcvbnFactory {
  if (!estimator) {
    const [core, common, en, ptBr] = ESTIMATOR_PACKAGES.map((name) => load(name)) as [
      typeof import("@zxcvbn-ts/core"),
      typeof import("@zxcvbn-ts/language-common"),
      typeof import("@zxcvbn-ts/language-en"),
      typeof import("@zxcvbn-ts/language-pt-br"),
    ];
    estimator = new core.ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary }, graphs: common.adjacencyGraphs, l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS });
  }
  clearTimeout(release);
  release = setTimeout(dropEstimator, KEEP_ESTIMATOR_MS).unref();
  return estimator;
}

function dropEstimator(): void {
  estimator = undefined;
  for (const id of Object.keys(load.cache)) if (id.includes("/node_modules/@zxcvbn-ts/")) delete load.cache[id];
}

export interface StrengthEstimate {
  guessesLog10: number;
  wordShare: number;
  patterns: string[];
}
/** The part of zxcvbn's answer an estimate is made of. */
type RawEstimate = { guessesLog10: number; sequence: { pattern: string; token: string }[] };

function summarize(token: string, result: RawEstimate): StrengthEstimate {
  const explained = result.sequence.filter((m) => m.pattern !== "bruteforce");
  const words = explained.filter((m) => m.pattern === "dictionary" && [...m.token].length >= 3 && /\p{L}/u.test(m.token));
  const chars = words.reduce((n, m) => n + [...m.token].length, 0);
  return { guessesLog10: result.guessesLog10, wordShare: chars / Math.max(1, [...token].length), patterns: [...new Set(explained.map((m) => m.pattern))] };
}

/** Estimates made apart (prepareTokenEstimatesApart), by the token's SHA-256. */
const preparedEstimates = new Map<string, StrengthEstimate>();

/** What zxcvbn makes of a token: log10 of its guesses, the patterns it found, and the share of characters in words. */
export function tokenStrengthEstimate(token: string): StrengthEstimate {
  const prepared = preparedEstimates.get(sha256Hex(token));
  if (prepared) return prepared;
  return summarize(token, strengthEstimator().check(token) as RawEstimate);
}

/**
 * Estimates the start-up tokens (the operator token, FACADE_SECRET, METRICS_TOKEN), each as given and with
 * spaces and punctuation removed, in one short-lived node process of their own, so the dictionaries
 * (about 50 MB of a service's peak resident memory) never enter the service; tokenStrengthEstimate then
 * answers those from here. Synchronous: it runs once, before the service listens (about half a second).
 */
export function prepareTokenEstimatesApart(tokens: string[]): void {
  const wanted = [...new Set(tokens.flatMap((t) => [t, t.replace(/[\s\p{P}\p{S}]+/gu, "")]))].filter((t) => t && !preparedEstimates.has(sha256Hex(t)));
  if (wanted.length === 0) return;
  const [core, common, en, ptBr] = ESTIMATOR_PACKAGES.map((name) => load.resolve(name));
  const script = `
    const [core, common, en, ptBr] = ${JSON.stringify([core, common, en, ptBr])}.map((p) => require(p));
    const f = new core.ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary }, graphs: common.adjacencyGraphs, l33tMaxSubstitutions: ${L33T_MAX_SUBSTITUTIONS} });
    let input = "";
    process.stdin.on("data", (d) => (input += d)).on("end", () => {
      const out = JSON.parse(input).map((t) => { const r = f.check(t); return { guessesLog10: r.guessesLog10, sequence: r.sequence.map((m) => ({ pattern: m.pattern, token: m.token })) }; });
      process.stdout.write(JSON.stringify(out));
    });`;
  // The tokens go through stdin, never the command line (which other users of the host can read).
  const answer = execFileSync(process.execPath, ["-e", script], { input: JSON.stringify(wanted), maxBuffer: 16 * 1024 * 1024, env: {} });
  const raw = JSON.parse(answer.toString("utf8")) as RawEstimate[];
  wanted.forEach((t, i) => preparedEstimates.set(sha256Hex(t), summarize(t, raw[i]!)));
}

/**
 * Why an operator token (ADMIN_TOKEN, FACADE_SECRET) is too weak to guard the operator API, or null.
 * Refused: under 32 characters; an entropy estimate under 80 bits ("aaaa…", "abab…"); a repeated block
 * ("abcdefgh" × 5); mostly steps of one ("abcdef…0123…"); then what the zxcvbn estimator (its common
 * password, English and Portuguese dictionaries, keyboard layouts, l33t) sees: fewer than 10^24
 * guesses ("Password1!Password2!…", "qwertyuiop…", "adminadmin…"), or half the characters or more
 * in dictionary words, also once spaces and punctuation are removed (a phrase of words). The entropy estimate is
 * biased low for short random strings (32 random hex characters, 128 bits, read 116 typically and 88
 * at worst over a million draws), hence 80 and not 128. A random token of 32 or more characters
 * passes every rule; the generated one (adm_ + 40 base62, 238 bits) is the one to use.
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
  const estimate = tokenStrengthEstimate(token);
  const found = estimate.patterns.join(", ");
  if (estimate.guessesLog10 < MIN_OPERATOR_TOKEN_GUESSES_LOG10) {
    return `a password-strength estimate (zxcvbn) guesses it in about 10^${Math.floor(estimate.guessesLog10)} tries (${found}); at least 10^${MIN_OPERATOR_TOKEN_GUESSES_LOG10} are needed`;
  }
  if (estimate.wordShare >= MAX_OPERATOR_TOKEN_WORD_SHARE) {
    return `a password-strength estimate (zxcvbn) reads ${Math.round(estimate.wordShare * 100)} % of its characters as dictionary words; random characters are needed`;
  }
  // zxcvbn leaves spaced words it finds cheaper to count as characters ("the quick brown fox …"): the
  // words run together are read whole.
  const bare = token.replace(/[\s\p{P}\p{S}]+/gu, "");
  if (bare !== token) {
    const joined = tokenStrengthEstimate(bare);
    if (joined.wordShare >= MAX_OPERATOR_TOKEN_WORD_SHARE) {
      return `a password-strength estimate (zxcvbn) reads ${Math.round(joined.wordShare * 100)} % of its letters and digits as dictionary words; random characters are needed`;
    }
  }
  return null;
}
