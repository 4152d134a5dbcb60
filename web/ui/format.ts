// Money and dates as the pt-BR pages show them.

/** Integer cents to "R$ 1.234,56" by string arithmetic: no floating point touches money. */
export function formatPrice(cents: number, currency: string): string {
  const digits = String(Math.abs(Math.trunc(cents))).padStart(3, "0");
  const units = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ".");
  const symbol = currency.toUpperCase() === "BRL" ? "R$" : currency.toUpperCase();
  return `${cents < 0 ? "-" : ""}${symbol} ${units},${digits.slice(-2)}`;
}

// Dates are shown in Brasília time: the pages are pt-BR and so are their readers.
const WHEN = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone: "America/Sao_Paulo" });
const DAY = new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeZone: "America/Sao_Paulo" });

/** "01/03/2026, 12:00" */
export function formatDateTime(at: Date): string {
  return WHEN.format(at);
}

/** "2 de maio de 2026" */
export function formatDay(at: Date): string {
  return DAY.format(at);
}
