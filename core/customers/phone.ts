// The checkout's mobile number: E.164, a Brazilian number typed without "+" becomes +55… (service-contract §3).
// The `max` metadata is needed: only it knows whether a number is a mobile or a landline.
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/** Only phone characters: libphonenumber would otherwise fish a number out of free text. */
const PHONE_CHARS = /^[\d\s().+-]{8,30}$/;

export function normalizeMobile(input: string): string | null {
  const value = input.trim();
  if (!PHONE_CHARS.test(value)) return null;
  const phone = parsePhoneNumberFromString(value, "BR");
  if (!phone?.isValid()) return null;
  // Some numbering plans (US, CA…) cannot tell a mobile from a landline: FIXED_LINE_OR_MOBILE is accepted.
  const type = phone.getType();
  return type === "MOBILE" || type === "FIXED_LINE_OR_MOBILE" ? phone.number : null;
}
