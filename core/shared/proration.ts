// Pure maths of a plan change (service-contract §5): annualized comparison, proration by seconds
// remaining in the period (integer cents, rounded half up), and credit converted to time.
import { cents, type Cents } from "./money.ts";
import { periodEnd, type Interval } from "./periods.ts";

const SECOND_MS = 1000;

/** Price of a year of the offer: monthly × 12, yearly × 1. */
export function annualizedCents(priceCents: Cents, interval: Interval): Cents {
  return interval === "YEAR" ? priceCents : cents(priceCents * 12);
}

/**
 * `amount × part / whole`, rounded half up, for non-negative integers (cents, or seconds). In BigInt:
 * a yearly price times the seconds of a year passes 2^53, where a float product loses the remainder.
 */
export function roundHalfUp(amount: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  const w = BigInt(whole);
  return Number((2n * BigInt(amount) * BigInt(part) + w) / (2n * w));
}

/** Whole seconds of the period and whole seconds left at `now` (never negative, never more than the period). */
export function periodSeconds(start: Date, end: Date, now: Date): { total: number; remaining: number } {
  const total = Math.max(0, Math.floor((end.getTime() - start.getTime()) / SECOND_MS));
  const remaining = Math.min(total, Math.max(0, Math.floor((end.getTime() - now.getTime()) / SECOND_MS)));
  return { total, remaining };
}

/** Same interval: the price difference for the seconds left of the period. */
export function prorationCents(oldPriceCents: Cents, newPriceCents: Cents, start: Date, end: Date, now: Date): Cents {
  const { total, remaining } = periodSeconds(start, end, now);
  return cents(roundHalfUp(Math.max(0, newPriceCents - oldPriceCents), remaining, total));
}

/** The unused part of the current period, in cents. */
export function unusedCreditCents(priceCents: Cents, start: Date, end: Date, now: Date): Cents {
  const { total, remaining } = periodSeconds(start, end, now);
  return cents(roundHalfUp(priceCents, remaining, total));
}

/**
 * Credit converted to time at the new price: the new period starts at `now` and lasts the share of
 * one new cycle that the credit pays for (whole seconds, rounded half up).
 */
export function creditTimeEnd(creditCents: Cents, newPriceCents: Cents, newInterval: Interval, now: Date): Date {
  const cycleSeconds = Math.floor((periodEnd(now, newInterval, now.getUTCDate()).getTime() - now.getTime()) / SECOND_MS);
  const seconds = roundHalfUp(cycleSeconds, creditCents, newPriceCents);
  return new Date(now.getTime() + seconds * SECOND_MS);
}

export type PlanChangeKind = "upgrade" | "downgrade" | "crossgrade" | "interval_change" | "gateway_migration";

/** kind of the plan_change object: another gateway first, then another interval, then the price. */
export function planChangeKind(
  current: { priceCents: Cents; interval: Interval; gatewayAccountId: string },
  target: { priceCents: Cents; interval: Interval; gatewayAccountId: string },
): PlanChangeKind {
  if (current.gatewayAccountId !== target.gatewayAccountId) return "gateway_migration";
  if (current.interval !== target.interval) return "interval_change";
  if (target.priceCents > current.priceCents) return "upgrade";
  if (target.priceCents < current.priceCents) return "downgrade";
  return "crossgrade";
}

/** Whether the change may apply now (the annualized value rises, or ties within one interval); else it waits for the period end. */
export function risesOrSameIntervalTie(current: { priceCents: Cents; interval: Interval }, target: { priceCents: Cents; interval: Interval }): boolean {
  const a = annualizedCents(current.priceCents, current.interval);
  const b = annualizedCents(target.priceCents, target.interval);
  return b > a || (b === a && current.interval === target.interval);
}
