// The seller's identity a tenant shows on its hosted pages (Decreto 7.962/2013 asks an online seller for
// its name, CNPJ, address and contact). Pure: checked and normalized here, stored by update-tenant-profile.
import { cnpj } from "cpf-cnpj-validator";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { isCleanAddress } from "../emails/email.rules.ts";

export interface TenantProfile {
  legalName: string | null;
  cnpj: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  address: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
}

export type ProfileCheck = { ok: true; value: TenantProfile } | { ok: false; error: string };

const PHONE_CHARS = /^[\d\s().+-]{8,30}$/;

/** 14 digits whose check digits hold, or null. Letters are refused, not stripped. */
export function normalizeCnpj(input: string): string | null {
  const value = input.trim();
  if (!/^[\d\s./-]+$/.test(value)) return null;
  const digits = value.replace(/\D/g, "");
  return digits.length === 14 && cnpj.isValid(digits) ? digits : null;
}

/** 00.000.000/0000-00, as receipts and invoices print it. */
export function formatCnpj(digits: string): string {
  return digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, "$1.$2.$3/$4-$5");
}

/** A Brazilian number (landline or mobile) in E.164, or null. */
function normalizePhone(input: string): string | null {
  const value = input.trim();
  if (!PHONE_CHARS.test(value)) return null;
  const phone = parsePhoneNumberFromString(value, "BR");
  return phone?.isValid() ? phone.number : null;
}

/** A LIVE shopper follows these links: https only there; a sandbox may point at http://localhost. */
function checkUrl(input: string, live: boolean): string | null {
  try {
    const url = new URL(input.trim());
    if (url.protocol === "https:" || (!live && url.protocol === "http:")) return url.toString();
  } catch {
    /* not a URL */
  }
  return null;
}

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === "";

/** Every field optional; an empty string clears it. A field that is set but wrong refuses the whole input. */
export function checkTenantProfile(input: Partial<Record<keyof TenantProfile, string | null>>, live: boolean): ProfileCheck {
  const text = (v: string | null | undefined, max: number, name: string): string | null | { error: string } => {
    if (blank(v)) return null;
    const t = v!.trim().replace(/\s+/g, " ");
    return t.length > max ? { error: `${name} is longer than ${max} characters` } : t;
  };
  const out: TenantProfile = { legalName: null, cnpj: null, supportEmail: null, supportPhone: null, address: null, termsUrl: null, privacyUrl: null };
  const legalName = text(input.legalName, 200, "legalName");
  if (typeof legalName === "object" && legalName) return { ok: false, error: legalName.error };
  out.legalName = legalName;
  const address = text(input.address, 300, "address");
  if (typeof address === "object" && address) return { ok: false, error: address.error };
  out.address = address;
  if (!blank(input.cnpj)) {
    out.cnpj = normalizeCnpj(input.cnpj!);
    if (!out.cnpj) return { ok: false, error: "cnpj is not a valid CNPJ" };
  }
  if (!blank(input.supportEmail)) {
    const e = input.supportEmail!.trim().toLowerCase();
    if (e.length > 254 || !isCleanAddress(e) || !/^[^@\s]+@[^@\s]+\.[^@.\s]+$/.test(e)) return { ok: false, error: "supportEmail is not an e-mail address" };
    out.supportEmail = e;
  }
  if (!blank(input.supportPhone)) {
    out.supportPhone = normalizePhone(input.supportPhone!);
    if (!out.supportPhone) return { ok: false, error: "supportPhone is not a Brazilian phone number" };
  }
  for (const key of ["termsUrl", "privacyUrl"] as const) {
    if (blank(input[key])) continue;
    const url = checkUrl(input[key]!, live);
    if (!url || url.length > 500) return { ok: false, error: `${key} must be ${live ? "an https" : "an http(s)"} URL` };
    out[key] = url;
  }
  return { ok: true, value: out };
}

/** A LIVE tenant sells only once the shopper can see who sells: legal name and CNPJ. */
export function canSellLive(profile: { legalName: string | null; cnpj: string | null }): boolean {
  return !!profile.legalName && !!profile.cnpj;
}
