/**
 * The month-end forecast of the request ledger: from this month's days so far, how many requests the
 * month will end with, against the plan's monthly limit and against the background share. It says how
 * much history it stands on, and gives none before a whole day of it: a forecast from a few hours would
 * multiply a morning's burst by thirty.
 */
import {
  REQUEST_KINDS,
  daysInMonthOf,
  isBackgroundKind,
  type DayUsage,
  type MonthLedger,
} from '../gateway/usage';

/** From this many whole days of history on, the forecast is called steady rather than rough. */
export const STEADY_HISTORY_DAYS = 7;

/**
 * - `none`: less than one whole day of history this month: no forecast.
 * - `rough`: 1 to 6 whole days; weekdays and weekends may not both be in it yet.
 * - `steady`: a week or more.
 */
export type ForecastBasis = 'none' | 'rough' | 'steady';

/** Where a series ends the month: at the average day so far, and at the quietest and busiest day. */
export interface Projection {
  readonly expected: number;
  readonly low: number;
  readonly high: number;
  /** An average whole day so far: what each day left is counted at. */
  readonly perDay: number;
}

export interface MonthForecast {
  /** `YYYY-MM`, UTC (the gateway's month). */
  readonly month: string;
  readonly daysInMonth: number;
  /** Today's day of the month (UTC). */
  readonly today: number;
  /** Requests so far this month (the monthly count). */
  readonly soFar: number;
  /** Of which background (everything but the user's actions), as far as the ledger knows kinds. */
  readonly backgroundSoFar: number;
  /** Whole days of history before today the forecast stands on. */
  readonly historyDays: number;
  readonly basis: ForecastBasis;
  /** All requests at the month's end; absent while `basis` is `none`. */
  readonly total?: Projection;
  /** Background requests at the month's end; absent while `basis` is `none`. */
  readonly background?: Projection;
  /** The plan's monthly limit, when known. */
  readonly limit?: number;
  /** The background share of the plan in requests (limit × share), when the limit is known. */
  readonly share?: number;
  /** The share as a fraction of the plan (0.5 for 50 %). */
  readonly shareFraction?: number;
  /** Day of the month the plan's limit is reached at the expected pace, when that is before the month ends. */
  readonly planRunsOutOn?: number;
}

export interface ForecastOptions {
  /** The background share of the plan, as a fraction in (0, 1] (`alephium.watch.monthlySharePercent` / 100). */
  readonly share?: number;
}

function background(day: DayUsage): number {
  let n = 0;
  for (const kind of REQUEST_KINDS) if (isBackgroundKind(kind)) n += day[kind] ?? 0;
  return n;
}

function all(day: DayUsage): number {
  let n = 0;
  for (const kind of REQUEST_KINDS) n += day[kind] ?? 0;
  return n;
}

interface History {
  /** The first day of history (the 1st when the ledger holds requests it does not know the day of). */
  readonly first: number;
  /** The first day the ledger knows day by day. */
  readonly knownFrom: number;
  readonly today: number;
  readonly daysInMonth: number;
}

/** A series' days so far: whole days (with `before`, requests of days not known), their average, extremes. */
function pace(perDay: ReadonlyMap<number, number>, before: number, history: History) {
  const { first, knownFrom, today } = history;
  let whole = before;
  let quietest = Number.POSITIVE_INFINITY;
  let busiest = 0;
  for (let day = first; day < today; day++) {
    const n = perDay.get(day) ?? 0;
    whole += n;
    if (day >= knownFrom) {
      quietest = Math.min(quietest, n);
      busiest = Math.max(busiest, n);
    }
  }
  const mean = whole / (today - first);
  // Days before the ledger kept days are known only as a sum: their average stands in for them.
  if (quietest === Number.POSITIVE_INFINITY) quietest = busiest = mean;
  const todaySoFar = perDay.get(today) ?? 0;
  return {
    whole,
    mean,
    quietest: Math.min(quietest, mean),
    busiest: Math.max(busiest, mean),
    todaySoFar,
    /** Today counted as at least an average day: it is not over. */
    endOfToday: whole + Math.max(todaySoFar, mean),
  };
}

