// The contract's `tracking` object (billing-api.md; service-contract §3): attribution of a checkout link.
// It never holds personal data, the client IP or the user agent. The page captures it on GET and
// carries it through the POST as hidden fields, so the POST rebuilds the very same object.
import valid from "card-validator";
import { isValidPhoneNumber } from "libphonenumber-js/max";
import { normalizeTaxDocument } from "../customers/tax-document.ts";
import type { Tracking } from "./checkout-input.ts";

const FIELDS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "fbclid", "fbc", "fbp"] as const;

/** The checkout's customer fields: personal data, so they leave landing_url and referrer too. */
const CUSTOMER_FIELDS = new Set(["external_id", "email", "name", "phone", "doc", "cpf", "cnpj"]);
/** The checkout's other fields and the tracking object's own keys: never a link parameter. */
const NOT_PARAMS = new Set(["method", "apply", "coupon", "ref", "referrer", "landing_url", "captured_at", "inherited", "params", "__proto__"]);

// Caps keep the hidden fields under the body parser's 50-field limit and the row small.
const MAX_VALUE = 500;
const MAX_URL = 2048;
const MAX_KEY = 100;
const MAX_PARAMS = 20;

/** Parameter names that say "personal data", in English and Portuguese (accents folded). */
const PERSONAL_WORDS = ["email", "telefone", "phone", "fone", "celular", "whatsapp", "cpf", "cnpj", "senha", "password", "endereco", "address", "nascimento", "birth", "cartao", "card", "sobrenome", "surname", "passport", "passaporte", "firstname", "lastname", "fullname", "nomecompleto", "useragent", "cvv", "cvc", "securitycode", "codigoseguranca", "codigodeseguranca", "ccnum", "ccnumber", "creditcard"];
const PERSONAL_TOKENS = new Set(["mail", "tel", "cel", "wpp", "zap", "ddd", "doc", "documento", "document", "rg", "cep", "zip", "cvv", "cvc", "csc", "pan", "cc", "dob", "ip", "ua"]);
const NAME_TOKENS = new Set(["name", "nome"]);
/** "name" is personal alone or next to one of these (customer_name), not next to a campaign word (adset_name). */
const PERSON_TOKENS = new Set(["first", "last", "full", "customer", "client", "cliente", "user", "usuario", "buyer", "payer", "comprador", "contact", "contato", "person", "pessoa", "primeiro", "ultimo"]);

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const DIGITISH = /^[\d\s().+/-]+$/;

