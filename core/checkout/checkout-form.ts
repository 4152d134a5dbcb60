// The hosted checkout's form (service-contract §3, fixed field names) -> CheckoutFields.
// Fields are checked in form order and the first refusal names its field with a pt-BR message.
// Messages are constants: a card number or CVC is never interpolated into one.
// An expired card is reported on card_exp_year: the check needs both parts, and the year comes second.
import valid from "card-validator";
import { z } from "zod";
import type { CardInput } from "../gateways/adapter.ts";
import { normalizeMobile } from "../customers/phone.ts";
import { normalizeTaxDocument } from "../customers/tax-document.ts";
import type { CheckoutFields } from "./checkout-input.ts";

export type CheckoutFormResult = { ok: true; value: CheckoutFields } | { ok: false; field: string; error: string };

type Method = "card" | "pix";

class Refusal {
  constructor(
    readonly field: string,
    readonly error: string,
  ) {}
}

/** NUL cannot be stored in a PostgreSQL text column, and a lone surrogate is no text at all (it was a 500). */
const UNSTORABLE = /\u0000|\p{Cs}/u;

/** Text as typed: numbers count as text (JSON clients), "" and null as absent; arrays and objects are refused. */
const text = (invalid: string) =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v === null ? undefined : v),
    z
      .string({ invalid_type_error: invalid })
      .trim()
      .refine((s) => !UNSTORABLE.test(s), invalid)
      .optional()
      .transform((s) => (s ? s : undefined)),
  );

/** A conversion that answers null when the value is refused. Fatal: later checks never see a refused value. */
const convert =
  <I, T>(fn: (s: I) => T | null, message: string) =>
  (s: I, ctx: z.RefinementCtx): T => {
    const v = fn(s);
    if (v === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message, fatal: true });
      return z.NEVER;
    }
    return v;
  };

/** A check that keeps the value as it is. */
const must = <T>(ok: (v: T) => boolean, message: string) => convert((v: T) => (ok(v) ? v : null), message);

const required = (missing: string, invalid: string) => text(invalid).transform(convert((s: string | undefined) => s ?? null, missing));

const optional = (max: number, invalid: string) =>
  text(invalid)
    .transform(must((s: string | undefined) => s === undefined || s.length <= max, invalid))
    .transform((s) => s ?? null);

const externalId = optional(200, "external_id inválido (até 200 caracteres)");
const name = required("informe seu nome", "nome inválido")
  .transform(must((s: string) => s.length >= 2, "informe seu nome completo"))
  .transform(must((s: string) => s.length <= 200, "nome muito longo (até 200 caracteres)"));
const email = required("informe seu e-mail", "e-mail inválido").pipe(z.string().toLowerCase().email("e-mail inválido").max(254, "e-mail inválido"));
const phone = required("informe um celular válido", "informe um celular válido").transform(convert(normalizeMobile, "informe um celular válido"));
const doc = required("informe seu CPF ou CNPJ", "CPF ou CNPJ inválido").transform(convert(normalizeTaxDocument, "CPF ou CNPJ inválido"));
const coupon = optional(100, "cupom inválido");
const ref = optional(100, "código de indicação inválido");
/** Units of a one-time offer: a whole number from 1 to 99, 1 when absent. */
export const MAX_QUANTITY = 99;
const quantity = text("quantidade inválida (de 1 a 99)").transform(
  convert((s: string | undefined) => (s === undefined ? 1 : /^\d{1,2}$/.test(s) && Number(s) >= 1 ? Number(s) : null), "quantidade inválida (de 1 a 99)"),
);

const methodOf = (offered: Method[]) =>
  required("escolha a forma de pagamento", "forma de pagamento indisponível nesta oferta").transform(
    convert((s: string) => offered.find((m) => m === s) ?? null, "forma de pagamento indisponível nesta oferta"),
  );

const holder = required("informe o nome impresso no cartão", "nome do titular inválido").transform(
  must((s: string) => s.length <= 100, "nome do titular inválido"),
);
const cardNumber = required("informe o número do cartão", "número de cartão inválido").transform(
  convert((s: string) => {
    if (!/^[\d -]+$/.test(s)) return null;
    const digits = s.replace(/\D/g, "");
    const check = valid.number(digits);
    return digits.length >= 12 && digits.length <= 19 && check.isValid ? { digits, amex: check.card?.type === "american-express" } : null;
  }, "número de cartão inválido"),
);
const expMonth = required("informe o mês de validade", "mês de validade inválido").transform(
  convert((s: string) => (/^\d{1,2}$/.test(s) && Number(s) >= 1 && Number(s) <= 12 ? Number(s) : null), "mês de validade inválido"),
);
const expYear = (now: Date) =>
  required("informe o ano de validade", "ano de validade inválido").transform(
    convert((s: string) => {
      if (!/^(\d{2}|\d{4})$/.test(s)) return null;
      const year = s.length === 2 ? 2000 + Number(s) : Number(s);
      // No card is issued for more than 20 years: a larger year is a typo, not a far expiry.
      return year >= 2000 && year <= now.getUTCFullYear() + 20 ? year : null;
    }, "ano de validade inválido"),
  );
