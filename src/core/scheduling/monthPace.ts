/**
 * How fast background work may spend while the person works.
 *
 * A plan's monthly share spread evenly over the month's 720 hours assumes VS Code runs around the
 * clock; a person who works 8 hours a day would then use a third of it while every contract waited a
 * minute or more. So the pace is what is left of this month's share over the working time expected to
 * be left:
 *
 *   rate = share left this month / expected full-speed time left this month
 *
 * - **Full-speed time** is what the background runs at its planned rate: focused time counts fully,
 *   unfocused time at 1/slowdown (polls are that much slower), paused or closed time not at all. So the
 *   rate × that time is what the month will cost.
 * - **Expected time left** = what today still holds (the learned time a day less today's so far) + the
 *   learned time a day × the days after today. A "day" is a 24-hour window from the start of this
 *   month's observation (the month's start, or the first observation after installing). The time a day
 *   is learned from this month's completed days, which are persisted (an {@link ActivityStore}: the glue
 *   keeps it in VS Code's globalState), blended with a prior worth {@link PRIOR_WEIGHT_DAYS} days:
 *   last month's figure, else {@link PRIOR_ACTIVE_HOURS_PER_DAY} hours a day. Counting only completed
 *   days keeps a working day from looking like a whole day of work while it is under way.
 * - **Self-correcting.** Whoever works longer than expected spends more, so the share left shrinks and
 *   the rate with it: the share is approached, never passed (the scheduler also refuses any start the
 *   share left cannot pay for).
 * - **A sanity cap per hour**, {@link CAP_MONTH_HOURS}: however wrong an early estimate, an hour never
 *   spends more than the month's share / 120, so the month cannot go in a day (at least 5 days of
 *   around-the-clock work).
 * - Time between two observations longer than {@link MAX_ACCRUAL_GAP_MS} counts only up to it: the
 *   machine slept, or the window was gone.
 */
import {
  DAY_MS,
  HOUR_MS,
  endOfMonthNamed,
  monthOf as monthKey,
  msUntilNextUtcMonth,
  startOfNextUtcMonth,
  startOfUtcMonth,
} from '../util/month';

/** The prior before this month has history (and there is no last month's figure). */
export const PRIOR_ACTIVE_HOURS_PER_DAY = 8;
/** How many days of observation the prior is worth. */
export const PRIOR_WEIGHT_DAYS = 2;
/** The per-hour cap: the month's share over this many hours. */
export const CAP_MONTH_HOURS = 120;
/** Observations further apart than this count only this much (sleep, a window closed in between). */
export const MAX_ACCRUAL_GAP_MS = 10 * 60_000;
/** The shortest horizon a rate is computed over, so the month's last minutes do not divide by ~0. */
const MIN_HORIZON_MS = HOUR_MS;

/** What is persisted: this month's activity and spending (UTC months, as the plans count). */
export interface ActivityRecord {
  /** 'YYYY-MM' (UTC). */
  readonly month: string;
  /** When this month's observation began (ms): day windows are 24 hours from here. */
  readonly since: number;
  /** Full-speed time observed this month (ms). */
  readonly activeMs: number;
  /** The day window `todayMs` belongs to (0: the first). */
  readonly day: number;
  /** Full-speed time observed in that day window (ms); the rest of `activeMs` is completed days. */
  readonly todayMs: number;
  /** Background requests charged this month. */
  readonly spent: number;
  /** Last month's learned full-speed time per day (ms), the prior for this one. */
  readonly priorDayMs?: number;
}

/** Persistent storage for the activity record (the glue puts it in VS Code's globalState). */
export interface ActivityStore {
  get(): unknown;
  set(record: ActivityRecord): void | PromiseLike<void>;
}

export interface PaceLimits {
  /** The month's share in requests (limit × share). */
  readonly monthlyShare: number;
  /**
   * The share of what is left of the key's whole quota (user actions included), when the client knows
   * the month's usage: heavy manual use leaves the background less.
   */
  readonly quotaShareLeft?: number;
}