function tokens(key: string): string[] {
  return key
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function personalName(key: string): boolean {
  const t = tokens(key);
  const joined = t.join("");
  if (PERSONAL_WORDS.some((w) => joined.includes(w)) || t.some((x) => PERSONAL_TOKENS.has(x))) return true;
  return t.some((x) => NAME_TOKENS.has(x)) && (t.length === 1 || t.some((x) => PERSON_TOKENS.has(x)));
}

/** Digit groups joined by anything that is neither a letter nor a digit (spaces, dots, slashes, tabs, NBSP...). */
const DIGIT_RUN = /\p{Nd}+(?:[^\p{L}\p{N}]+\p{Nd}+)*/gu;
const DIGIT_GROUP = /\p{Nd}+/gu;
const DAY_MS = 86_400_000;

/**
 * A Unix time in milliseconds (13 digits, from 2001 to the capture instant): Meta's fbc/fbp cookies
 * carry one ("fb.1.1596403881668.1116446470"). No card brand issues a 13-digit number that reads as a
 * past instant (a 13-digit Visa, 4…, would be the year 2096), so such a group is not counted.
 */
function isMillisecondTime(group: string, now: Date): boolean {
  if (!/^[0-9]{13}$/.test(group)) return false;
  const ms = Number(group);
  return ms >= 1e12 && ms <= now.getTime() + DAY_MS;
}

/** Some consecutive groups hold 13 to 19 digits together. */
function spansCardLength(lengths: number[]): boolean {
  for (let i = 0; i < lengths.length; i++) {
    let sum = 0;
    for (let j = i; j < lengths.length && sum <= 19; j++) {
      sum += lengths[j]!;
      if (sum >= 13 && sum <= 19) return true;
    }
  }
  return false;
}

/** Digits joined by non-alphanumerics or by letters that stand in for digits or spaces (o, O, l, I). */
const LOOKALIKE_RUN = /\p{Nd}+(?:(?:[^\p{L}\p{N}]|[oOlI])+\p{Nd}+)*/gu;

const ND = /\p{Nd}/u;

/** A digit of any script as ASCII: Unicode lays out each script's 0-9 contiguously, several sets back to back at times. */
function asciiDigits(group: string): string {
  if (/^[0-9]+$/.test(group)) return group;
  return [...group]
    .map((c) => {
      let cp = c.codePointAt(0)!;
      let k = 0;
      while (k < 100 && ND.test(String.fromCodePoint(cp - 1))) (cp -= 1), (k += 1);
      return String(k % 10);
    })
    .join("");
}

/** The Luhn checksum of ASCII digits. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    const d = digits.charCodeAt(i) - 48;
    sum += double ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
  }
  return sum % 10 === 0;
}

/**
 * card-validator's verdict on a Luhn-valid number: a brand whose prefix and length fit. It is slow (tens
 * of microseconds), and it depends only on the first 8 digits (the longest brand prefix) and the length,
 * so verdicts are remembered: a long run of digits otherwise costs seconds.
 */
const brandVerdicts = new Map<string, boolean>();
function knownBrand(luhnValid: string): boolean {
  const key = `${luhnValid.slice(0, 8)}/${luhnValid.length}`;
  let verdict = brandVerdicts.get(key);
  if (verdict === undefined) {
    verdict = valid.number(luhnValid, { luhnValidateUnionPay: true }).isValid;
    if (brandVerdicts.size >= 50_000) brandVerdicts.clear();
    brandVerdicts.set(key, verdict);
  }
  return verdict;
}

/**
 * Some group starts a Luhn-valid number of a known brand (card-validator's prefixes and lengths), 13
 * to 19 digits long, whatever follows it in the run (the expiry and CVC typed on, more digits).
 */
function startsBrandCard(groups: string[]): boolean {
  const digits = groups.join("");
  let at = 0;
  for (const group of groups) {
    for (let len = 13; len <= 19 && at + len <= digits.length; len++) {
      const candidate = digits.slice(at, at + len);
      // Luhn first: it is cheap and rules out nine windows in ten before the brand tables are read.
      if (luhn(candidate) && knownBrand(candidate)) return true;
    }
    at += group.length;
  }
  return false;
}

/** Groups of a run, split where a millisecond time stands (never part of a card). */
function segments(groups: string[], now: Date): string[][] {
  const out: string[][] = [[]];
  for (const group of groups) {
    if (isMillisecondTime(group, now)) out.push([]);
    else out[out.length - 1]!.push(group);
  }
  return out;
}

/**
 * Card-like, after NFKC (full-width and other compatibility digits become ASCII), either:
 * - 13 to 19 digits of whole groups joined by non-alphanumeric separators, whatever the separator, the
 *   first digit or Luhn (a card typed as 4242.4242.4242.4242, 4242/4242/..., with tabs or no-break
 *   spaces); a single group longer than 19 digits is an id here; or
 * - a Luhn-valid number of a known brand starting a group, whatever follows (42424242424242421235123:
 *   number, expiry and CVC run together), also when o/O/l/I stand between or for digits.
 * Digits of any script count. Any other letter breaks a run: hex ids and UUIDs would match too often.
 */
export function holdsCardNumber(value: string, now: Date): boolean {
  const text = value.normalize("NFKC");
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    const groups = [...run.matchAll(DIGIT_GROUP)].map(([g]) => g);
    if (segments(groups, now).some((segment) => spansCardLength(segment.map((g) => [...g].length)))) return true;
  }
  for (const [run] of text.matchAll(LOOKALIKE_RUN)) {
    const asSeparators = [...run.matchAll(DIGIT_GROUP)].map(([g]) => asciiDigits(g));
    const asDigits = [...run.replace(/[oO]/g, "0").replace(/[lI]/g, "1").matchAll(DIGIT_GROUP)].map(([g]) => asciiDigits(g));
    if ([asSeparators, asDigits].some((groups) => segments(groups, now).some(startsBrandCard))) return true;
  }
  return false;
}

/** PostgreSQL text and jsonb cannot hold U+0000 or a lone surrogate: such a value is dropped, not stored. */
const UNSTORABLE = /\u0000|\p{Cs}/u;

function personalValue(raw: string, now: Date): boolean {
  if (UNSTORABLE.test(raw)) return true;
  // Card data never rides along in attribution, whatever the parameter is called.
  if (holdsCardNumber(raw, now)) return true;
  const value = raw.normalize("NFKC");
  if (EMAIL.test(value)) return true;
  const s = value.trim();
  if (!DIGITISH.test(s)) return false;
  const digits = s.replace(/\D/g, "").length;
  if (digits < 8 || digits > 15) return false;
  // Formatted like a phone, a document or a date ("(11) 98765-4321", "529.982.247-25"): personal.
  if (/\D/.test(s)) return true;
  // Bare digits only when they are a real CPF, CNPJ or Brazilian phone: ad and campaign ids are bare digits too.
  return normalizeTaxDocument(s) !== null || isValidPhoneNumber(s, "BR");
}

