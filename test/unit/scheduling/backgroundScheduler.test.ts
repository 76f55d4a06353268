import assert from 'node:assert/strict';
import {
  BackgroundScheduler,
  sharedScheduler,
  type ActivityRecord,
  type ActivityStore,
} from '../../../src/core/scheduling/backgroundScheduler';
import type { JobRun, RunRecord } from '../../../src/core/scheduling/jobs';
import { HEARTBEAT_MS, OTHERS_RESERVE, PLAN_UTILISATION } from '../../../src/core/scheduling/policy';
import { freshnessLine } from '../../../src/core/scheduling/freshness';
import type { Timers } from '../../../src/core/util/clock';
import { FakeTimers } from '../../helpers/fakeTimers';

/** June 2025: a 30-day month, so from its first moment the month is 720 hours. */
const T0 = Date.UTC(2025, 5, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Free plan, 50 %: 50,000 requests over 720 hours, for someone who works around the clock. The plan
 * spends this; the hour's limit (the pace) is 1 / PLAN_UTILISATION of it, room for bursts.
 */
const FREE_HOURLY = (100_000 * 0.5) / 720;
const FREE_HOURLY_LIMIT = FREE_HOURLY / PLAN_UTILISATION;
/** The same share for someone who works 8 hours a day (the prior): 50,000 over 240 hours. */
const FREE_HOURLY_8H = (100_000 * 0.5) / 240;

/** Virtual time from T0: timers fire in order on `advance`, with the microtasks of each run settled. */
class VirtualTimers extends FakeTimers implements Timers {
  constructor() {
    super(T0);
  }
}

/** An activity store in memory; `writes` counts what was saved. */
function memoryActivity(initial?: ActivityRecord): ActivityStore & { value: unknown; writes: number } {
  const store = {
    value: initial as unknown,
    writes: 0,
    get: () => store.value,
    set: (record: ActivityRecord) => {
      store.writes++;
      store.value = structuredClone(record);
    },
  };
  return store;
}

/** Someone who works around the clock (last month taught 24 h a day): the share spread over 720 hours. */
function roundTheClock(now: number): ActivityStore {
  return memoryActivity({
    month: '2025-06',
    since: now,
    activeMs: 0,
    day: 0,
    todayMs: 0,
    spent: 0,
    priorDayMs: DAY,
  });
}

/** Free, 50 %, for someone who works around the clock: 69.4 requests an hour. */
function free(timers: VirtualTimers): BackgroundScheduler {
  return new BackgroundScheduler({
    timers,
    budget: { monthlyLimit: 100_000, share: 0.5 },
    activity: roundTheClock(timers.now()),
  });
}

/** Requests per virtual hour and the runs per label, from the scheduler's own reports. */
function record(s: BackgroundScheduler) {
  const runs: RunRecord[] = [];
  s.onDidRun((r) => runs.push(r));
  const perHour = (hours: number): number[] => {
    const out = new Array<number>(hours).fill(0);
    for (const r of runs) {
      const h = Math.floor((r.startedAt - T0) / HOUR);
      if (h < hours) out[h] = (out[h] as number) + r.requests;
    }
    return out;
  };
  const gaps = (label: string): number[] => {
    const starts = runs.filter((r) => r.label === label).map((r) => r.startedAt);
    return [starts[0]! - T0, ...starts.slice(1).map((t, i) => t - starts[i]!)];
  };
  return { runs, perHour, gaps };
}

const costs = (n: number) => (): Promise<JobRun> => Promise.resolve({ requests: n });

describe('background scheduler: one budget', () => {
  it('50 contracts on Free: every hour (the first included) within the pace and at 80 % of the share or more', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    for (let i = 0; i < 50; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    await timers.advance(6 * HOUR);
    const hours = r.perHour(6);
    for (const [h, n] of hours.entries()) {
      assert.ok(n <= FREE_HOURLY_LIMIT, `hour ${h + 1}: ${n} > ${FREE_HOURLY_LIMIT}`);
      assert.ok(n >= 0.8 * FREE_HOURLY, `hour ${h + 1}: ${n} < 80 % of ${FREE_HOURLY}`);
    }
    s.dispose();
  });

  it('50 contracts added at once (never seen: read at once) do not all come due again at once: no hour over', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    // The first run only reads the count (1 request); later runs find events and fetch a page too (2).
    for (let i = 0; i < 50; i++) {
      let runs = 0;
      s.add({
        kind: 'contract',
        label: `c${i}`,
        startNow: true,
        run: () => Promise.resolve({ requests: runs++ === 0 ? 1 : 2 }),
      });
    }
    await timers.advance(6 * HOUR);
    const hours = r.perHour(6);
    for (const [h, n] of hours.entries())
      assert.ok(n <= FREE_HOURLY_LIMIT, `hour ${h + 1}: ${n} > ${FREE_HOURLY_LIMIT} (${hours.join(', ')})`);
    // And every contract ran again within those hours (none left behind by the pacing).
    for (let i = 0; i < 50; i++)
      assert.ok(r.gaps(`c${i}`).length >= 3, `c${i} ran ${r.gaps(`c${i}`).length}×`);
    s.dispose();
  });

  it('one contract watched alone keeps its usual turn after its first read, even after a burst of other work', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    // A view's first refresh (a one-shot of 10 requests) drains the tokens as the contract is added.
    s.add({ kind: 'node', label: 'node', once: true, run: costs(10) });
    let runs = 0;
    const contract = s.add({
      kind: 'contract',
      label: 'c',
      startNow: true,
      run: () => Promise.resolve({ requests: runs++ === 0 ? 1 : 2 }),
    });
    await timers.advance(HOUR);
    const gaps = r.gaps('c');
    assert.ok(gaps.length >= 3, `ran ${gaps.length}×`);
    assert.ok(
      gaps[1]! <= 1.25 * contract.intervalMs,
      `second read ${gaps[1]} ms after the first, interval ${contract.intervalMs}`,
    );
    s.dispose();
  });

  it('no contract starves: the first polls are staggered and no gap exceeds 1.25 × the interval', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    const handles = Array.from({ length: 10 }, (_, i) =>
      s.add({ kind: 'contract', label: `c${i}`, run: costs(i % 3 === 0 ? 2 : 1) }),
    );
    await timers.advance(8 * HOUR);
    const interval = handles[0]!.intervalMs;
    // 10 contracts costing 1.3 on average at 69.4/h: about 11 min each.
    assert.ok(interval > 9 * 60_000 && interval < 13 * 60_000, `interval ${interval}`);
    const firsts = r.runs.slice(0, 10).map((x) => x.startedAt - T0);
    assert.ok(firsts[9]! > interval / 2, `first polls bunched: ${firsts.join(', ')}`);
    for (let i = 0; i < 10; i++) {
      const gaps = r.gaps(`c${i}`);
      assert.ok(Math.max(...gaps) <= 1.25 * interval, `c${i}: ${Math.max(...gaps)} vs ${interval}`);
    }
    s.dispose();
  });

  it('the 16 s floor holds when the share is larger than the jobs need, and nothing else limits them', async () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 10_000_000, share: 0.5 } });
    const r = record(s);
    s.add({ kind: 'contract', label: 'a', run: costs(1) });
    await timers.advance(HOUR);
    const gaps = r.gaps('a').slice(1);
    assert.equal(gaps.length, 225, 'runs at 0, 16 s, …, 3,600 s');
    assert.ok(gaps.every((g) => g === 16_000));
    assert.equal(s.plan().budgetBound, false);
    s.dispose();
  });

  it('learns what runs really cost: busy jobs slow down instead of overspending', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    const h = s.add({ kind: 'contract', label: 'busy', run: costs(3) });
    await timers.advance(4 * HOUR);
    assert.ok(h.cost > 2.9, `cost ${h.cost}`);
    // 3 requests per run at 69.4/h: one run every 155.5 s.
    assert.ok(Math.abs(h.intervalMs - (3 * HOUR) / FREE_HOURLY) < 1_000, `${h.intervalMs}`);
    for (const n of r.perHour(4)) assert.ok(n <= FREE_HOURLY_LIMIT, `${n}`);
    s.dispose();
  });

  it('a view joining takes its part of the share: contracts slow down, the total stays inside', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    const c = Array.from({ length: 10 }, (_, i) =>
      s.add({ kind: 'contract', label: `c${i}`, run: costs(1) }),
    );
    await timers.advance(HOUR);
    const before = c[0]!.intervalMs;
    const node = s.add({ kind: 'node', label: 'self-clique', minIntervalMs: 60_000, run: costs(1) });
    await timers.advance(2 * HOUR);
    assert.ok(c[0]!.intervalMs > before, `${c[0]!.intervalMs} vs ${before}`);
    assert.equal(node.intervalMs, c[0]!.intervalMs, 'the view gets the same round as every contract');
    assert.ok(r.runs.some((x) => x.kind === 'node'));
    for (const n of r.perHour(3)) assert.ok(n <= FREE_HOURLY_LIMIT, `${n}`);
    node.dispose();
    // The same round as before (the pace moves a little as the month is spent).
    assert.ok(Math.abs(c[0]!.intervalMs / before - 1) < 0.005, `${c[0]!.intervalMs} vs ${before}`);
    s.dispose();
  });

  it('a job at a fixed pace (the Node view sync check) keeps its floor; the others are planned around it', async () => {
    const timers = new VirtualTimers();
    // Free at the default pace (8 working hours a day): 187 requests an hour planned.
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 } });
    const r = record(s);
    const c = Array.from({ length: 10 }, (_, i) =>
      s.add({ kind: 'contract', label: `c${i}`, run: costs(1) }),
    );
    const fixed = { kind: 'node', label: 'self-clique', minIntervalMs: 40_000, fixedPace: true } as const;
    const node = s.add({ ...fixed, run: costs(1) });
    await timers.advance(3 * HOUR);
    assert.equal(node.intervalMs, 40_000, 'never stretched by the rounds');
    assert.ok(c[0]!.intervalMs > 40_000, `the contracts are: ${c[0]!.intervalMs}`);
    const gaps = r.gaps('self-clique');
    assert.ok(gaps.length > 200 && Math.max(...gaps) <= 40_000, `${gaps.length} gaps, ${Math.max(...gaps)}`);
    for (const n of r.perHour(3)) assert.ok(n <= FREE_HOURLY_8H / PLAN_UTILISATION, `${n} in an hour`);
    s.dispose();

    // Around the clock the share is 69 an hour: 90 checks an hour would not leave the others their
    // reserve. Stretched, and the interval it reports is the one it keeps.
    const t2 = new VirtualTimers();
    const small = free(t2);
    const r2 = record(small);
    small.add({ kind: 'contract', label: 'c', run: costs(1) });
    const stretched = small.add({ ...fixed, run: costs(1) });
    await t2.advance(3 * HOUR);
    assert.ok(stretched.intervalMs > 40_000, `${stretched.intervalMs}`);
    assert.ok(Math.max(...r2.gaps('self-clique')) <= stretched.intervalMs + 1);
    assert.ok(r2.gaps('c').length > 0, 'the contract keeps its reserve');
    for (const n of r2.perHour(3)) assert.ok(n <= FREE_HOURLY_LIMIT, `${n} in an hour`);
    small.dispose();
  });

  it('paused jobs take no share; a slowed one runs less often; one-shot jobs run once and are charged', async () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({ timers });
    const r = record(s);
    const a = s.add({ kind: 'contract', label: 'a', run: costs(1) });
    const b = s.add({ kind: 'contract', label: 'b', run: costs(1) });
    b.setPaused(true);
    a.setSlowdown(4);
    s.add({ kind: 'state', label: 'once', once: true, run: costs(2) });
    await timers.advance(HOUR);
    assert.equal(r.runs.filter((x) => x.label === 'b').length, 0);
    assert.equal(r.runs.filter((x) => x.label === 'once').length, 1);
    assert.equal(r.runs.find((x) => x.label === 'once')!.requests, 2);
    assert.ok(
      r
        .gaps('a')
        .slice(1)
        .every((g) => g === 64_000),
    );
    assert.equal(s.size, 2);
    s.dispose();
  });

  it('a retry delay and done are honoured; a throwing job is charged its cost and keeps running', async () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({ timers });
    const r = record(s);
    let n = 0;
    s.add({
      kind: 'tx',
      label: 'tx',
      run: () =>
        Promise.resolve(++n >= 3 ? { requests: 1, done: true } : { requests: 1, retryInMs: 100_000 }),
    });
    s.add({
      kind: 'contract',
      label: 'bad',
      run: () => Promise.reject(new Error('bug')),
    });
    await timers.advance(HOUR);
    assert.deepEqual(r.gaps('tx').slice(1), [100_000, 100_000]);
    assert.equal(r.runs.filter((x) => x.label === 'tx').length, 3, 'done removes the job');
    assert.ok(r.runs.filter((x) => x.label === 'bad').length > 100);
    assert.ok(r.runs.filter((x) => x.label === 'bad').every((x) => x.requests === 1));
    s.dispose();
  });

  it('with the month mostly used by hand, the share is of what is left, over the working time left', async () => {
    const timers = new VirtualTimers();
    let used = 0;
    const s = new BackgroundScheduler({
      timers,
      budget: { monthlyLimit: 100_000, share: 0.5, requestsUsedThisMonth: () => used },
      activity: roundTheClock(T0),
    });
    // A job: while jobs exist the working time is observed (a heartbeat every 5 minutes).
    s.add({ kind: 'contract', minIntervalMs: DAY, run: costs(0) });
    await timers.advance(DAY / 2);
    const full = s.pacedRate();
    used = 90_000;
    const left = s.pacedRate();
    // June 1st, 12:00 UTC: 29.5 days left, worked around the clock; 10,000 × 0.5 over them (planned at
    // PLAN_UTILISATION of the pace).
    assert.ok(Math.abs(left - 5_000 / (29.5 * DAY) / PLAN_UTILISATION) < 1e-12, `${left * HOUR}/h`);
    assert.ok(left < full / 5);
    used = 100_000;
    assert.equal(s.pacedRate(), 0);
    s.dispose();
  });

  it('the tooltip line says what freshness the plan buys, only when the floor does not hold', () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    for (let i = 0; i < 10; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    assert.equal(freshnessLine(s.plan(), 'free'), '10 contracts on Free: each every 9 min');
    s.dispose();
    // One blocks scan for all of them: their news comes as often as it runs, not as their own polls
    // (a 30-minute safety net while the scan serves them, planned after it).
    const scanned = free(timers);
    for (let i = 0; i < 50; i++)
      scanned.add({
        kind: 'contract',
        label: `c${i}`,
        minIntervalMs: 30 * 60_000,
        visible: false,
        run: costs(1),
      });
    scanned.add({ kind: 'scan', label: 'blocks-with-events', run: costs(1) });
    const kinds = scanned.plan().kinds;
    const scanEvery = kinds.find((k) => k.kind === 'scan')!.intervalMs;
    assert.ok(kinds.find((k) => k.kind === 'contract')!.intervalMs >= 30 * 60_000);
    assert.ok(scanEvery < 120_000, `planned first, the scan runs every ${scanEvery} ms`);
    assert.equal(
      freshnessLine(scanned.plan(), 'free'),
      `50 contracts on Free: each every ${Math.round(scanEvery / 1000)} s`,
    );
    scanned.dispose();
    const big = new BackgroundScheduler({ timers, budget: { monthlyLimit: 10_000_000, share: 0.5 } });
    big.add({ kind: 'contract', run: costs(1) });
    assert.equal(freshnessLine(big.plan(), 'pro'), undefined);
    big.dispose();
  });

  it('one scheduler per owner (client), created once', () => {
    const owner = {};
    const a = sharedScheduler(owner);
    assert.equal(sharedScheduler(owner), a);
    assert.notEqual(sharedScheduler({}), a);
    a.dispose();
    assert.throws(() => a.add({ kind: 'x', run: costs(1) }), /disposed/);
  });

  it('metered: background requests outside jobs (tracking a transaction) are charged, and the jobs make room', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    let charge: () => void = () => undefined;
    s.meter((c) => {
      charge = c;
      return { dispose: () => (charge = () => undefined) };
    });
    // The jobs report what they sent, but the meter is what counts: each run sends one metered request.
    for (let i = 0; i < 10; i++)
      s.add({
        kind: 'contract',
        label: `c${i}`,
        run: () => {
          charge();
          return Promise.resolve({ requests: 1 });
        },
      });
    await timers.advance(HOUR);
    const quiet = r.runs.length;
    // 30 status checks of a tracked transaction in the second hour, none of them a job.
    for (let i = 0; i < 30; i++) {
      charge();
      await timers.advance(60_000);
    }
    await timers.advance(30 * 60_000);
    const second = r.runs.filter((x) => x.startedAt >= T0 + HOUR && x.startedAt < T0 + 2 * HOUR).length;
    assert.ok(second + 30 <= FREE_HOURLY_LIMIT, `${second} job runs + 30 tracked`);
    assert.ok(second < quiet - 20, `jobs made room: ${second} vs ${quiet}`);
    assert.ok(s.spentInLastHour() <= FREE_HOURLY_LIMIT);
    s.dispose();
  });

  it('replan: a job whose floor came down runs on the new floor, not on what the old one planned', async () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({ timers });
    const r = record(s);
    // Two first runs at once: the second runs of such a batch are planned one floor later (30 min here).
    const hs = ['a', 'b'].map((label) =>
      s.add({ kind: 'contract', label, minIntervalMs: 30 * 60_000, startNow: true, run: costs(1) }),
    );
    await timers.advance(0);
    for (const h of hs) h.setMinInterval(16_000);
    hs[0]!.replan();
    await timers.advance(60_000);
    const runsOf = (label: string) => r.runs.filter((x) => x.label === label).length;
    assert.ok(runsOf('a') >= 3, `replanned: ${runsOf('a')} runs in the first minute`);
    assert.equal(runsOf('b'), 1, 'not replanned: still held by the old plan');
    s.dispose();
  });

  it('runSoon: the user is waiting, so the next run goes once its floor has passed, whatever the budget', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    const hs = Array.from({ length: 10 }, (_, i) =>
      s.add({ kind: 'contract', label: `c${i}`, run: costs(1) }),
    );
    await timers.advance(2 * HOUR);
    const h = hs[3]!;
    const last = h.lastRunAt!;
    assert.ok(h.intervalMs > 5 * 60_000, `${h.intervalMs}`);
    // Asked 5 s after its last run: it goes at its 16 s floor, not a whole interval later.
    await timers.advance(Math.max(0, last + 5_000 - timers.now()));
    const askedAt = timers.now();
    const runsBefore = r.runs.length;
    h.runSoon();
    await timers.advance(60_000);
    const again = r.runs.slice(runsBefore).find((x) => x.label === 'c3');
    assert.ok(again, 'ran again within a minute of being asked');
    assert.equal(again.startedAt, Math.max(askedAt, last + 16_000), 'at its floor, held by nothing else');
    s.dispose();
  });

  it('stagger: jobs a change of plan made overdue together run at the pace, not in one burst', async () => {
    // The watcher's safety nets when the window is left (eventWatcher.ts setFocused): a shorter interval
    // makes each of them hours late at once, and a late job runs whatever the tokens say.
    const burstAfterChange = async (stagger: boolean) => {
      const timers = new VirtualTimers();
      const s = free(timers);
      const r = record(s);
      const hs = Array.from({ length: 20 }, (_, i) =>
        s.add({ kind: 'contract', label: `c${i}`, minIntervalMs: 4 * HOUR, run: costs(1) }),
      );
      await timers.advance(5 * HOUR);
      const changedAt = timers.now();
      for (const h of hs) h.setMinInterval(16_000);
      if (stagger) for (const h of hs) if (h.dueAt <= changedAt) h.stagger();
      await timers.advance(HOUR);
      const after = r.runs.filter((x) => x.startedAt >= changedAt);
      const firstMinute = after.filter((x) => x.startedAt < changedAt + 60_000).length;
      const ran = new Set(after.map((x) => x.label)).size;
      s.dispose();
      return { firstMinute, ran };
    };
    const without = await burstAfterChange(false);
    const staggered = await burstAfterChange(true);
    assert.ok(without.firstMinute >= 10, `unstaggered: ${without.firstMinute} runs in the first minute`);
    // The bucket holds two tokens and a minute refills about one: a handful, not twenty.
    assert.ok(staggered.firstMinute <= 5, `staggered: ${staggered.firstMinute} runs in the first minute`);
    assert.equal(staggered.ran, 20, 'and every one of them ran within the hour: none is held for good');
    // A paused job has no due time: staggered, it must not be held once it is resumed.
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    const h = s.add({ kind: 'contract', label: 'p', run: costs(1) });
    await timers.advance(HOUR);
    h.setPaused(true);
    h.stagger();
    h.setPaused(false);
    const before = r.runs.length;
    await timers.advance(HOUR);
    assert.ok(r.runs.length > before, 'resumed, it runs again');
    s.dispose();
  });

  it('no job starves even when other work has filled the hour: it runs at most a fifth of its interval late', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    let charge: () => void = () => undefined;
    s.meter((c) => {
      charge = c;
      return { dispose: () => undefined };
    });
    s.add({
      kind: 'contract',
      label: 'a',
      run: () => {
        charge();
        return Promise.resolve({ requests: 1 });
      },
    });
    await timers.advance(HOUR);
    // A heavy hour of tracked sends: 120 status checks, far past the share on their own.
    for (let i = 0; i < 120; i++) {
      charge();
      await timers.advance(30_000);
    }
    const gaps = r.gaps('a').slice(1);
    const runs = r.runs.filter((x) => x.label === 'a');
    for (const [i, g] of gaps.entries()) {
      const interval = Math.max(runs[i]!.intervalMs, runs[i + 1]!.intervalMs);
      assert.ok(g <= 1.25 * interval, `gap ${g} vs ${interval}`);
    }
    s.dispose();
  });
});

