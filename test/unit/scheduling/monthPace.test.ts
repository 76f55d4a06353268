import assert from 'node:assert/strict';
import {
  CAP_MONTH_HOURS,
  MAX_ACCRUAL_GAP_MS,
  MonthPace,
  PRIOR_ACTIVE_HOURS_PER_DAY,
  type ActivityRecord,
  type ActivityStore,
} from '../../../src/core/scheduling/monthPace';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** June 2025: 30 days. */
const JUNE = Date.UTC(2025, 5, 1);
const FREE = { monthlyShare: 50_000 };

function store(initial?: unknown): ActivityStore & { value: unknown } {
  const s = {
    value: initial,
    get: () => s.value,
    set: (r: ActivityRecord) => void (s.value = structuredClone(r)),
  };
  return s;
}

/** A pace whose window is not open yet (it starts focused, as a scheduler does when built). */
function idle(at: number): MonthPace {
  const pace = new MonthPace(at);
  pace.setWeight(0, at);
  return pace;
}

/** Observes a pace every 5 minutes (the scheduler's heartbeat) from `from` for `ms` at `weight`. */
function work(pace: MonthPace, from: number, ms: number, weight = 1): number {
  pace.setWeight(weight, from);
  for (let t = from; t < from + ms; t += 5 * 60_000) pace.spent(t);
  pace.spent(from + ms);
  pace.setWeight(0, from + ms);
  return from + ms;
}

