// Money and dates as the pt-BR pages show them: the same formatters as the e-mails
// (core/shared/format-money.ts), so a page and its receipt never print an amount two ways.
import { formatDateTime, formatDay, formatMoney } from "../../core/shared/format-money.ts";

export { formatDateTime, formatDay };

/** Integer cents to "R$ 1.234,56" (Intl.NumberFormat pt-BR, currency style). */
export const formatPrice = (cents: number, currency: string): string => formatMoney(cents, currency);
