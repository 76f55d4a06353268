import assert from 'node:assert/strict';
import {
  BUDGET_MONTH_MS,
  EventWatcher,
  MIN_POLL_INTERVAL_MS,
  chooseInterval,
  msUntilNextUtcMonth,
} from '../../../src/core/workflows/eventWatcher';

const NOW = Date.UTC(2025, 4, 10, 12, 0, 0);

describe('event watcher: request budget', () => {
  it('Free plan, 50 %, 4 contracts: 50,000 requests / 5 per round → every 259.2 s', () => {
    const c = chooseInterval({ contracts: 4, monthlyLimit: 100_000, share: 0.5, now: NOW });
    assert.equal(c.requestsPerRound, 5);
    assert.equal(c.allowance, 50_000);
    assert.equal(c.periodMs, BUDGET_MONTH_MS);
    assert.equal(c.intervalMs, 259_200);
    assert.equal(c.floored, false);
    assert.match(c.explanation, /4 contract\(s\) within 50 % of 100000 requests\/month: every 259 s/);
  });

  it('1 contract, only count requests: 30 days / 50,000 = 51.84 s; scales linearly with contracts', () => {
    const one = chooseInterval({ contracts: 1, monthlyLimit: 100_000, share: 0.5, now: NOW, fetchRatio: 0 });
    assert.equal(one.intervalMs, 51_840);
    const ten = chooseInterval({ contracts: 10, monthlyLimit: 100_000, share: 0.5, now: NOW, fetchRatio: 0 });
    assert.equal(ten.intervalMs, 518_400);
  });

  it('never below 16 s, however large the plan', () => {
    const c = chooseInterval({ contracts: 1, monthlyLimit: 10_000_000, share: 1, now: NOW });
    assert.equal(c.intervalMs, MIN_POLL_INTERVAL_MS);
    assert.equal(c.floored, true);
    assert.equal(
      chooseInterval({ contracts: 3, monthlyLimit: undefined, share: 0.5, now: NOW }).intervalMs,
      16_000,
    );
    assert.equal(
      chooseInterval({ contracts: 0, monthlyLimit: 100_000, share: 0.5, now: NOW }).intervalMs,
      16_000,
    );
  });

  it('with the usage so far: our share of what is left, over what is left of the UTC month', () => {
    // 10 May 12:00 UTC → 1 June: 21.5 days left.
    const left = msUntilNextUtcMonth(NOW);
    assert.equal(left, 21.5 * 24 * 3600_000);
    const c = chooseInterval({
      contracts: 2,
      monthlyLimit: 100_000,
      share: 0.5,
      requestsUsedThisMonth: 60_000,
      now: NOW,
      fetchRatio: 0,
    });
    assert.equal(c.allowance, 20_000);
    assert.equal(c.periodMs, left);
    assert.equal(c.intervalMs, Math.ceil((left * 2) / 20_000)); // 185,760 ms
    assert.equal(c.intervalMs, 185_760);
  });

  it('when the share is used up, waits for the month to reset', () => {
    const c = chooseInterval({
      contracts: 2,
      monthlyLimit: 100_000,
      share: 0.5,
      requestsUsedThisMonth: 100_000,
      now: NOW,
    });
    assert.equal(c.exhausted, true);
    assert.equal(c.intervalMs, msUntilNextUtcMonth(NOW));
    assert.match(c.explanation, /used up/);
  });

  it('rejects nonsense inputs', () => {
    assert.throws(() => chooseInterval({ contracts: 1, monthlyLimit: 100_000, share: 0, now: NOW }), /share/);
    assert.throws(
      () => chooseInterval({ contracts: 1, monthlyLimit: 100_000, share: 1.5, now: NOW }),
      /share/,
    );
    assert.throws(
      () => chooseInterval({ contracts: -1, monthlyLimit: 100_000, share: 0.5, now: NOW }),
      /contracts/,
    );
    assert.throws(
      () => chooseInterval({ contracts: 1, monthlyLimit: 0, share: 0.5, now: NOW }),
      /monthlyLimit/,
    );
  });

  it('the watcher takes the slower of its setting and the plan, for the number of watched contracts', () => {
    const w = new EventWatcher({
      client: {
        getContractEventCount: async () => 0,
        getContractEvents: async () => ({ events: [], nextStart: 0 }),
      },
      store: { get: () => undefined, set: () => undefined },
      timers: { now: () => NOW, setTimeout: () => 0, clearTimeout: () => undefined },
      intervalMs: 30_000,
      budget: { monthlyLimit: 100_000, share: 0.5, fetchRatio: 0 },
    });
    w.watch('29E9VSez1vizNkuXApftPc6dkT4tGrHbNKVfyHDannagG');
    w.start();
    // One contract costing one count per poll, planned at 90 % of 69.4 requests/h: every 57.6 s.
    assert.equal(w.intervalMs, 57_600);
    assert.match(w.budgetChoice()?.explanation ?? '', /within 50 % of 100000 requests\/month/);
    w.setIntervalMs(120_000);
    assert.equal(w.intervalMs, 120_000);
    w.setIntervalMs(5_000);
    assert.equal(w.intervalMs, 57_600);
    w.dispose();
  });
});