/**
 * A series' month end: the whole days so far, today as at least an average day, and every day left at
 * the average (low: today as it stands and the quietest day after it; high: the busiest day).
 */
function project(perDay: ReadonlyMap<number, number>, before: number, history: History): Projection {
  const p = pace(perDay, before, history);
  const left = history.daysInMonth - history.today;
  return {
    expected: Math.round(p.endOfToday + p.mean * left),
    low: Math.round(p.whole + p.todaySoFar + p.quietest * left),
    high: Math.round(p.whole + Math.max(p.todaySoFar, p.busiest) + p.busiest * left),
    perDay: p.mean,
  };
}

export function forecastMonth(
  ledger: MonthLedger,
  now: number,
  options: ForecastOptions = {},
): MonthForecast {
  const daysInMonth = daysInMonthOf(now);
  const today = new Date(now).getUTCDate();
  const totals = new Map<number, number>();
  const backgrounds = new Map<number, number>();
  let backgroundSoFar = 0;
  for (const d of ledger.days) {
    totals.set(d.day, all(d));
    backgrounds.set(d.day, background(d));
    backgroundSoFar += background(d);
  }
  const knownFrom = ledger.days[0]?.day ?? today;
  // Requests counted before the ledger kept days happened on some day since the 1st.
  const first = ledger.unattributed > 0 ? 1 : Math.min(knownFrom, today);
  const historyDays = ledger.count === 0 ? 0 : Math.max(0, today - first);
  const limit = ledger.limit;
  const shareFraction =
    options.share !== undefined && options.share > 0 ? Math.min(1, options.share) : undefined;
  const base = {
    month: ledger.month,
    daysInMonth,
    today,
    soFar: ledger.count,
    backgroundSoFar,
    historyDays,
    ...(limit !== undefined ? { limit } : {}),
    ...(limit !== undefined && shareFraction !== undefined
      ? { share: Math.floor(limit * shareFraction), shareFraction }
      : {}),
  };
  if (historyDays === 0) return { ...base, basis: 'none' };
  const history: History = { first, knownFrom, today, daysInMonth };
  const total = project(totals, ledger.unattributed, history);
  const forecast: MonthForecast = {
    ...base,
    basis: historyDays >= STEADY_HISTORY_DAYS ? 'steady' : 'rough',
    total,
    background: project(backgrounds, 0, history),
  };
  if (limit === undefined || total.expected <= limit) return forecast;
  // The plan runs out before the month ends at this pace: on which day.
  const p = pace(totals, ledger.unattributed, history);
  const day =
    p.endOfToday >= limit || p.mean <= 0 ? today : today + Math.ceil((limit - p.endOfToday) / p.mean);
  return day <= daysInMonth ? { ...forecast, planRunsOutOn: day } : forecast;
}

/**
 * A count as a person reads a forecast: exact below 1,000, else to two significant digits (41,234 is
 * "41,000"), so the figure does not pretend to a precision it lacks.
 */
export function roughCount(n: number): string {
  if (n < 1000) return Math.round(n).toLocaleString('en-US');
  const magnitude = 10 ** (Math.floor(Math.log10(n)) - 1);
  return (Math.round(n / magnitude) * magnitude).toLocaleString('en-US');
}

export function exactCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `12 %` of a part of a whole, to whole percents (below 1 %: one decimal; below 0.1 %: "under 0.1 %"). */
export function percentOf(part: number, whole: number): string {
  const p = (part / whole) * 100;
  if (p > 0 && p < 0.1) return 'under 0.1 %';
  return `${p < 1 && p > 0 ? p.toFixed(1) : Math.round(p)} %`;
}
