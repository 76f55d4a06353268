// Journey: a person reads what the month's requests went to. Blocks in Time Range says what each range
// costs before reading; the status bar's tooltip lists the month by kind with a forecast; "Show Request
// Usage" draws the month per day by kind as an SVG chart. Every assertion reads the rendered workbench.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { DayUsage, MonthLedger } from '../../../src/core/gateway/usage';
import { forecastMonth } from '../../../src/core/usage/forecast';
import { buildUsageViewModel } from '../../../src/core/usage/usageView';
import { ui } from './hooks';
import { watchUntil } from './journeyHelpers';
import { sandboxProfile } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

const KINDS = ['contracts', 'node', 'tracking', 'actions', 'other'];

/** The webview frame that draws the usage chart (webviews are nested iframes). */
async function chartFrame(page: Page, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      const n = await f
        .locator('figure.chart svg[role="img"]')
        .count()
        .catch(() => 0);
      if (n > 0) return f;
    }
    await page.waitForTimeout(250);
  }
  await page.screenshot({ path: path.join(OUTPUT_DIR, 'request-usage-failure.png') });
  throw new Error(`No webview draws the request usage chart within ${timeoutMs / 1000} s`);
}

interface Bar {
  day: number;
  kind: string;
  count: number;
  height: number;
}

function readBars(frame: Frame): Promise<Bar[]> {
  // Typed by hand: the tests' tsconfig has no DOM lib, so Playwright's `Element` does not resolve here.
  return frame.$$eval('rect.bar', (rects: { getAttribute(name: string): string | null }[]) =>
    rects.map((r) => ({
      day: Number(r.getAttribute('data-day')),
      kind: r.getAttribute('data-kind') ?? '',
      count: Number(r.getAttribute('data-count')),
      height: Number(r.getAttribute('height')),
    })),
  );
}

/** A simulated month (8 hours on weekdays, 2 on weekends), for the picture in the docs. */
function simulatedMonth() {
  const now = Date.UTC(2026, 10, 20, 15); // 20 November 2026
  const days: DayUsage[] = [];
  for (let day = 1; day <= 20; day++) {
    const weekday = new Date(Date.UTC(2026, 10, day)).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const hours = day === 20 ? 5 : weekend ? 2 : 8;
    days.push({
      day,
      contracts: hours * 170 + (day % 3) * 40,
      node: hours * 20,
      tracking: day % 4 === 0 ? 60 : 12,
      actions: weekend ? 15 : 90 + (day % 5) * 25,
      other: hours * 2,
    });
  }
  let count = 0;
  for (const d of days) for (const k of KINDS) count += (d as Record<string, number>)[k] ?? 0;
  const ledger: MonthLedger = {
    keyId: 'simulated',
    month: '2026-11',
    count,
    limit: 100_000,
    fraction: count / 100_000,
    days,
    unattributed: 0,
  };
  return buildUsageViewModel({
    ledger,
    forecast: forecastMonth(ledger, now, { share: 0.5 }),
    now,
    profile: 'simulated month',
    plan: 'free',
  });
}