/** Requests charged per virtual hour, from the scheduler's runs. */
function hourly(runs: readonly RunRecord[], from: number, hours: number): number[] {
  const out = new Array<number>(hours).fill(0);
  for (const r of runs) {
    const h = Math.floor((r.startedAt - from) / HOUR);
    if (h >= 0 && h < hours) out[h] = (out[h] as number) + r.requests;
  }
  return out;
}

describe('background scheduler: pacing against the month a person works', () => {
  it('without history the share goes to about 8 hours a day: 3 × the around-the-clock pace on Free', async () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 } });
    const r = record(s);
    const jobs = Array.from({ length: 10 }, (_, i) =>
      s.add({ kind: 'contract', label: `c${i}`, run: costs(1) }),
    );
    assert.ok(
      Math.abs(s.plan().hourlyShare - FREE_HOURLY_8H / PLAN_UTILISATION) < 0.01,
      `${s.plan().hourlyShare}/h`,
    );
    assert.equal(s.plan().activeHoursPerDay, 8);
    // 10 contracts of 1 request at 208.3/h: one run each every 173 s (the around-the-clock pace: 518 s).
    assert.ok(Math.abs(jobs[0]!.intervalMs - (10 * HOUR) / FREE_HOURLY_8H) < 1_000);
    await timers.advance(3 * HOUR);
    for (const n of r.perHour(3)) {
      assert.ok(n <= FREE_HOURLY_8H / PLAN_UTILISATION, `${n} > ${FREE_HOURLY_8H / PLAN_UTILISATION}`);
      assert.ok(n >= 0.8 * FREE_HOURLY_8H, `${n}: below 80 % of the pace`);
    }
    s.dispose();
  });

  it('a month of working 24 hours a day, longer than the prior expects, ends within the share (self-correcting)', async function () {
    this.timeout(60_000);
    const timers = new VirtualTimers();
    const activity = memoryActivity();
    const s = new BackgroundScheduler({
      timers,
      budget: { monthlyLimit: 100_000, share: 0.5 },
      activity,
    });
    const runs: RunRecord[] = [];
    s.onDidRun((x) => runs.push(x));
    // Three contracts that would poll every 16 s (675 requests an hour) if nothing held them.
    for (let i = 0; i < 3; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    const early = s.plan().hourlyShare;
    await timers.advance(10 * DAY);
    const learned = s.plan();
    assert.ok(learned.activeHoursPerDay > 20, `learned ${learned.activeHoursPerDay} h a day`);
    assert.ok(learned.hourlyShare < early / 2, `${learned.hourlyShare}/h after 10 days vs ${early}/h`);
    await timers.advance(20 * DAY);
    const month = runs.filter((x) => x.startedAt < T0 + 30 * DAY).reduce((n, x) => n + x.requests, 0);
    assert.ok(month <= 50_000, `the month spent ${month}`);
    assert.ok(month >= 45_000, `the month spent only ${month} of 50,000`);
    // The per-hour cap held throughout: 50,000 / 120 h.
    assert.ok(Math.max(...hourly(runs, T0, 720)) <= 50_000 / 120);
    s.dispose();
  });

  it('persists across reloads: a new scheduler on the same store knows what the month spent and how long you work', async () => {
    const timers = new VirtualTimers();
    const activity = memoryActivity();
    const budget = { monthlyLimit: 100_000, share: 0.5 };
    const first = new BackgroundScheduler({ timers, budget, activity });
    const job = first.add({ kind: 'contract', run: costs(1) });
    await timers.advance(10 * HOUR);
    job.dispose();
    first.dispose();
    const spent = 50_000 - first.monthShareLeft();
    assert.ok(spent > 1_000, `${spent}`);
    assert.ok(activity.writes > 0);
    // The window was closed overnight; the next morning a new window reads the record.
    await timers.advance(15 * HOUR);
    const second = new BackgroundScheduler({ timers, budget });
    assert.equal(second.monthShareLeft(), 50_000, 'a scheduler without the store knows nothing');
    second.setActivityStore(activity);
    assert.equal(second.monthShareLeft(), 50_000 - spent);
    // The first day, completed, had 10 working hours: blended with 2 days of 8 h.
    const expected = (2 * 8 + 10) / 3;
    assert.ok(
      Math.abs(second.plan().activeHoursPerDay - expected) < 0.01,
      `${second.plan().activeHoursPerDay}`,
    );
    second.dispose();
  });

  it('never past the month’s share: with it spent nothing starts, not even a job the user waits for, until the next month', async () => {
    const timers = new VirtualTimers();
    await timers.advance(29 * DAY);
    const activity = memoryActivity({
      month: '2025-06',
      since: T0,
      activeMs: 200 * HOUR,
      day: 29,
      todayMs: 0,
      spent: 49_999,
      priorDayMs: 8 * HOUR,
    });
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 }, activity });
    const r = record(s);
    const job = s.add({ kind: 'contract', label: 'c', expectedCost: 2, run: costs(2) });
    job.runSoon();
    await timers.advance(DAY - 1);
    assert.equal(r.runs.length, 0, 'a run of 2 requests does not fit in the 1 left');
    assert.equal(s.monthShareLeft(), 1);
    await timers.advance(1);
    assert.equal(r.runs.length, 1, 'July: a new month, a new share');
    assert.equal(s.monthShareLeft(), 50_000 - 2);
    s.dispose();
  });

  it('a per-hour cap: an estimate that the month is nearly over cannot spend it in a day', async () => {
    const timers = new VirtualTimers();
    // June 29th, nothing spent yet: 50,000 over the 12 working hours expected to be left.
    await timers.advance(28.5 * DAY);
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 } });
    const r = record(s);
    for (let i = 0; i < 10; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    assert.ok(Math.abs(s.plan().hourlyShare - 50_000 / 120) < 0.01, `${s.plan().hourlyShare}/h`);
    const from = timers.now();
    await timers.advance(DAY);
    const hours = hourly(r.runs, from, 24);
    for (const n of hours) assert.ok(n <= 50_000 / 120, `${n} in an hour`);
    assert.ok(hours.reduce((a, b) => a + b, 0) <= 10_001, 'the day spent at most 24 × the cap');
    s.dispose();
  });

  it('never above the plan’s per-second limit: the last slot of every second is the user’s', () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({
      timers,
      budget: { monthlyLimit: 1_000_000_000, share: 1, perSecond: 3 },
    });
    assert.equal(s.plan().hourlyShare, 2 * 3_600);
    s.setBudget({ monthlyLimit: 1_000_000_000, share: 1 });
    assert.equal(
      s.plan().hourlyShare,
      2 * 3_600,
      'a budget without a per-second limit keeps the previous one',
    );
    s.dispose();
  });

  it('unfocused time counts at a quarter of working time, paused time not at all', async () => {
    const timers = new VirtualTimers();
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 } });
    s.add({ kind: 'contract', minIntervalMs: HOUR, run: costs(1) });
    s.setFocused(true);
    await timers.advance(4 * HOUR);
    s.setFocused(false, 4);
    await timers.advance(8 * HOUR);
    s.setFocused(false, Infinity);
    await timers.advance(12 * HOUR);
    // One day observed: 4 h + 8 h / 4 + 0, blended with 2 days of 8 h.
    assert.ok(Math.abs(s.plan().activeHoursPerDay - (16 + 6) / 3) < 0.01, `${s.plan().activeHoursPerDay}`);
    s.dispose();
  });

  it('saves the month’s activity every 5 minutes while jobs exist, and when the last one goes', async () => {
    const timers = new VirtualTimers();
    const activity = memoryActivity();
    const s = new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 }, activity });
    const writes = activity.writes;
    const job = s.add({ kind: 'contract', minIntervalMs: HOUR, run: costs(1) });
    await timers.advance(3 * HEARTBEAT_MS);
    assert.equal(activity.writes, writes + 3);
    await timers.advance(60_000);
    job.dispose();
    assert.equal(activity.writes, writes + 4);
    assert.equal(timers.timers.length, 0, 'no heartbeat without jobs');
    s.dispose();
  });
});