/** A parameter to leave out: personal by its name or its value, or a card number in either. */
function personal(rawKey: string, value: string, now: Date): boolean {
  if (UNSTORABLE.test(rawKey)) return true;
  const key = rawKey.normalize("NFKC");
  const k = key.toLowerCase();
  return CUSTOMER_FIELDS.has(k) || k.startsWith("card_") || personalName(key) || holdsCardNumber(key, now) || personalValue(value, now);
}

function clean(value: string | undefined, max = MAX_VALUE): string | null {
  const v = value?.trim();
  return v ? v.slice(0, max) : null;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * An http(s) URL without personal-data parameters, credentials or fragment; null when not a URL, or
 * when a card number sits outside its parameters (host, path).
 */
function withoutPersonalData(raw: string | undefined, now: Date): string | null {
  const value = clean(raw, MAX_URL);
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.username = "";
  url.password = "";
  url.hash = "";
  for (const key of new Set(url.searchParams.keys())) {
    if (url.searchParams.getAll(key).some((v) => personal(key, v, now))) url.searchParams.delete(key);
  }
  const kept = url.toString().slice(0, MAX_URL);
  return holdsCardNumber(decoded(kept), now) ? null : kept;
}

function build(values: Record<string, string>, referrer: string | null, landingUrl: string | null, capturedAt: Date): Tracking | null {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (Object.keys(params).length >= MAX_PARAMS) break;
    if (key.length > MAX_KEY || NOT_PARAMS.has(key) || (FIELDS as readonly string[]).includes(key) || personal(key, value, capturedAt)) continue;
    params[key] = value.trim().slice(0, MAX_VALUE);
  }
  const field = (k: (typeof FIELDS)[number]) => {
    const v = clean(values[k]);
    return v && !personalValue(v, capturedAt) ? v : null;
  };
  const tracking: Tracking = {
    utm_source: field("utm_source"),
    utm_medium: field("utm_medium"),
    utm_campaign: field("utm_campaign"),
    utm_term: field("utm_term"),
    utm_content: field("utm_content"),
    gclid: field("gclid"),
    fbclid: field("fbclid"),
    fbc: field("fbc"),
    fbp: field("fbp"),
    referrer: withoutPersonalData(referrer ?? undefined, capturedAt),
    landing_url: withoutPersonalData(landingUrl ?? undefined, capturedAt),
    params,
    captured_at: capturedAt.toISOString(),
    inherited: false,
  };
  // landing_url alone is no context: every checkout has one.
  const context = FIELDS.some((k) => tracking[k] !== null) || tracking.referrer !== null || Object.keys(params).length > 0;
  return context ? tracking : null;
}

/** GET /checkout/{offer_id}: the link's query, the Referer header and the full URL. Null without context. */
export function captureTracking(input: { query: Record<string, string>; referer: string | null; url: string; now: Date }): Tracking | null {
  return build(input.query, input.referer, input.url, input.now);
}

/** What the page carries through the POST: only keys trackingFromForm reads back. */
export function trackingHiddenFields(tracking: Tracking | null): Record<string, string> {
  if (!tracking) return {};
  const fields: Record<string, string> = { ...tracking.params };
  for (const k of FIELDS) if (tracking[k] !== null) fields[k] = tracking[k];
  if (tracking.referrer) fields.referrer = tracking.referrer;
  if (tracking.landing_url) fields.landing_url = tracking.landing_url;
  fields.captured_at = tracking.captured_at;
  return fields;
}

/**
 * POST /checkout/{offer_id}: rebuilds the GET's object from the hidden fields. A POST with no page
 * before it (JSON clients) gets its tracking from its own body fields and its Referer header.
 */
export function trackingFromForm(body: Record<string, unknown>, referer: string | null, now: Date): Tracking | null {
  const values: Record<string, string> = {};
  for (const [key, v] of Object.entries(body)) {
    if (typeof v === "string") values[key] = v;
    else if (typeof v === "number" || typeof v === "boolean") values[key] = String(v);
  }
  const carried = values.captured_at ? new Date(values.captured_at) : null;
  // A carried instant is the client's word: kept only when it is a real instant, not in the future.
  const capturedAt = carried && !Number.isNaN(carried.getTime()) && carried <= now ? carried : now;
  return build(values, values.referrer ?? referer, values.landing_url ?? null, capturedAt);
}