describe('month pace: the share over the working time expected to be left', () => {
  it('without history: 8 hours a day, so the whole share over 240 hours in a 30-day month', () => {
    const pace = new MonthPace(JUNE);
    assert.equal(pace.activePerDayMs(JUNE), PRIOR_ACTIVE_HOURS_PER_DAY * HOUR);
    assert.equal(pace.expectedActiveLeftMs(JUNE), 240 * HOUR);
    assert.ok(Math.abs(pace.rate(JUNE, FREE) * HOUR - 50_000 / 240) < 1e-9);
  });

  it('learns from this month: 2 hours a day for a week brings the estimate down, 16 hours a day up', () => {
    const light = idle(JUNE);
    const heavy = idle(JUNE);
    for (let d = 0; d < 7; d++) {
      work(light, JUNE + d * DAY + 9 * HOUR, 2 * HOUR);
      work(heavy, JUNE + d * DAY + 7 * HOUR, 16 * HOUR);
    }
    const at = JUNE + 7 * DAY;
    // (2 days × 8 h + 7 × 2 h) / 9 days, and (2 × 8 + 7 × 16) / 9.
    assert.ok(
      Math.abs(light.activePerDayMs(at) / HOUR - 30 / 9) < 0.01,
      `${light.activePerDayMs(at) / HOUR}`,
    );
    assert.ok(
      Math.abs(heavy.activePerDayMs(at) / HOUR - 128 / 9) < 0.01,
      `${heavy.activePerDayMs(at) / HOUR}`,
    );
    assert.ok(light.rate(at, FREE) > heavy.rate(at, FREE));
  });

  it('self-correcting: spending more than expected leaves less per hour for the rest', () => {
    const pace = new MonthPace(JUNE);
    const before = pace.rate(JUNE + DAY, FREE);
    pace.charge(10_000, JUNE + DAY);
    const after = pace.rate(JUNE + DAY, FREE);
    assert.ok(Math.abs(after / before - 40_000 / 50_000) < 1e-9);
    pace.charge(40_000, JUNE + DAY);
    assert.equal(pace.rate(JUNE + DAY, FREE), 0);
    assert.equal(pace.shareLeft(JUNE + DAY, FREE), 0);
  });

  it('the share of what is left of the whole quota limits it too (heavy manual use)', () => {
    const pace = new MonthPace(JUNE);
    assert.equal(pace.shareLeft(JUNE, { monthlyShare: 50_000, quotaShareLeft: 1_234 }), 1_234);
  });

  it('capped per hour at the share / 120 h, whatever the estimate', () => {
    const lastDay = JUNE + 29.5 * DAY;
    const pace = new MonthPace(lastDay);
    assert.equal(pace.rate(lastDay, FREE), 50_000 / (CAP_MONTH_HOURS * HOUR));
  });

  it('unfocused time counts at its weight, and a gap longer than 10 minutes (sleep) only up to it', () => {
    const s = store();
    const pace = new MonthPace(JUNE);
    pace.useStore(s, JUNE);
    work(pace, JUNE, 8 * HOUR, 1 / 4);
    pace.setWeight(1, JUNE + 8 * HOUR);
    // Nothing observed for 6 hours (the machine slept): 10 minutes count.
    pace.flush(JUNE + 14 * HOUR);
    const observed = (s.value as ActivityRecord).activeMs / HOUR;
    assert.ok(Math.abs(observed - (2 + MAX_ACCRUAL_GAP_MS / HOUR)) < 1e-6, `${observed} h`);
    // The day is not over: what it holds so far is today's, not yet a day's worth learned.
    assert.equal(pace.activePerDayMs(JUNE + 14 * HOUR), 8 * HOUR);
    assert.ok(Math.abs(pace.activePerDayMs(JUNE + DAY) / HOUR - (16 + observed) / 3) < 1e-6);
  });

  it('while a day is under way, what it still holds is the learned day less what it had so far', () => {
    const pace = idle(JUNE);
    // Nothing learned yet (8 h a day): at 09:00 the whole of today's 8 h is ahead; at 13:00, 4 of them.
    assert.equal(pace.expectedActiveLeftMs(JUNE + 9 * HOUR), 8 * HOUR + 29 * 8 * HOUR);
    work(pace, JUNE + 9 * HOUR, 4 * HOUR);
    assert.equal(pace.expectedActiveLeftMs(JUNE + 13 * HOUR), 4 * HOUR + 29 * 8 * HOUR);
    // Longer than the learned day: nothing more expected today, the days after unchanged.
    work(pace, JUNE + 13 * HOUR, 6 * HOUR);
    assert.equal(pace.expectedActiveLeftMs(JUNE + 19 * HOUR), 29 * 8 * HOUR);
  });

  it('persists: a new pace on the same store continues the month; garbage in the store is ignored', () => {
    const s = store();
    const first = idle(JUNE);
    first.useStore(s, JUNE);
    work(first, JUNE + 9 * HOUR, 8 * HOUR);
    first.charge(1_000, JUNE + 17 * HOUR);
    first.flush(JUNE + 17 * HOUR);
    const second = new MonthPace(JUNE + DAY);
    second.useStore(s, JUNE + DAY);
    assert.equal(second.spent(JUNE + DAY), 1_000);
    assert.ok(Math.abs(second.activePerDayMs(JUNE + DAY) / HOUR - (16 + 8) / 3) < 1e-6);

    for (const bad of [
      null,
      'x',
      { month: 'June', since: 0, activeMs: 0, spent: 0 },
      { month: '2025-06', spent: -5 },
    ]) {
      const pace = new MonthPace(JUNE);
      pace.useStore(store(bad), JUNE);
      assert.equal(pace.spent(JUNE), 0);
      assert.equal(pace.activePerDayMs(JUNE), 8 * HOUR);
    }
  });

  it('a new month starts from nothing spent, with last month’s hours a day as the prior', () => {
    const s = store();
    const pace = idle(JUNE);
    pace.useStore(s, JUNE);
    for (let d = 0; d < 30; d++) work(pace, JUNE + d * DAY, 4 * HOUR);
    pace.charge(30_000, JUNE + 29 * DAY);
    const july = Date.UTC(2025, 6, 1, 9);
    assert.equal(pace.spent(july), 0);
    assert.ok(Math.abs(pace.activePerDayMs(july) / HOUR - 4) < 0.01, `${pace.activePerDayMs(july) / HOUR}`);
    // A record of an earlier month read from the store teaches the same.
    pace.flush();
    const later = new MonthPace(july);
    later.useStore(
      store({ month: '2025-06', since: JUNE, activeMs: 30 * 4 * HOUR, day: 30, todayMs: 0, spent: 30_000 }),
      july,
    );
    assert.equal(later.spent(july), 0);
    assert.ok(Math.abs(later.activePerDayMs(july) / HOUR - 4) < 0.01);
  });
});
