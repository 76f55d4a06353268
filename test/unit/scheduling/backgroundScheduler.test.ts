import assert from 'node:assert/strict';
import {
  BackgroundScheduler,
  PLAN_UTILISATION,
  freshnessLine,
  sharedScheduler,
  type JobRun,
  type RunRecord,
  type SchedulerTimers,
} from '../../../src/core/scheduling/backgroundScheduler';

const T0 = Date.UTC(2025, 4, 10, 12, 0, 0);
const HOUR = 3_600_000;
/** Free plan, 50 %: 50,000 requests over 720 hours. */
const FREE_HOURLY = (100_000 * 0.5) / 720;

/** Virtual time: timers fire in order on `advance`, with the microtasks of each run settled. */
class VirtualTimers implements SchedulerTimers {
  time = T0;
  private seq = 0;
  timers: { id: number; at: number; cb: () => void }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(cb: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.push({ id, at: this.time + Math.max(0, ms), cb });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.time = next.at;
      next.cb();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    this.time = target;
  }
}

function free(timers: VirtualTimers): BackgroundScheduler {
  return new BackgroundScheduler({ timers, budget: { monthlyLimit: 100_000, share: 0.5 } });
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

const costs = (n: number) => async (): Promise<JobRun> => ({ requests: n });

describe('background scheduler: one budget', () => {
  it('50 contracts on Free: every hour (the first included) within the share and at 80 % of it or more', async () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    const r = record(s);
    for (let i = 0; i < 50; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    await timers.advance(6 * HOUR);
    const hours = r.perHour(6);
    for (const [h, n] of hours.entries()) {
      assert.ok(n <= FREE_HOURLY, `hour ${h + 1}: ${n} > ${FREE_HOURLY}`);
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
        run: async () => ({ requests: runs++ === 0 ? 1 : 2 }),
      });
    }
    await timers.advance(6 * HOUR);
    const hours = r.perHour(6);
    for (const [h, n] of hours.entries())
      assert.ok(n <= FREE_HOURLY, `hour ${h + 1}: ${n} > ${FREE_HOURLY} (${hours.join(', ')})`);
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
      run: async () => ({ requests: runs++ === 0 ? 1 : 2 }),
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
    // 10 contracts costing 1.3 on average at 90 % of 69.4/h: about 12.5 min each.
    assert.ok(interval > 10 * 60_000 && interval < 15 * 60_000, `interval ${interval}`);
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
    // 3 requests per run at 90 % of 69.4/h: one run every 172.8 s.
    assert.ok(
      Math.abs(h.intervalMs - (3 * HOUR) / (FREE_HOURLY * PLAN_UTILISATION)) < 1_000,
      `${h.intervalMs}`,
    );
    for (const n of r.perHour(4)) assert.ok(n <= FREE_HOURLY, `${n}`);
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
    for (const n of r.perHour(3)) assert.ok(n <= FREE_HOURLY, `${n}`);
    node.dispose();
    assert.equal(c[0]!.intervalMs, before);
    s.dispose();
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
      run: async () => (++n >= 3 ? { requests: 1, done: true } : { requests: 1, retryInMs: 100_000 }),
    });
    s.add({
      kind: 'contract',
      label: 'bad',
      run: async () => {
        throw new Error('bug');
      },
    });
    await timers.advance(HOUR);
    assert.deepEqual(r.gaps('tx').slice(1), [100_000, 100_000]);
    assert.equal(r.runs.filter((x) => x.label === 'tx').length, 3, 'done removes the job');
    assert.ok(r.runs.filter((x) => x.label === 'bad').length > 100);
    assert.ok(r.runs.filter((x) => x.label === 'bad').every((x) => x.requests === 1));
    s.dispose();
  });

  it('with the month mostly used by hand, the share is of what is left, over what is left of the month', () => {
    const timers = new VirtualTimers();
    let used = 0;
    const s = new BackgroundScheduler({
      timers,
      budget: { monthlyLimit: 100_000, share: 0.5, requestsUsedThisMonth: () => used },
    });
    const full = s.shareRate();
    used = 90_000;
    const left = s.shareRate();
    // May 10th, 12:00 UTC: 21.5 days left; 10,000 × 0.5 over them.
    assert.ok(Math.abs(left - 5_000 / (21.5 * 24 * HOUR)) < 1e-12);
    assert.ok(left < full / 5);
    used = 100_000;
    assert.equal(s.shareRate(), 0);
    s.dispose();
  });

  it('the tooltip line says what freshness the plan buys, only when the floor does not hold', () => {
    const timers = new VirtualTimers();
    const s = free(timers);
    for (let i = 0; i < 10; i++) s.add({ kind: 'contract', label: `c${i}`, run: costs(1) });
    assert.equal(freshnessLine(s.plan(), 'free'), '10 contracts on Free: each every 10 min');
    s.dispose();
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
        run: async () => {
          charge();
          return { requests: 1 };
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
    assert.ok(second + 30 <= FREE_HOURLY, `${second} job runs + 30 tracked`);
    assert.ok(second < quiet - 20, `jobs made room: ${second} vs ${quiet}`);
    assert.ok(s.spentInLastHour() <= FREE_HOURLY);
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
      run: async () => {
        charge();
        return { requests: 1 };
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
