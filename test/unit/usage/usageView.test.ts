/** The Request Usage view: its model from the ledger, the chart's marks, and what the page may say. */
import assert from 'node:assert/strict';
import type { DayUsage, MonthLedger } from '../../../src/core/gateway/usage';
import { forecastMonth } from '../../../src/core/usage/forecast';
import { buildUsageViewModel, emptyUsageViewModel } from '../../../src/core/usage/usageView';
import { chartLayout, compactCount, niceScale } from '../../../src/usage/panel/chart';
import { parseWebviewMessage, RENDERED_TEXT_LIMIT } from '../../../src/core/usage/usageProtocol';

const NOW = Date.UTC(2025, 4, 4, 15); // May 4th, a Sunday

function model(days: DayUsage[], unattributed = 0) {
  let count = unattributed;
  for (const d of days)
    for (const k of ['contracts', 'node', 'tracking', 'actions', 'assistant', 'other'] as const)
      count += d[k] ?? 0;
  const ledger: MonthLedger = {
    keyId: 'k',
    month: '2025-05',
    count,
    limit: 100_000,
    fraction: count / 100_000,
    days,
    unattributed,
  };
  return buildUsageViewModel({
    ledger,
    forecast: forecastMonth(ledger, NOW, { share: 0.5 }),
    now: NOW,
    profile: 'sandbox',
    plan: 'free',
  });
}

const MONTH: DayUsage[] = [
  { day: 1, contracts: 800, node: 100, actions: 100 },
  { day: 2, contracts: 1500, node: 300, actions: 200 },
  { day: 3, contracts: 2400, tracking: 50, actions: 550 },
  { day: 4, contracts: 100, actions: 20 },
];

describe('request usage view: model', () => {
  it('has every day of the month by kind, today and the days after it marked, weekends known', () => {
    const m = model(MONTH);
    assert.equal(m.days.length, 31);
    assert.deepEqual(
      m.kinds.map((k) => [k.id, k.label, k.total]),
      [
        ['contracts', 'Watched contracts', 4800],
        ['node', 'Node view', 400],
        ['tracking', 'Transaction tracking', 50],
        ['actions', 'Your actions', 870],
        ['assistant', 'Language-model tools', 0],
        ['other', 'Other background', 0],
      ],
    );
    assert.deepEqual(m.days[2], {
      day: 3,
      label: 'May 3',
      counts: [2400, 0, 50, 550, 0, 0],
      total: 3000,
      today: false,
      future: false,
      weekend: true,
    });
    assert.equal(m.days[3]?.today, true);
    assert.equal(m.days[4]?.future, true);
    assert.equal(m.days[4]?.total, 0);
    assert.equal(m.total, 6120);
    assert.equal(m.share, 50_000);
    assert.equal(m.sharePerDay, 50_000 / 31);
    assert.deepEqual(m.forecast, {
      basis: 'rough',
      historyDays: 3,
      expected: 6000 + 2000 + 27 * 2000,
      low: 6000 + 120 + 27 * 1000,
      high: 6000 + 3000 + 27 * 3000,
      perDay: 2000,
      backgroundExpected: m.forecast.backgroundExpected,
    });
  });

  it('says the chart in sentences (its text equivalent)', () => {
    const m = model(MONTH);
    assert.equal(m.summary[0], "May 2025 so far: 6,120 requests of the plan's 100,000 (6 %).");
    assert.ok(m.summary.includes('Busiest day: May 3 with 3,000 requests.'));
    assert.ok(m.summary.some((s) => s.startsWith('Month-end forecast: about 62,000 of 100,000')));
    assert.ok(m.summary.some((s) => s.startsWith('Background: about')));
    assert.ok(m.summary.includes('Days are UTC days, as the gateway counts the month.'));
  });

  it('a month without a key says why and has no forecast', () => {
    const m = emptyUsageViewModel(NOW, 'This profile has no API key: requests are counted per key.');
    assert.equal(m.notice, 'This profile has no API key: requests are counted per key.');
    assert.equal(m.forecast.basis, 'none');
    assert.equal(m.days.length, 31);
  });
});

