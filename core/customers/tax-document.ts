// The checkout's `doc`: a CPF (11 digits) or CNPJ (14 digits), accepted only when its check digits hold.
import { cnpj, cpf } from "cpf-cnpj-validator";

/** Digits and the usual punctuation only: letters are refused, not stripped (no alphanumeric CNPJ yet). */
const DOC_CHARS = /^[\d\s./-]+$/;

export function normalizeTaxDocument(input: string): string | null {
  const value = input.trim();
  if (!DOC_CHARS.test(value)) return null;
  const digits = value.replace(/\D/g, "");
  if (digits.length === 11) return cpf.isValid(digits) ? digits : null;
  if (digits.length === 14) return cnpj.isValid(digits) ? digits : null;
  return null;
}