const cvc = required("informe o código de segurança", "código de segurança inválido");

function take<T>(body: Record<string, unknown>, field: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T {
  const r = schema.safeParse(Object.hasOwn(body, field) ? body[field] : undefined);
  if (!r.success) throw new Refusal(field, r.error.issues[0]?.message ?? "valor inválido");
  return r.data;
}

/** Card fields count only when the method is card; for Pix they are ignored, whatever they hold. */
function readCard(body: Record<string, unknown>, now: Date): CardInput {
  const cardHolder = take(body, "card_holder", holder);
  const number = take(body, "card_number", cardNumber);
  const month = take(body, "card_exp_month", expMonth);
  const year = take(body, "card_exp_year", expYear(now));
  // A card is valid through the last day of its expiry month (UTC).
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw new Refusal("card_exp_year", "cartão vencido");
  const code = take(body, "card_cvc", cvc);
  if (!(number.amex ? /^\d{4}$/ : /^\d{3}$/).test(code)) throw new Refusal("card_cvc", "código de segurança inválido");
  return { holder: cardHolder, number: number.digits, expMonth: month, expYear: year, cvc: code };
}

/** The card fields alone (hosted /pay pages): the same checks and messages as the checkout. */
export function parseCardForm(body: Record<string, unknown>, now: Date): { ok: true; card: CardInput } | { ok: false; field: string; error: string } {
  try {
    return { ok: true, card: readCard(body, now) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, field: e.field, error: e.error };
    throw e;
  }
}

/** The provider's browser token (Stripe.js: a pm_ id) by its pattern; anything else (a card number above all) is refused. */
const browserToken = (pattern: RegExp) =>
  required("informe os dados do cartão", "cartão inválido").transform(must((s: string) => pattern.test(s), "cartão inválido"));

/** The 3-D Secure handle the page's script posts back after the challenge (opaque; the adapter checks it with the provider). */
const authenticationHandle = text("cartão inválido")
  .transform(must((s: string | undefined) => s === undefined || /^[A-Za-z0-9_]{1,500}$/.test(s), "cartão inválido"))
  .transform((s) => s ?? null);

/** The hidden field a provider's browser script posts (web/browser-tokenizers), and its pattern. */
export interface BrowserTokenSpec {
  name: string;
  pattern: RegExp;
}
export const CARD_DATA_NOT_ACCEPTED = "os dados do cartão não podem ser enviados a este formulário; digite-os no campo seguro do cartão";

/**
 * PCI SAQ A: for an offer at a real gateway the card is typed into the provider's own field (Stripe.js)
 * and only its payment method id is posted. A posted card field (number, expiry, CVC) is refused before
 * anything is read or stored, whatever the method; card_holder is a name and may come along.
 */
function refuseCardData(body: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(body)) {
    if (k.startsWith("card_") && k !== "card_holder" && v !== undefined && v !== null && v !== "") throw new Refusal("card_number", CARD_DATA_NOT_ACCEPTED);
  }
}

/** refuseCardData for callers outside this file: the refused field and text, or null. */
export function postedCardData(body: Record<string, unknown>): { field: string; error: string } | null {
  try {
    refuseCardData(body);
    return null;
  } catch (e) {
    if (e instanceof Refusal) return { field: e.field, error: e.error };
    throw e;
  }
}

/**
 * `withQuantity`: a one-time offer, whose form carries `quantity`; a subscription ignores the field.
 * `browserToken`: the offer's gateway tokenizes in the browser: its token field instead of card fields.
 */
export function parseCheckoutForm(
  body: Record<string, unknown>,
  opts: { now: Date; methods: Method[]; withQuantity?: boolean; browserToken?: BrowserTokenSpec | null },
): CheckoutFormResult {
  try {
    if (opts.browserToken) refuseCardData(body);
    const value: CheckoutFields = {
      externalId: take(body, "external_id", externalId),
      name: take(body, "name", name),
      email: take(body, "email", email),
      phone: take(body, "phone", phone),
      doc: take(body, "doc", doc),
      method: take(body, "method", methodOf(opts.methods)),
      card: null,
      coupon: null,
      ref: null,
      quantity: 1,
    };
    if (opts.withQuantity) value.quantity = take(body, "quantity", quantity);
    if (value.method === "card" && opts.browserToken) {
      value.paymentMethodId = take(body, opts.browserToken.name, browserToken(opts.browserToken.pattern));
      value.authenticationId = take(body, "authentication_id", authenticationHandle);
    }
    else if (value.method === "card") value.card = readCard(body, opts.now);
    value.coupon = take(body, "coupon", coupon);
    value.ref = take(body, "ref", ref);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, field: e.field, error: e.error };
    throw e;
  }
}