describe('UI: the request ledger', () => {
  before(async function () {
    this.timeout(120_000);
    await sandboxProfile(ui.page);
  });

  it('Blocks in Time Range says what each range costs before reading it', async function () {
    this.timeout(60_000);
    const page = ui.page;
    await runCommandByTitle(page, 'Alephium: Blocks in Time Range');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
    const texts = await watchUntil(
      page,
      'range costs in the quick pick',
      async () => (await rows.allInnerTexts()).join('\n'),
      (t) => t.includes('Last hour'),
      10_000,
    );
    // An upper bound, not a hope: a range whose answer is over the size cap is halved, to a bounded depth.
    assert.match(texts, /Last 10 minutes\s*1 to 31 requests/);
    assert.match(texts, /Last hour\s*1 to 63 requests/);
    // Reading the 10 minutes is the user's own requests: the chart below shows them.
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Last 10 minutes' }).first().click();
    await page
      .locator('.tabs-container .tab', { hasText: 'Blocks in Time Range' })
      .first()
      .waitFor({ timeout: 30_000 });
  });

  it('the status bar tooltip lists this month by kind and the month-end forecast', async function () {
    this.timeout(60_000);
    const page = ui.page;
    const item = page.locator('.statusbar-item', { hasText: 'Alephium:' }).first();
    const tooltip = await watchUntil(
      page,
      'the status bar tooltip with the ledger',
      async () => {
        await page.mouse.move(10, 10);
        await item.hover();
        return page.locator('.monaco-hover, .workbench-hover').first().innerText({ timeout: 3_000 });
      },
      (t) => t.includes('Requests this month by kind'),
      30_000,
    );
    assert.match(tooltip, /Requests this month by kind: .*Your actions \d/);
    // The first day of a month's history gives no figure, later ones do; either is said in words.
    assert.match(tooltip, /Month-end forecast: (not yet|about)/);
    assert.match(tooltip, /Show Request Usage/);
    await page.mouse.move(700, 850);
  });

  it('Show Request Usage draws the month per day by kind, with the share, the forecast and a text equivalent', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandByTitle(page, 'Alephium: Show Request Usage');
    const frame = await chartFrame(page, 60_000);
    const today = new Date().getUTCDate();
    let bars: Bar[] = [];
    await watchUntil(
      page,
      "today's bars in the chart",
      async () => {
        bars = await readBars(frame);
        return JSON.stringify(bars.filter((b) => b.day === today));
      },
      () => bars.some((b) => b.day === today && b.kind === 'actions'),
      30_000,
    );
    const todays = bars.filter((b) => b.day === today);
    assert.ok(todays.length > 0);
    for (const b of todays) {
      assert.ok(KINDS.includes(b.kind), b.kind);
      assert.ok(b.count > 0 && b.height >= 1, JSON.stringify(b));
    }
    assert.ok(
      bars.every((b) => b.day <= today),
      'no bar of requests in the future',
    );
    // Each day's group names its counts in words (the hover of a bar, read by screen readers).
    const title = await frame.locator(`g.day[data-day="${today}"] > title`).first().textContent();
    assert.match(title ?? '', /Your actions \d+/);
    // Labels: the axes, the day of today, the legend and the summary the chart is described by.
    const text = await frame.locator('#root').innerText();
    for (const label of [
      'Requests per day, by kind',
      'The month so far, and the forecast',
      'Watched contracts',
      'Node view',
      'Transaction tracking',
      'Your actions',
      "Plan's limit",
      'Background share',
      'Numbers per day',
    ])
      assert.ok(text.includes(label), `the chart shows "${label}"`);
    assert.match(text, /so far: [\d,]+ requests of the plan's 10,000,000/);
    const todayLabel = await frame.locator('text.day-label.today').first().textContent();
    assert.equal(todayLabel, String(today));
    const describedBy = await frame.locator('figure.chart svg').getAttribute('aria-describedby');
    assert.equal(describedBy, 'summary');
    assert.ok((await frame.locator('#summary li').count()) >= 3, 'the text equivalent has sentences');
    assert.ok((await frame.locator('.plan-line line').count()) === 1, "the plan's limit is drawn");
  });

  it('draws a simulated month (the picture in docs/images/request-usage.png)', async function () {
    this.timeout(60_000);
    const page = ui.page;
    const frame = await chartFrame(page, 30_000);
    const model = simulatedMonth();
    // The page draws whatever model it is given and the host's next model replaces it (background polls
    // update it): draw and read in one go until one reading is wholly of the simulated month.
    const reading = await watchUntil(
      page,
      'the simulated month drawn, with its forecast',
      async () => {
        await frame.evaluate(
          `window.dispatchEvent(new MessageEvent('message', { data: ${JSON.stringify({ type: 'model', model })} }))`,
        );
        const text = await frame.locator('#root').innerText({ timeout: 2_000 });
        const bars = await readBars(frame);
        const forecastBars = await frame.locator('rect.forecast-bar').count();
        return JSON.stringify({ text, bars, forecastBars });
      },
      (json) => {
        const r = JSON.parse(json) as { text: string; forecastBars: number };
        return r.text.includes('simulated month') && r.forecastBars > 0;
      },
      10_000,
    );
    const drawn = JSON.parse(reading) as { bars: Bar[]; forecastBars: number };
    assert.equal(new Set(drawn.bars.map((b) => b.day)).size, 20, 'twenty days of bars');
    assert.equal(drawn.forecastBars > 0, true, 'the days left are forecast');
    fs.mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.locator('.part.editor').screenshot({ path: path.join(OUTPUT_DIR, 'request-usage.png') });
  });
});
