// Pure calendar maths of the recurrence (UTC). Month arithmetic keeps the anchor day:
// Jan 31 -> Feb 28 (29 in leap years) -> Mar 31. Days in dunning are 24 h days.

export type Interval = "MONTH" | "YEAR";

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** `from` moved by `months`, landing on `anchorDay` or the month's last day when shorter; time of day kept. */
export function addMonthsKeepingAnchor(from: Date, months: number, anchorDay: number): Date {
  const total = from.getUTCFullYear() * 12 + from.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const day = Math.min(anchorDay, daysInMonth(year, month0));
  return new Date(
    Date.UTC(year, month0, day, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()),
  );
}

/** End of the cycle starting at `start` (the next renewal instant). */
export function periodEnd(start: Date, interval: Interval, anchorDay: number): Date {
  return addMonthsKeepingAnchor(start, interval === "YEAR" ? 12 : 1, anchorDay);
}

/** Retry schedule of an unpaid charge: due instant plus 1, 3, 5 and 9 days. Suspension follows a failed D+9. */
export const RETRY_DAYS = [1, 3, 5, 9] as const;

export function retryInstants(due: Date): Date[] {
  return RETRY_DAYS.map((d) => new Date(due.getTime() + d * DAY_MS));
}

/** The retry after `attemptsMade` failed attempts (the first attempt is at the due instant), or null when exhausted. */
export function nextRetryAt(due: Date, attemptsMade: number): Date | null {
  const days = RETRY_DAYS[attemptsMade - 1];
  return days === undefined ? null : new Date(due.getTime() + days * DAY_MS);
}

/** Pix QRs for a renewal are issued from 3 days before the due instant. */
export const PIX_ISSUE_LEAD_DAYS = 3;

export function pixIssueAt(due: Date): Date {
  return new Date(due.getTime() - PIX_ISSUE_LEAD_DAYS * DAY_MS);
}

/** End of a trial of `days` days started at `start`. */
export function trialEnd(start: Date, days: number): Date {
  return new Date(start.getTime() + days * DAY_MS);
}

/** `to` plus `cycles` days, months or years (a campaign's bonus); months and years keep the anchor day. */
export function addCycles(to: Date, cycles: number, unit: string, anchorDay: number): Date {
  if (cycles <= 0) return to;
  if (unit === "day") return new Date(to.getTime() + cycles * 86_400_000);
  return addMonthsKeepingAnchor(to, unit === "year" ? 12 * cycles : cycles, anchorDay);
}

/**
 * Where a period ending at `from` ends once renewed ahead by `cycles` cycles and a campaign's `bonus`:
 * what a paid renewal order does (apply-order-paid.ts) and what the /pay page announces before it.
 */
export function renewedPeriodEnd(from: Date, interval: Interval, anchorDay: number, cycles: number, bonus: { cycles: number; unit: string } | null): Date {
  let to = from;
  for (let i = 0; i < Math.max(1, cycles); i++) to = periodEnd(to, interval, anchorDay);
  return bonus ? addCycles(to, bonus.cycles, bonus.unit, anchorDay) : to;
}
