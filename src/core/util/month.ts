/**
 * Calendar arithmetic of the plans: a gateway plan counts requests per UTC calendar month, so the quota
 * lock, the request ledger and the background pace all ask the same questions of a moment (which month,
 * when the next one starts, how many days it has). Answered once, here.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The UTC month of `time`, as 'YYYY-MM'. */
export function monthOf(time: number): string {
  const d = new Date(time);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The first moment of the UTC month of `time` (ms). */
export function startOfUtcMonth(time: number): number {
  const d = new Date(time);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The first moment of the UTC month after the one of `time` (ms): when a monthly quota renews. */
export function startOfNextUtcMonth(time: number): number {
  const d = new Date(time);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The first moment of the UTC month after the one named `month` ('YYYY-MM'). */
export function endOfMonthNamed(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return Date.UTC(y, m, 1);
}

/** Milliseconds from `now` to the start of the next UTC calendar month. */
export function msUntilNextUtcMonth(now: number): number {
  return startOfNextUtcMonth(now) - now;
}

/** Days in the UTC month of `time`. */
export function daysInMonthOf(time: number): number {
  const d = new Date(time);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
}
