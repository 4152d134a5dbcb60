// Money and dates as pt-BR readers see them (pages and e-mails share these).

const MONEY = new Map<string, Intl.NumberFormat>();

/**
 * Integer cents to "R$ 1.234,56" with Intl.NumberFormat. The amount reaches Intl as an exact decimal
 * string built from the integer, so no floating point touches money.
 */
export function formatMoney(cents: number, currency = "BRL"): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`amount in cents must be an integer, got ${cents}`);
  const code = currency.toUpperCase();
  let format = MONEY.get(code);
  if (!format) MONEY.set(code, (format = new Intl.NumberFormat("pt-BR", { style: "currency", currency: code })));
  const digits = String(Math.abs(cents)).padStart(3, "0");
  const decimal = `${cents < 0 ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
  // Node's Intl takes a decimal string exactly (Intl.NumberFormat v3); the type lags behind.
  return format.format(decimal as unknown as number);
}

// Dates in Brasília time: the readers are in Brazil.
const WHEN = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone: "America/Sao_Paulo" });
const DAY = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeZone: "America/Sao_Paulo" });
const SHORT_DAY = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeZone: "America/Sao_Paulo" });

/** "01/03/2026, 12:00" */
export function formatDateTime(at: Date | string): string {
  return WHEN.format(new Date(at));
}

/** "2 de maio de 2026" */
export function formatDay(at: Date | string): string {
  return DAY.format(new Date(at));
}

/** "02/05/2026" */
export function formatShortDay(at: Date | string): string {
  return SHORT_DAY.format(new Date(at));
}