export { monthKey, msUntilNextUtcMonth };

/** A stored record, or undefined when it is not one (the store is ours, but never trusted blindly). */
function parseRecord(value: unknown): ActivityRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  if (typeof r.month !== 'string' || !/^\d{4}-\d{2}$/.test(r.month)) return undefined;
  if (!finite(r.since) || !finite(r.activeMs) || !finite(r.spent)) return undefined;
  const day = finite(r.day) && Number.isInteger(r.day) ? r.day : 0;
  const todayMs = finite(r.todayMs) ? Math.min(r.todayMs, r.activeMs) : 0;
  return {
    month: r.month,
    since: r.since,
    activeMs: r.activeMs,
    day,
    todayMs,
    spent: r.spent,
    ...(finite(r.priorDayMs) ? { priorDayMs: Math.min(DAY_MS, r.priorDayMs) } : {}),
  };
}

export class MonthPace {
  private record: ActivityRecord;
  private store: ActivityStore | undefined;
  /** Full-speed weight of the time since `accruedAt`: 1 focused, 1/slowdown unfocused, 0 paused. */
  private weight = 1;
  private accruedAt: number;
  private dirty = false;
  /** The record's month as [start, end) in ms (cheaper to compare than a month's name). */
  private monthStart = 0;
  private monthEnd = 0;

  constructor(now: number) {
    this.record = MonthPace.fresh(now, monthKey(now));
    this.accruedAt = now;
    this.setMonthBounds(now);
  }

  private setMonthBounds(now: number): void {
    this.monthStart = startOfUtcMonth(now);
    this.monthEnd = startOfNextUtcMonth(now);
  }

  private static fresh(since: number, month: string, priorDayMs?: number): ActivityRecord {
    return {
      month,
      since,
      activeMs: 0,
      day: 0,
      todayMs: 0,
      spent: 0,
      ...(priorDayMs !== undefined ? { priorDayMs } : {}),
    };
  }

  /**
   * Persists the record in `store` from now on. What the store holds for this month is the history; what
   * was observed in memory before (a few moments since the scheduler was built) is added to it.
   */
  useStore(store: ActivityStore, now: number): void {
    this.accrue(now);
    const stored = parseRecord(store.get());
    const mine = this.record;
    this.store = store;
    if (stored && stored.month === mine.month) {
      this.record = {
        ...stored,
        activeMs: stored.activeMs + mine.activeMs,
        todayMs: stored.todayMs + mine.activeMs,
        spent: stored.spent + mine.spent,
      };
    } else if (stored) {
      // Last month's record: what it taught is this month's prior; the month starts at its start.
      const start = endOfMonthNamed(stored.month);
      const prior = MonthPace.learnedPerDay(stored);
      this.record = {
        ...mine,
        since: start <= now && monthKey(start) === mine.month ? start : mine.since,
        ...(prior !== undefined ? { priorDayMs: prior } : {}),
      };
    }
    this.dirty = true;
    this.accrue(now);
    this.flush();
  }

  /** Full-speed weight from now on (see {@link MonthPace}); time so far is accrued at the old one. */
  setWeight(weight: number, now: number): void {
    this.accrue(now);
    this.weight = Math.min(1, Math.max(0, Number.isFinite(weight) ? weight : 0));
  }

  charge(requests: number, now: number): void {
    this.accrue(now);
    this.record = { ...this.record, spent: this.record.spent + requests };
    this.dirty = true;
  }

  /** Background requests charged this month (persisted ones included). */
  spent(now: number): number {
    this.accrue(now);
    return this.record.spent;
  }

  /**
   * The learned full-speed time per day (ms): this month's completed days blended with the prior (last
   * month's figure, else 8 hours).
   */
  activePerDayMs(now: number): number {
    this.accrue(now);
    const r = this.record;
    const prior = r.priorDayMs ?? PRIOR_ACTIVE_HOURS_PER_DAY * HOUR_MS;
    const completed = r.activeMs - r.todayMs;
    return Math.min(DAY_MS, (prior * PRIOR_WEIGHT_DAYS + completed) / (PRIOR_WEIGHT_DAYS + r.day));
  }