describe('request usage view: chart layout', () => {
  it('stacks each day by kind from the bottom, on a nice scale, with the forecast after today', () => {
    const m = model(MONTH);
    const c = chartLayout(m, 640);
    const box = c.daily.box;
    const bottom = box.top + box.height;
    assert.deepEqual(niceScale(3000), { max: 3000, step: 1000 });
    assert.deepEqual(
      c.daily.ticks.map((t) => t.label),
      ['0', '1k', '2k', '3k'],
    );
    const day3 = c.daily.bars.filter((b) => b.day === 3);
    assert.deepEqual(
      day3.map((b) => [b.kind, b.count]),
      [
        ['contracts', 2400],
        ['tracking', 50],
        ['actions', 550],
      ],
    );
    // Stacked: each segment sits on the one below, and the day's total reaches the scale's top (3k).
    assert.ok(Math.abs(day3[0]!.y + day3[0]!.height - bottom) < 0.2);
    assert.ok(Math.abs(day3[1]!.y + day3[1]!.height - day3[0]!.y) < 1.1);
    assert.ok(Math.abs(day3[2]!.y - box.top) < 0.2);
    assert.equal(
      c.daily.forecast.map((f) => f.day).join(','),
      Array.from({ length: 27 }, (_, i) => i + 5).join(','),
    );
    assert.equal(c.daily.forecast[0]!.count, 2000);
    assert.ok(c.daily.share, 'the share spread evenly is drawn');
    assert.equal(c.daily.share.value, Math.round(50_000 / 31));
    assert.ok(c.daily.days.some((d) => d.today && d.label === '4'));
  });

  it('draws the month so far against the plan and the share, with the forecast to the month end', () => {
    const c = chartLayout(model(MONTH), 640);
    const mo = c.month;
    assert.equal(mo.total.length, 5, 'the start of the month and four days');
    assert.ok(mo.plan && mo.share);
    assert.ok(mo.plan.y < mo.share.y, 'the plan is above the share');
    assert.ok(mo.forecast);
    assert.equal(mo.forecast.expected[1]!.x, mo.box.left + mo.box.width);
    // The running total only rises.
    for (let i = 1; i < mo.total.length; i++) assert.ok(mo.total[i]!.y <= mo.total[i - 1]!.y);
    assert.ok(
      mo.background.every((p, i) => p.y >= mo.total[i]!.y),
      'background is part of the total',
    );
  });

  it('shows a few requests on a scale of thousands, and no forecast bars without a forecast', () => {
    const c = chartLayout(model([{ day: 4, actions: 3, contracts: 5000 }]), 640);
    const tiny = c.daily.bars.find((b) => b.kind === 'actions');
    assert.ok(tiny && tiny.height >= 1, 'at least a pixel');
    assert.equal(c.daily.forecast.length, 0);
    assert.equal(c.month.forecast, undefined);
    assert.deepEqual(
      [compactCount(950), compactCount(12_000), compactCount(1_500_000)],
      ['950', '12k', '1.5M'],
    );
  });
});

describe('request usage view: messages from the page', () => {
  it('accepts exactly ready and rendered (text bounded); anything else is ignored', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'rendered', text: 'x' }), { type: 'rendered', text: 'x' });
    const long = parseWebviewMessage({ type: 'rendered', text: 'a'.repeat(RENDERED_TEXT_LIMIT + 10) });
    assert.equal(long?.type === 'rendered' && long.text.length, RENDERED_TEXT_LIMIT);
    for (const bad of [
      null,
      'ready',
      [],
      { type: 'ready', extra: 1 },
      { type: 'rendered' },
      { type: 'rendered', text: 5 },
      { type: 'rendered', html: '<b>' },
      { type: 'rendered', text: 'x', more: 1 },
      { type: 'setApiKey' },
      { type: 'command', command: 'alephium.sendTransfer' },
    ])
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  });
});

describe('request usage view: a quiet month', () => {
  it('names a share far above the days at the top instead of flattening every bar', () => {
    const quiet = model([{ day: 4, node: 4, contracts: 1, actions: 2 }]);
    assert.equal(quiet.summary[0], "May 2025 so far: 7 requests of the plan's 100,000 (under 0.1 %).");
    const c = chartLayout(quiet, 640);
    assert.deepEqual(
      c.daily.ticks.map((t) => t.label),
      ['0', '2', '4', '6', '8'],
    );
    assert.equal(c.daily.share?.offScale, true);
    assert.match(c.daily.share?.label ?? '', /above this scale/);
    const bars = c.daily.bars.filter((b) => b.day === 4);
    assert.ok(bars.reduce((h, b) => h + b.height, 0) > c.daily.box.height / 2, 'the day is readable');
    // A busy month draws the share on the scale.
    assert.notEqual(chartLayout(model(MONTH), 640).daily.share?.offScale, true);
  });
});
