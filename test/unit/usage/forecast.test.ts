/** The month-end forecast, the status bar's ledger lines and the cost of commands. */
import assert from 'node:assert/strict';
import type { DayUsage, MonthLedger } from '../../../src/core/gateway/usage';
import {
  batchCost,
  blocksRangeCost,
  blocksRangeNotice,
  costNotice,
  costText,
  latestEventsCost,
  olderEventsCost,
  worthSaying,
} from '../../../src/core/usage/costs';
import { forecastMonth, roughCount } from '../../../src/core/usage/forecast';
import { forecastLine, kindsLine, ledgerTooltipLines } from '../../../src/core/usage/usageTooltip';

/** The text a tooltip shows: safe Markdown with its escapes removed. */
const shown = (md: string) => md.replace(/\\(.)/g, '$1');

function ledger(days: DayUsage[], extra: Partial<MonthLedger> = {}): MonthLedger {
  let count = extra.unattributed ?? 0;
  for (const d of days)
    count += (d.contracts ?? 0) + (d.node ?? 0) + (d.tracking ?? 0) + (d.actions ?? 0) + (d.other ?? 0);
  return {
    keyId: 'k',
    month: '2025-05',
    count,
    limit: 100_000,
    fraction: count / 100_000,
    days,
    unattributed: 0,
    ...extra,
  };
}

/** Noon UTC on a day of May 2025 (31 days; the 10th is a Saturday). */
const may = (day: number, hour = 12) => Date.UTC(2025, 4, day, hour);