  /**
   * Full-speed time expected for the rest of this month (ms): what today still holds, then the learned
   * time a day for each day after it.
   */
  expectedActiveLeftMs(now: number): number {
    const perDay = this.activePerDayMs(now);
    const r = this.record;
    const monthEnd = this.monthEnd;
    const todayEnd = r.since + (r.day + 1) * DAY_MS;
    // Today may end after the month does (a day window that started late on the month's last day).
    const todayPart = Math.min(1, (monthEnd - now) / Math.max(1, todayEnd - now));
    const today = Math.max(0, perDay - r.todayMs) * todayPart;
    return today + (perDay * Math.max(0, monthEnd - todayEnd)) / DAY_MS;
  }

  /** Requests of the share still to spend this month. */
  shareLeft(now: number, limits: PaceLimits): number {
    const ofShare = limits.monthlyShare - this.spent(now);
    const ofQuota = limits.quotaShareLeft ?? Infinity;
    return Math.max(0, Math.min(ofShare, ofQuota));
  }

  /** The per-hour sanity cap, in requests per ms. */
  static capRate(monthlyShare: number): number {
    return monthlyShare / (CAP_MONTH_HOURS * HOUR_MS);
  }

  /**
   * Requests per ms at full speed: the share left over the full-speed time expected to be left, within
   * the per-hour cap. A scheduler that plans to spend only `utilisation` of the rate (keeping the rest
   * for bursts) asks for the rate whose `utilisation` is that, or the share's last tenth would only
   * ever be spent at the month's end.
   */
  rate(now: number, limits: PaceLimits, utilisation = 1): number {
    const horizon = Math.max(MIN_HORIZON_MS, this.expectedActiveLeftMs(now));
    const even = this.shareLeft(now, limits) / horizon / Math.min(1, Math.max(0.1, utilisation));
    return Math.min(even, MonthPace.capRate(limits.monthlyShare));
  }

  /** Writes the record if it changed since the last write. */
  flush(now?: number): void {
    if (now !== undefined) this.accrue(now);
    if (!this.store || !this.dirty) return;
    this.dirty = false;
    void Promise.resolve(this.store.set(this.record)).catch(() => undefined);
  }

  /** Adds the time since the last observation at the current weight; rolls over at a new month. */
  private accrue(now: number): void {
    // A clock set back before this month changes nothing (and never gives the month's spending back).
    if (now < this.monthStart) return;
    if (now >= this.monthEnd) {
      // A new month: its spending starts at 0, and what this one taught is next month's prior.
      this.setMonthBounds(now);
      this.record = MonthPace.fresh(this.monthStart, monthKey(now), MonthPace.learnedPerDay(this.record));
      this.accruedAt = now;
      this.dirty = true;
      return;
    }
    const gap = now - this.accruedAt;
    if (gap < 0) return;
    this.accruedAt = now;
    const day = Math.max(0, Math.floor((now - this.record.since) / DAY_MS));
    let r = this.record;
    if (day !== r.day) {
      r = { ...r, day, todayMs: 0 };
      this.dirty = true;
    }
    if (gap > 0 && this.weight > 0) {
      const add = this.weight * Math.min(gap, MAX_ACCRUAL_GAP_MS);
      r = { ...r, activeMs: r.activeMs + add, todayMs: r.todayMs + add };
      this.dirty = true;
    }
    this.record = r;
  }

  /** What a month's record learned per day, when it had a few completed days. */
  private static learnedPerDay(old: ActivityRecord): number | undefined {
    const days = Math.min(old.day, (endOfMonthNamed(old.month) - old.since) / DAY_MS);
    if (!(days >= PRIOR_WEIGHT_DAYS)) return old.priorDayMs;
    return Math.min(DAY_MS, (old.activeMs - old.todayMs) / Math.floor(days));
  }
}
