// The contract's schedule: a first attempt at once, then retries 1 min, 5 min, 30 min, 2 h, 6 h and
// 24 h after the previous attempt; 7 attempts in all, then the delivery is exhausted.
const MIN = 60_000;
export const RETRY_DELAYS_MS = [1 * MIN, 5 * MIN, 30 * MIN, 120 * MIN, 360 * MIN, 1440 * MIN] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** After the n-th failed attempt of a series (1-based): when to try again, or null when exhausted. */
export function nextAttemptAt(failedAttemptsInSeries: number, previousAttemptAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[failedAttemptsInSeries - 1];
  return delay === undefined ? null : new Date(previousAttemptAt.getTime() + delay);
}
