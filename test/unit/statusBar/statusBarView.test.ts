import { strict as assert } from 'node:assert';
import {
  statusBarView,
  userHeadroomAfter,
  type StatusBarInput,
} from '../../../src/core/statusBar/statusBarView';
import { BackgroundScheduler } from '../../../src/core/scheduling/backgroundScheduler';
import { freshnessLine } from '../../../src/core/scheduling/freshness';
import { safeMarkdown } from '../../../src/core/text/inert';

/** The tooltip as a person reads it: Markdown's backslash escapes removed. */
function tooltipOf(view: { tooltip: { markdown: string } }): string {
  return view.tooltip.markdown.replace(/\\(.)/g, '$1');
}

const base: StatusBarInput = {
  profileName: 'Sandbox',
  plan: 'free',
  limitPerSecond: 5,
  headroom: undefined,
  usage: undefined,
  lastError: undefined,
  now: 1_700_000_000_000,
};

describe('status bar presentation', () => {
  it('says in the tooltip what freshness the background share buys when the 16 s floor does not hold', () => {
    const scheduler = new BackgroundScheduler({
      budget: { monthlyLimit: 100_000, share: 0.5 },
      timers: { now: () => base.now, setTimeout: () => 0, clearTimeout: () => undefined },
    });
    for (let i = 0; i < 10; i++)
      scheduler.add({ kind: 'contract', run: () => Promise.resolve({ requests: 1 }) });
    const freshness = freshnessLine(scheduler.plan(), 'free');
    scheduler.dispose();
    // November 14th, 22:13 UTC, nothing learned yet: the share over 8 working hours a day for the 16 days
    // left is more than the per-hour cap (50,000 / 120 h = 416.7); 90 % of that planned (375 an hour) gives
    // 10 contracts one request each every 96 s.
    assert.equal(freshness, '10 contracts on Free: each every 96 s');
    const view = statusBarView({ ...base, ...(freshness ? { freshness } : {}) });
    assert.match(
      tooltipOf(view),
      /Background polling within the monthly share: 10 contracts on Free: each every 96 s/,
    );
    assert.doesNotMatch(tooltipOf(statusBarView(base)), /Background polling/);
  });

  it('is hidden when no profile is set', () => {
    assert.equal(statusBarView({ ...base, profileName: undefined }).visible, false);
  });

  it('shows the plan limit before any response, without a warning', () => {
    const view = statusBarView(base);
    assert.equal(view.visible, true);
    assert.equal(view.text, '$(pulse) Alephium: 5/s');
    assert.equal(view.severity, 'normal');
  });

  it("shows remaining/limit from the headers and warns when the user's own requests left little headroom", () => {
    const plenty = statusBarView({
      ...base,
      headroom: { limit: 5, remaining: 4, resetAt: base.now + 500, observedAt: base.now },
    });
    assert.match(plenty.text, /4\/5 req\/s · resets \d\d:\d\d:\d\d$/);
    assert.equal(plenty.severity, 'normal');
    const lowHeadroom = { limit: 5, remaining: 1, resetAt: base.now + 500, observedAt: base.now };
    const low = statusBarView({ ...base, headroom: lowHeadroom, userHeadroom: lowHeadroom });
    assert.equal(low.severity, 'warning');
    assert.equal(low.nextChangeAt, lowHeadroom.resetAt, 'the warning ends with the window');
  });

  it("keeps its colour through the extension's own background bursts: only the user's headroom colours it", () => {
    // At first open the Node view's probe and the contracts' polls leave 0/5 in the window: the text says
    // so, but nobody waits (background never takes the last slot), so the colour stays normal.
    const burst = { limit: 5, remaining: 0, resetAt: base.now + 600, observedAt: base.now };
    const view = statusBarView({ ...base, headroom: burst });
    assert.match(view.text, /0\/5 req\/s/);
    assert.equal(view.severity, 'normal');
    // The user's own request, earlier in the same window, had left plenty: still normal.
    const userEarlier = { limit: 5, remaining: 4, resetAt: base.now + 600, observedAt: base.now - 100 };
    assert.equal(statusBarView({ ...base, headroom: burst, userHeadroom: userEarlier }).severity, 'normal');
  });

  it("counts the user's own requests in a window: a user request arriving after a background burst is not low", () => {
    // The Node view's probe took 4 of 5 slots; the user's state read then saw remaining 0.
    const afterBurst = { limit: 5, remaining: 0, resetAt: base.now + 700, observedAt: base.now };
    const one = userHeadroomAfter(undefined, afterBurst);
    assert.equal(one.headroom.remaining, 4, 'the user has used one request of this window');
    assert.equal(
      statusBarView({ ...base, headroom: afterBurst, userHeadroom: one.headroom }).severity,
      'normal',
    );
    // The user's own burst: four requests of theirs in the same window leave them little.
    let own = one;
    for (let i = 0; i < 3; i++) own = userHeadroomAfter(own, { ...afterBurst, observedAt: base.now + i });
    assert.equal(own.count, 4);
    assert.equal(
      statusBarView({ ...base, headroom: afterBurst, userHeadroom: own.headroom }).severity,
      'warning',
    );
    // A new window starts the count again.
    const next = userHeadroomAfter(own, { ...afterBurst, resetAt: afterBurst.resetAt + 1000 });
    assert.equal(next.count, 1);
  });

  it("warns for a minute after a 429 to the user's own request, then stops; a background 429 does not colour", () => {
    const headroom = { limit: 5, remaining: 4, resetAt: base.now, observedAt: base.now };
    const lastError = { kind: 'rateLimited', message: '429 at GET /infos/version', at: base.now };
    assert.equal(statusBarView({ ...base, headroom, lastError }).severity, 'normal');
    assert.match(tooltipOf(statusBarView({ ...base, headroom, lastError })), /429 at GET \/infos\/version/);
    const userRefused = { ...base, headroom, lastError, user429At: base.now };
    assert.equal(statusBarView(userRefused).severity, 'warning');
    assert.equal(statusBarView(userRefused).nextChangeAt, base.now + 60_000);
    assert.equal(statusBarView({ ...userRefused, now: base.now + 61_000 }).severity, 'normal');
  });

  it('says plainly that the key was rejected after a 401', () => {
    const view = statusBarView({
      ...base,
      lastError: { kind: 'unauthorized', message: 'rejected', at: base.now },
    });
    assert.equal(view.text, '$(error) Alephium: API key rejected');
    assert.equal(view.severity, 'error');
  });

  it('puts the plan, the month count against the limit and the last error in the tooltip', () => {
    const view = statusBarView({
      ...base,
      usage: { keyId: 'k', month: '2026-11', count: 91_000, limit: 100_000, fraction: 0.91 },
      headroom: { limit: 5, remaining: 5, resetAt: base.now, observedAt: base.now },
      lastError: { kind: 'server', message: '500 at GET /infos/version', at: base.now },
    });
    assert.match(tooltipOf(view), /plan free/);
    assert.match(tooltipOf(view), /91,000 of 100,000 requests/);
    assert.match(tooltipOf(view), /500 at GET \/infos\/version/);
    // 91 % of the monthly budget used: worth a warning even with full per-second headroom.
    assert.equal(view.severity, 'warning');
  });

  it('decays to the full limit once the window has reset, text and tooltip alike, and says when to render again', () => {
    const exhausted = { limit: 5, remaining: 0, resetAt: base.now + 800, observedAt: base.now };
    const before = statusBarView({ ...base, headroom: exhausted, userHeadroom: exhausted });
    assert.match(before.text, /0\/5 req\/s · resets/);
    assert.match(tooltipOf(before), /0\/5 requests left this second, window resets at/);
    assert.equal(before.severity, 'warning');
    assert.equal(before.nextChangeAt, exhausted.resetAt, 'the controller re-renders at the reset');
    const after = statusBarView({
      ...base,
      headroom: exhausted,
      userHeadroom: exhausted,
      now: exhausted.resetAt + 1,
    });
    assert.equal(after.text, '$(pulse) Alephium: 5/5 req/s');
    // The old tooltip kept "0/5 requests left this second, window resets at <a time already past>".
    assert.doesNotMatch(tooltipOf(after), /left this second|resets at/);
    assert.match(tooltipOf(after), /Headroom: 5\/5 requests per second/);
    assert.equal(after.severity, 'normal');
    assert.equal(after.nextChangeAt, undefined, 'nothing changes by itself after that');
  });

  it('shows the request ledger in the tooltip after the month count', () => {
    const view = statusBarView({
      ...base,
      usage: { keyId: 'k', month: '2026-11', count: 193, limit: 100_000, fraction: 0.00193 },
      ledger: [safeMarkdown`Contracts: 120 · Node view: 40`],
    });
    assert.match(tooltipOf(view), /This month: 193 of 100,000 requests\s+Contracts: 120 · Node view: 40/);
  });

  it('says "no API key" when a gateway profile has none, instead of a limit', () => {
    const view = statusBarView({ ...base, hasKey: false });
    assert.equal(view.text, '$(key) Alephium: no API key');
    assert.equal(view.severity, 'warning');
    assert.match(tooltipOf(view), /Set API Key/);
  });

  it("says while the client's quota lock holds that the quota is used up, in red, until when", () => {
    const until = Date.UTC(2026, 11, 1);
    const view = statusBarView({ ...base, quotaUntil: until });
    assert.equal(view.text, '$(error) Alephium: quota used up until 2026-12-01');
    assert.equal(view.severity, 'error');
    assert.match(tooltipOf(view), /used up until 2026-12-01.*next command is still sent/);
    // Once lifted, the item is about headroom again, whatever the last error said.
    const lifted = statusBarView({
      ...base,
      headroom: { limit: 5, remaining: 5, resetAt: base.now - 1, observedAt: base.now - 2 },
      lastError: { kind: 'quota', message: 'monthly quota used up until 2026-12-01', at: base.now },
    });
    assert.equal(lifted.text, '$(pulse) Alephium: 5/5 req/s');
    assert.notEqual(lifted.severity, 'error');
  });
});
