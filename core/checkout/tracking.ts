// The contract's `tracking` object (billing-api.md; service-contract §3): attribution of a checkout link.
// It never holds personal data, the client IP or the user agent. The page captures it on GET and
// carries it through the POST as hidden fields, so the POST rebuilds the very same object.
import { isValidPhoneNumber } from "libphonenumber-js/max";
import { normalizeTaxDocument } from "../customers/tax-document.ts";
import type { Tracking } from "./checkout-input.ts";

const FIELDS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "fbclid", "fbc", "fbp"] as const;

/** The checkout's customer fields: personal data, so they leave landing_url and referrer too. */
const CUSTOMER_FIELDS = new Set(["external_id", "email", "name", "phone", "doc", "cpf", "cnpj"]);
/** The checkout's other fields and the tracking object's own keys: never a link parameter. */
const NOT_PARAMS = new Set(["method", "coupon", "ref", "referrer", "landing_url", "captured_at", "inherited", "params", "__proto__"]);

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

/** A run of 13 to 19 digits (spaces or dashes between them allowed) that passes Luhn with a card's first digit (2-6). */
export function holdsCardNumber(value: string): boolean {
  for (const m of value.matchAll(/(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g)) {
    const digits = m[0].replace(/\D/g, "");
    if (!/^[2-6]/.test(digits)) continue;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    if (sum % 10 === 0) return true;
  }
  return false;
}

function personalValue(value: string): boolean {
  if (EMAIL.test(value)) return true;
  // Card data never rides along in attribution, whatever the parameter is called.
  if (holdsCardNumber(value)) return true;
  const s = value.trim();
  if (!DIGITISH.test(s)) return false;
  const digits = s.replace(/\D/g, "").length;
  if (digits < 8 || digits > 15) return false;
  // Formatted like a phone, a document or a date ("(11) 98765-4321", "529.982.247-25"): personal.
  if (/\D/.test(s)) return true;
  // Bare digits only when they are a real CPF, CNPJ or Brazilian phone: ad and campaign ids are bare digits too.
  return normalizeTaxDocument(s) !== null || isValidPhoneNumber(s, "BR");
}

function personal(key: string, value: string): boolean {
  return CUSTOMER_FIELDS.has(key.toLowerCase()) || key.toLowerCase().startsWith("card_") || personalName(key) || personalValue(value);
}

function clean(value: string | undefined, max = MAX_VALUE): string | null {
  const v = value?.trim();
  return v ? v.slice(0, max) : null;
}

/** An http(s) URL without personal-data parameters, credentials or fragment; null when not a URL. */
function withoutPersonalData(raw: string | undefined): string | null {
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
    if (url.searchParams.getAll(key).some((v) => personal(key, v))) url.searchParams.delete(key);
  }
  return url.toString().slice(0, MAX_URL);
}

function build(values: Record<string, string>, referrer: string | null, landingUrl: string | null, capturedAt: Date): Tracking | null {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (Object.keys(params).length >= MAX_PARAMS) break;
    if (key.length > MAX_KEY || NOT_PARAMS.has(key) || (FIELDS as readonly string[]).includes(key) || personal(key, value)) continue;
    params[key] = value.trim().slice(0, MAX_VALUE);
  }
  const field = (k: (typeof FIELDS)[number]) => {
    const v = clean(values[k]);
    return v && !personalValue(v) ? v : null;
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
    referrer: withoutPersonalData(referrer ?? undefined),
    landing_url: withoutPersonalData(landingUrl ?? undefined),
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
