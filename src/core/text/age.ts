/**
 * How old a figure is, in the words every view uses ("3 min ago"), and when those words change, so a
 * view that shows an age can render again exactly then instead of on a fast timer.
 *
 * The background budget cannot keep every figure fresh (a contract on Free may be read every few
 * minutes), so what it shows says its age once it is older than {@link FRESH_MS}; under that, a figure
 * is as fresh as anything a person can act on and says nothing.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Younger than this, a figure counts as fresh: it shows no age. */
export const FRESH_MS = MINUTE;

/** "just now", "1 min ago", "3 min ago", "2 h ago", "3 d ago": whole units, rounded down. */
export function ageWords(at: number, now: number): string {
  const ms = Math.max(0, now - at);
  if (ms < MINUTE) return 'just now';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`;
  if (ms < 48 * HOUR) return `${Math.floor(ms / HOUR)} h ago`;
  return `${Math.floor(ms / DAY)} d ago`;
}

/** The moment `ageWords(at, ·)` next reads differently (always after `now`). */
export function ageChangesAt(at: number, now: number): number {
  const ms = Math.max(0, now - at);
  const unit = ms < HOUR ? MINUTE : ms < 48 * HOUR ? HOUR : DAY;
  return at + (Math.floor(ms / unit) + 1) * unit;
}

/** True when a figure read at `at` is old enough to say so. */
export function isStale(at: number, now: number): boolean {
  return now - at >= FRESH_MS;
}

/** ", as of 3 min ago" for a stale figure; "" for a fresh one (appended to what the figure says). */
export function asOfSuffix(at: number | undefined, now: number): string {
  return at !== undefined && isStale(at, now) ? `, as of ${ageWords(at, now)}` : '';
}

/**
 * When a view showing figures read at `times` must render again for their ages to stay right: the
 * earliest moment one of them turns stale or its words change. Undefined when none is shown.
 */
export function nextAgeChange(times: readonly (number | undefined)[], now: number): number | undefined {
  let next: number | undefined;
  for (const at of times) {
    if (at === undefined) continue;
    const change = isStale(at, now) ? ageChangesAt(at, now) : at + FRESH_MS;
    if (next === undefined || change < next) next = change;
  }
  return next;
}