describe('background scheduler: look where the person looks', () => {
  /** A bigger plan, where the visible jobs fit at their floor and the rest share what is left. */
  const big = (timers: VirtualTimers) =>
    new BackgroundScheduler({ timers, budget: { monthlyLimit: 1_000_000, share: 0.5 } });

  it('visible jobs come first, at their floor; the others share what is left; equal again when nobody looks', async () => {
    const timers = new VirtualTimers();
    const s = big(timers);
    const r = record(s);
    const jobs = Array.from({ length: 100 }, (_, i) =>
      s.add({ kind: 'contract', label: `c${i}`, visible: false, run: costs(1) }),
    );
    const equal = jobs[0]!.intervalMs;
    jobs[0]!.setVisible(true);
    jobs[1]!.setVisible(true);
    assert.equal(jobs[0]!.intervalMs, 16_000);
    const rate = s.plan().hourlyShare * PLAN_UTILISATION;
    const others = (98 * HOUR) / (rate - 2 * 225);
    assert.ok(Math.abs(jobs[2]!.intervalMs - others) < 1_000, `${jobs[2]!.intervalMs} vs ${others}`);
    assert.ok(jobs[2]!.intervalMs > equal);
    await timers.advance(20 * 60_000);
    const gaps = r.gaps('c0').slice(1);
    assert.equal(gaps.length, 75);
    assert.ok(
      gaps.every((g) => g === 16_000),
      `the visible one ran every 16 s: ${gaps.slice(0, 5).join(', ')}`,
    );
    jobs[0]!.setVisible(false);
    jobs[1]!.setVisible(false);
    assert.equal(jobs[0]!.intervalMs, jobs[2]!.intervalMs, 'one round for all again');
    s.dispose();
  });

  it('the others keep a reserve when the visible ones would take everything', () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const visible = Array.from({ length: 20 }, () => s.add({ kind: 'contract', run: costs(1) }));
    const others = Array.from({ length: 5 }, () =>
      s.add({ kind: 'contract', visible: false, run: costs(1) }),
    );
    const rate = s.plan().hourlyShare * PLAN_UTILISATION;
    assert.ok(
      Math.abs(others[0]!.intervalMs - (5 * HOUR) / (OTHERS_RESERVE * rate)) < 1_000,
      `${others[0]!.intervalMs}`,
    );
    assert.ok(visible[0]!.intervalMs < others[0]!.intervalMs);
    s.dispose();
  });

  it('nobody looked at goes before a visible job: with few others they share one round', () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const visible = Array.from({ length: 20 }, () => s.add({ kind: 'contract', run: costs(1) }));
    const other = s.add({ kind: 'contract', visible: false, run: costs(1) });
    // Alone with the reserve the other would run more often than any visible job: one round for all.
    assert.equal(other.intervalMs, visible[0]!.intervalMs);
    s.dispose();
  });

  it('a run that says someone still waits runs again at its floor', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    let waiting = 2;
    for (let i = 0; i < 10; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    const h = s.add({
      kind: 'contract',
      label: 'touched',
      run: () => Promise.resolve({ requests: 1, urgent: waiting-- > 0 }),
    });
    await timers.advance(2 * HOUR);
    assert.ok(h.intervalMs > 5 * 60_000);
    const gaps = r.gaps('touched');
    assert.deepEqual(gaps.slice(1, 3), [16_000, 16_000], 'at the floor while someone waits');
    assert.ok(gaps[3]! > 16_000, 'then its usual turn');
    s.dispose();
  });
});