describe('request ledger: month-end forecast', () => {
  it('gives no forecast before a whole day of history, and says so', () => {
    const f = forecastMonth(ledger([{ day: 10, contracts: 900, actions: 100 }]), may(10), { share: 0.5 });
    assert.equal(f.basis, 'none');
    assert.equal(f.total, undefined, 'a morning multiplied by thirty is no forecast');
    assert.equal(f.soFar, 1000);
    assert.equal(f.share, 50_000);
    assert.match(forecastLine(f), /not yet, less than a whole day/);
  });

  it('projects whole days at their average, today as at least an average day, with the quietest and busiest day as range', () => {
    const days: DayUsage[] = [
      { day: 1, contracts: 800, actions: 200 },
      { day: 2, contracts: 1500, node: 300, actions: 200 },
      { day: 3, contracts: 2400, actions: 600 },
      { day: 4, contracts: 100 }, // today, early
    ];
    const f = forecastMonth(ledger(days), may(4), { share: 0.5 });
    assert.equal(f.basis, 'rough');
    assert.equal(f.historyDays, 3);
    // Whole days: 1000 + 2000 + 3000 = 6000, mean 2000; today counts as 2000; 27 days left at 2000.
    assert.deepEqual(f.total, {
      expected: 6000 + 2000 + 27 * 2000,
      low: 6000 + 100 + 27 * 1000,
      high: 6000 + 3000 + 27 * 3000,
      perDay: 2000,
    });
    // Background (all but actions): 800 + 1800 + 2400 = 5000, mean 5000/3; today 100.
    assert.equal(f.background?.expected, Math.round(5000 + 5000 / 3 + (27 * 5000) / 3));
    assert.equal(f.planRunsOutOn, undefined, '62,000 fits the plan');
    assert.match(
      forecastLine(f),
      /^Month-end forecast: about 62,000 of 100,000 \(62 %\), 33,000 to 90,000 \(only 3 days so far, rough\)\.$/,
    );
  });

  it('is steady from a week of history, and counts quiet days (a weekend without VS Code) as days', () => {
    const days: DayUsage[] = [];
    for (let d = 1; d <= 14; d++)
      if (d !== 3 && d !== 4 && d !== 10 && d !== 11) days.push({ day: d, contracts: 1400 });
    const f = forecastMonth(ledger(days), may(15), { share: 0.5 });
    assert.equal(f.basis, 'steady');
    assert.equal(f.historyDays, 14);
    assert.equal(f.total?.perDay, (10 * 1400) / 14);
    assert.equal(f.total?.low, 14_000 + 0 + 16 * 0, 'the quietest day had none');
  });

  it('starts history on the first day the ledger saw, not the 1st (installed mid-month)', () => {
    const f = forecastMonth(
      ledger([
        { day: 20, contracts: 500 },
        { day: 21, contracts: 500 },
      ]),
      may(22),
    );
    assert.equal(f.historyDays, 2);
    assert.equal(f.total?.expected, 1000 + 500 + 9 * 500);
  });

  it('spreads requests counted before the ledger over the days since the 1st', () => {
    const f = forecastMonth(ledger([{ day: 5, node: 100 }], { unattributed: 4_000 }), may(6));
    assert.equal(f.historyDays, 5);
    assert.equal(f.soFar, 4_100);
    assert.equal(f.total?.perDay, 4_100 / 5);
    assert.equal(f.total?.expected, Math.round(4_100 + 820 + 25 * 820));
  });

  it('says on which day the plan runs out at this pace', () => {
    const days: DayUsage[] = [
      { day: 1, contracts: 10_000 },
      { day: 2, contracts: 10_000 },
    ];
    const f = forecastMonth(ledger(days), may(3), { share: 0.5 });
    // 20,000 after two days, 30,000 at the end of today, then 10,000 a day: 100,000 on the 10th.
    assert.equal(f.planRunsOutOn, 10);
    const lines = shown(ledgerTooltipLines(ledger(days), f).markdown);
    assert.match(lines, /about 310,000 at this pace, over the plan's 100,000/);
    assert.match(lines, /limit is reached around May 10 \(UTC\)/);
  });

  it('rounds a forecast to two significant digits, exact below 1,000', () => {
    assert.deepEqual(
      [roughCount(987), roughCount(41_234), roughCount(1_250_000)],
      ['987', '41,000', '1,300,000'],
    );
  });
});

describe('request ledger: the status bar tooltip lines', () => {
  it('lists this month by kind, the forecast, the share and a link to the chart', () => {
    const l = ledger([
      { day: 1, contracts: 812, node: 40, actions: 30 },
      { day: 2, tracking: 5, actions: 10, other: 2 },
    ]);
    assert.equal(
      kindsLine(l),
      'Watched contracts 812 · Node view 40 · Transaction tracking 5 · Your actions 40 · Other background 2',
    );
    const md = shown(
      ledgerTooltipLines(l, forecastMonth(l, may(3), { share: 0.5 }), {
        showUsageCommand: 'alephium.showRequestUsage',
      }).markdown,
    );
    assert.match(md, /\*\*Requests this month by kind\*\*: Watched contracts 812/);
    assert.match(md, /Month-end forecast: about/);
    assert.match(
      md,
      /Background: about [\d,]+ by the month's end, of its share of 50,000 \(50 % of the plan\)/,
    );
    assert.match(md, /\[Show Request Usage\]\(command:alephium\.showRequestUsage\?%5B%5D\)$/);
  });

  it('names the requests an earlier version counted without kind', () => {
    assert.equal(kindsLine(ledger([], { unattributed: 120 })), 'not by kind 120');
    assert.equal(kindsLine(ledger([])), 'none yet');
  });
});

describe('request ledger: what a command costs, said before it runs', () => {
  it('a blocks range: one request if answered whole, up to every part of the bounded split', () => {
    // Four halvings for answers over the size cap, plus those a 504 needs past the node's 30 minutes.
    assert.deepEqual(blocksRangeCost(10 * 60_000), { min: 1, max: 31 });
    assert.deepEqual(blocksRangeCost(30 * 60_000), { min: 1, max: 31 });
    assert.deepEqual(blocksRangeCost(60 * 60_000), { min: 1, max: 63 });
    assert.deepEqual(blocksRangeCost(24 * 3600_000), { min: 1, max: 2047 });
    // Parts of a second or less are not cut: a 1.5-second range can only be halved once.
    assert.deepEqual(blocksRangeCost(1_500), { min: 1, max: 3 });
    assert.deepEqual(blocksRangeCost(1_000), { min: 1, max: 1 });
    assert.equal(blocksRangeNotice(1_000).text, 'Reading this range costs 1 request.');
    const day = blocksRangeNotice(24 * 3600_000, 43_210);
    assert.equal(day.worthSaying, true);
    assert.match(
      day.text,
      /1 request if the gateway answers it whole, up to 2,047 if it must be split \(each 504, or answer over the size cap, halves a part\)/,
    );
    assert.match(day.text, /\(43,210 left this month\)\.$/);
  });

  it('events: the count and a page per 100; Load more: a page per window', () => {
    assert.deepEqual(latestEventsCost(10), { min: 2, max: 4 });
    assert.deepEqual(latestEventsCost(1000), { min: 11, max: 31 });
    assert.deepEqual(olderEventsCost(25, 25), { min: 1, max: 1 });
    assert.deepEqual(olderEventsCost(250, 25), { min: 10, max: 10 });
  });

  it('a batch (a Gas Report over many methods): calls packed per request', () => {
    assert.deepEqual(batchCost(45, 1, 20), { min: 3, max: 3 });
    assert.deepEqual(batchCost(12), { min: 12, max: 12 });
    const notice = costNotice('Gas Report', batchCost(12), 99_000);
    assert.deepEqual(notice, {
      worthSaying: true,
      text: 'Gas Report costs 12 requests, of the 99,000 left this month.',
    });
  });

  it('more than a few requests is worth saying; a few is not', () => {
    assert.equal(worthSaying({ min: 5, max: 5 }), false);
    assert.equal(worthSaying({ min: 1, max: 6 }), true);
    assert.equal(costText({ min: 1, max: 1 }), '1 request');
    assert.equal(costText({ min: 1, max: 1270 }), '1 to 1,270 requests');
  });
});
