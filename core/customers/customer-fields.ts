// The editable fields of a customer (name, e-mail, mobile), each checked and normalized, or refused
// with its catalogue key. Pure: no database. `doc` and `external_id` are not editable at all.
import { z } from "zod";
import { AppError } from "../shared/errors.ts";
import { normalizeMobile } from "./phone.ts";

const emailSchema = z.string().trim().toLowerCase().email().max(254);
/** Same bounds as the checkout's name; control characters (NUL…) would not even reach PostgreSQL. */
const NAME_MIN = 2;
const NAME_MAX = 200;
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseCustomerEmail(input: unknown): string {
  const parsed = emailSchema.safeParse(input);
  if (!parsed.success) throw new AppError("invalid_email");
  return parsed.data;
}

export function parseCustomerName(input: unknown): string {
  const name = typeof input === "string" ? input.trim() : "";
  const length = Array.from(name).length;
  if (length < NAME_MIN || length > NAME_MAX || CONTROL.test(name)) throw new AppError("invalid_name");
  return name;
}

/** An E.164 mobile; a Brazilian number typed without "+" becomes +55… Landlines, short and long numbers are refused. */
export function parseCustomerPhone(input: unknown): string {
  const phone = typeof input === "string" ? normalizeMobile(input) : null;
  if (!phone) throw new AppError("invalid_phone");
  return phone;
}

/** The stored phone as a valid E.164 mobile, or null (old customers: none, or one that is not a mobile). */
export function storedMobile(phone: string | null): string | null {
  return phone ? normalizeMobile(phone) : null;
}
