// Money is a branded integer number of cents paired with a lowercase currency. Never a float.

export type Cents = number & { readonly __brand: "cents" };

export function cents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new TypeError(`money must be integer cents, got ${value}`);
  return value as Cents;
}

export interface Money {
  amountCents: Cents;
  currency: string;
}

export function normalizeCurrency(currency: string): string {
  const c = currency.trim().toLowerCase();
  if (!/^[a-z]{3}$/.test(c)) throw new TypeError(`invalid currency ${currency}`);
  return c;
}
