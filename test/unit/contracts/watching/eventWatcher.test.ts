import assert from 'node:assert/strict';
import type { RequestOptions } from '../../../../src/core/gateway/client';
import type { ContractEvent, ContractEventsPage } from '../../../../src/core/gateway/schemas';
import { addressFromContractId } from '../../../../src/core/protocol';
import { BackgroundScheduler, sharedScheduler } from '../../../../src/core/scheduling/backgroundScheduler';
import type { RunRecord } from '../../../../src/core/scheduling/jobs';
import {
  COUNT_CHECK_EVERY,
  EventWatcher,
  MIN_POLL_INTERVAL_MS,
  URGENT_POLLS,
} from '../../../../src/core/contracts/watching/eventWatcher';
import {
  eventKey,
  type CursorStore,
  type EventWatcherOptions,
  type WatchError,
  type WatcherClient,
} from '../../../../src/core/contracts/watching/watcherTypes';
import type { Timers } from '../../../../src/core/util/clock';
import { FakeTimers } from '../../../helpers/fakeTimers';

const A = '29E9VSez1vizNkuXApftPc6dkT4tGrHbNKVfyHDannagG';
const B = 'w7vg5opWnKUh2zKYFHBqyTghAJQrag6V3rzRd9PuNKF7';
/** June 2025: a 30-day month. */
const T0 = Date.UTC(2025, 5, 1, 9, 0, 0);

/** Time that only moves when the test says so; timers fire in order on `advance`, I/O settled after each. */
function newTimers(): FakeTimers & Timers {
  return new FakeTimers(T0, { settle, settleAtEnd: true });
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}

interface Slot {
  hidden: boolean;
  event: ContractEvent;
}

/**
 * A contract event log like the node's: every emit takes a counter slot, Debug events are hidden from
 * the listing (gaps), `nextStart` is where scanning stopped. Records every request.
 */
class FakeClient implements WatcherClient {
  logs = new Map<string, Slot[]>();
  calls: { kind: 'count' | 'events'; address: string; start?: number; limit?: number; priority?: string }[] =
    [];
  failNext: { kind: 'count' | 'events'; error: unknown }[] = [];
  /** Answer 404 (never emitted) as the raw node does, instead of the client's mapping. */
  raw404 = false;
  private n = 0;

  emit(address: string, count = 1, opts: { hidden?: boolean; value?: string; txId?: string } = {}): void {
    const log = this.logs.get(address) ?? [];
    this.logs.set(address, log);
    for (let i = 0; i < count; i++) {
      const k = ++this.n;
      log.push({
        hidden: opts.hidden ?? false,
        event: {
          blockHash: k.toString(16).padStart(64, 'b'),
          txId: opts.txId ?? k.toString(16).padStart(64, 'a'),
          contractAddress: address,
          eventIndex: 0,
          fields: [{ type: 'U256', value: opts.value ?? String(k) }],
        },
      });
    }
  }

  private maybeFail(kind: 'count' | 'events'): void {
    const i = this.failNext.findIndex((f) => f.kind === kind);
    if (i >= 0) {
      const [f] = this.failNext.splice(i, 1);
      throw f!.error;
    }
  }

  getContractEventCount(address: string, options?: RequestOptions): Promise<number> {
    return answer(() => {
      this.calls.push({ kind: 'count', address, priority: options?.priority });
      this.maybeFail('count');
      const log = this.logs.get(address);
      if (!log?.length && this.raw404) throw Object.assign(new Error('404'), { status: 404 });
      return log?.length ?? 0;
    });
  }

  getContractEvents(
    address: string,
    page: { start: number; limit?: number },
    options?: RequestOptions,
  ): Promise<ContractEventsPage> {
    return answer(() => this.eventsPage(address, page, options));
  }

  private eventsPage(
    address: string,
    page: { start: number; limit?: number },
    options?: RequestOptions,
  ): ContractEventsPage {
    this.calls.push({
      kind: 'events',
      address,
      start: page.start,
      limit: page.limit,
      priority: options?.priority,
    });
    this.maybeFail('events');
    const log = this.logs.get(address) ?? [];
    if (log.length === 0 || page.start > log.length) {
      if (this.raw404) throw Object.assign(new Error('404'), { status: 404 });
      return { events: [], nextStart: page.start };
    }
    const limit = page.limit ?? 100;
    const events: ContractEvent[] = [];
    let i = page.start;
    for (; i < log.length && events.length < limit; i++) if (!log[i]!.hidden) events.push(log[i]!.event);
    return { events, nextStart: i };
  }

  count(kind: 'count' | 'events', address?: string): number {
    return this.calls.filter((c) => c.kind === kind && (address === undefined || c.address === address))
      .length;
  }
}

/** Runs a fake's answer as an async method would: synchronously, with a throw becoming a rejection. */
function answer<T>(body: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(body()));
}

class MapStore implements CursorStore {
  data = new Map<string, string>();
  writes = 0;
  get(key: string): unknown {
    const v = this.data.get(key);
    return v === undefined ? undefined : JSON.parse(v);
  }
  set(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

function setup(opts: Partial<EventWatcherOptions> = {}) {
  const client = (opts.client as FakeClient | undefined) ?? new FakeClient();
  const store = (opts.store as MapStore | undefined) ?? new MapStore();
  const timers = (opts.timers as FakeTimers | undefined) ?? newTimers();
  const watcher = new EventWatcher({ backlog: 'all', ...opts, client, store, timers });
  const received: ContractEvent[] = [];
  const errors: WatchError[] = [];
  watcher.onEvents((e) => received.push(...e.events));
  watcher.onError((e) => errors.push(e));
  /** Starts watching `addresses`; a contract never seen before is polled at once. */
  const begin = async (...addresses: string[]) => {
    for (const a of addresses) watcher.watch(a);
    watcher.start();
    await timers.advance(0);
  };
  return { client, store, timers, watcher, received, errors, begin };
}

const values = (events: readonly ContractEvent[]) => events.map((e) => e.fields[0]?.value);
const cursorKey = (a: string) => `alephium.eventCursor.${a}`;

describe('event watcher: polling rules', () => {
  it('never polls a contract faster than 16 s, even when configured lower; a longer setting is a minimum', async () => {
    const { client, timers, watcher, begin } = setup({ intervalMs: 1_000 });
    assert.equal(watcher.intervalMs, MIN_POLL_INTERVAL_MS);
    await begin(A);
    assert.equal(client.count('count'), 1);
    await timers.advance(MIN_POLL_INTERVAL_MS - 1);
    assert.equal(client.count('count'), 1);
    await timers.advance(1);
    assert.equal(client.count('count'), 2);
    watcher.setIntervalMs(60_000);
    assert.equal(watcher.intervalMs, 60_000);
    await timers.advance(59_999);
    assert.equal(client.count('count'), 2);
    await timers.advance(1);
    assert.equal(client.count('count'), 3);
  });

  it('reading the count first, pages are fetched only when it grew', async () => {
    const { client, store, timers, received, begin } = setup();
    client.emit(A, 2);
    // Known from an earlier session, quiet so far: it reads the count first.
    await store.set(cursorKey(A), { nextStart: 2, lastCount: 2, seen: [], pending: false });
    await begin(A);
    for (let i = 0; i < 3; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(client.count('count'), 4);
    assert.equal(client.count('events'), 0, 'no growth, no fetch');
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(client.count('count'), 5);
    assert.equal(client.count('events'), 1);
    assert.deepEqual(values(received), ['3']);
  });

  it('a busy contract learns to read the next page directly: one request per delivered poll, following nextStart', async () => {
    const { client, timers, watcher, received, begin } = setup();
    client.emit(A, 1);
    client.emit(A, 1, { hidden: true });
    await begin(A);
    const polls = 40;
    for (let i = 0; i < polls - 1; i++) {
      client.emit(A, 1);
      if (i % 3 === 0) client.emit(A, 1, { hidden: true }); // gaps: nextStart, not start + limit
      await timers.advance(MIN_POLL_INTERVAL_MS);
    }
    assert.equal(received.length, polls);
    assert.equal(new Set(received.map(eventKey)).size, polls, 'each once');
    const requests = client.calls.length;
    // Count first (2 requests) only on the session's first poll, the one that taught it, and every
    // 20th poll; one page each otherwise. Always reading the count first would cost 2 × 40 = 80.
    assert.ok(requests <= polls + 4, `${requests} requests for ${polls} polls`);
    assert.ok(client.count('count') >= Math.floor(polls / COUNT_CHECK_EVERY), 'the count is still checked');
    assert.equal(watcher.pollWay(A), 'page');
  });

  it('a contract that goes quiet goes back to reading the count', async () => {
    const { client, timers, watcher, begin } = setup();
    await begin(A);
    for (let i = 0; i < 5; i++) {
      client.emit(A, 1);
      await timers.advance(MIN_POLL_INTERVAL_MS);
    }
    const kinds = (from: number) => client.calls.slice(from).map((c) => c.kind);
    let from = client.calls.length;
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(kinds(from), ['events'], 'busy: the next page directly');
    for (let i = 0; i < 15; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    from = client.calls.length;
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(kinds(from), ['count'], 'quiet again: the count');
    assert.equal(watcher.pollWay(A), 'count');
  });

  it('reading pages directly, a count that went down (a reset devnet) is still noticed within 20 polls', async () => {
    const { client, timers, watcher, received, begin } = setup();
    const resets: string[] = [];
    watcher.onCursorReset((r) => resets.push(r.reason));
    await begin(A);
    for (let i = 0; i < 5; i++) {
      client.emit(A, 1);
      await timers.advance(MIN_POLL_INTERVAL_MS);
    }
    const before = client.calls.length;
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(
      client.calls.slice(before).map((c) => c.kind),
      ['events'],
      'reading pages directly',
    );
    client.logs.set(A, []);
    client.emit(A, 2, { value: 'new' });
    for (let i = 0; i < COUNT_CHECK_EVERY && resets.length === 0; i++)
      await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.match(resets[0] ?? '', /went down from 6 to 2/);
    client.emit(A, 1, { value: 'newer' });
    await timers.advance(2 * MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(received).slice(6), ['newer']);
  });

  it('what a contract learned survives a reload: the first poll reads the count, the next ones a page', async () => {
    const client = new FakeClient();
    const store = new MapStore();
    const timers = newTimers();
    const first = setup({ client, store, timers });
    await first.begin(A);
    for (let i = 0; i < 5; i++) {
      client.emit(A, 1);
      await timers.advance(MIN_POLL_INTERVAL_MS);
    }
    first.watcher.dispose();
    const stored = JSON.parse(store.data.get(cursorKey(A))!) as { costs?: { count: number; page: number } };
    assert.ok(stored.costs && stored.costs.page < stored.costs.count, JSON.stringify(stored.costs));

    client.emit(A, 1);
    const second = setup({ client, store, timers });
    const before = client.calls.length;
    await second.begin(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(
      client.calls.slice(before).map((c) => c.kind),
      ['count', 'events', 'events'],
      'count + page on the session’s first poll, then one page',
    );
    assert.equal(second.received.length, 1);
  });

  it('pages with nextStart across gaps (hidden Debug slots), never start + limit', async () => {
    const { client, watcher, received, begin } = setup({ pageSize: 2 });
    // Slots: e1 D e2 D D e3 e4 D e5  (D = hidden debug)
    client.emit(A, 1);
    client.emit(A, 1, { hidden: true });
    client.emit(A, 1);
    client.emit(A, 2, { hidden: true });
    client.emit(A, 2);
    client.emit(A, 1, { hidden: true });
    client.emit(A, 1);
    await begin(A);
    const starts = client.calls.filter((c) => c.kind === 'events').map((c) => c.start);
    // start + limit would give 0, 2, 4, 6, 8; the server's nextStart gives 0, 3, 7 (after e2 at slot 2, e4 at slot 6).
    assert.deepEqual(starts, [0, 3, 7]);
    assert.equal(received.length, 5);
    assert.equal(new Set(received.map(eventKey)).size, 5);
    assert.deepEqual(watcher.cursor(A)?.nextStart, 9);
  });

  it('emits each event exactly once across a restart (cursor persisted), no miss, no repeat', async () => {
    const client = new FakeClient();
    const store = new MapStore();
    const timers = newTimers();
    const first = setup({ client, store, timers, pageSize: 3 });
    client.emit(A, 4);
    await first.begin(A);
    assert.deepEqual(values(first.received), ['1', '2', '3', '4']);
    first.watcher.dispose();

    // While the editor is closed, more events arrive.
    client.emit(A, 2, { hidden: true });
    client.emit(A, 3);
    await timers.advance(60_000);
    const second = setup({ client, store, timers, pageSize: 3 });
    await second.begin(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(second.received), ['7', '8', '9']);
    const all = [...first.received, ...second.received].map(eventKey);
    assert.equal(new Set(all).size, all.length);
  });

  it('persists the cursor after every page, so a failure mid-way resumes without repeats', async () => {
    const { client, store, timers, watcher, received, errors, begin } = setup({ pageSize: 2 });
    client.emit(A, 5);
    client.failNext.push({ kind: 'events', error: new Error('HTTP 500') });
    // First poll: the first page fails; nothing is emitted, the contract is tried again.
    await begin(A);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.failures, 1);
    assert.equal(errors[0]!.retryInMs, MIN_POLL_INTERVAL_MS);

    // Second poll: page 1 succeeds, page 2 fails.
    const firstPage = client.getContractEvents.bind(client);
    let pages = 0;
    client.getContractEvents = async (...args) => {
      if (++pages === 2) throw new Error('connection reset');
      return firstPage(...args);
    };
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(received), ['1', '2']);
    assert.equal((JSON.parse(store.data.get(cursorKey(A))!) as { nextStart: unknown }).nextStart, 2);
    assert.equal(errors[1]!.failures, 2);
    assert.equal(errors[1]!.retryInMs, 2 * MIN_POLL_INTERVAL_MS, 'backoff doubles');

    client.getContractEvents = firstPage;
    const calls = client.calls.length;
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(client.calls.length, calls, 'still backing off');
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(received), ['1', '2', '3', '4', '5']);
    assert.equal(watcher.cursor(A)?.lastCount, 5);
  });

  it('dedupes by (txId, eventIndex, fields) when a page is read again', async () => {
    const { client, store, received, timers, watcher, begin } = setup();
    client.emit(A, 3);
    await begin(A);
    watcher.dispose();
    // Simulate a crash after emitting but before the cursor was saved: roll nextStart back.
    const saved = JSON.parse(store.data.get(cursorKey(A))!) as Record<string, unknown>;
    const again = setup({ client, store, timers });
    await store.set(cursorKey(A), { ...saved, nextStart: 1, lastCount: 1 });
    client.emit(A, 1);
    await again.begin(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(again.received), ['4'], 'events 2 and 3 were already seen');
    assert.equal(received.length, 3);
  });

  it('two identical emits inside one page are both delivered', async () => {
    const { client, received, begin } = setup();
    const tx = 'c'.repeat(64);
    client.emit(A, 2, { txId: tx, value: '5' });
    await begin(A);
    assert.equal(received.length, 2);
  });

  it('treats 404 (never emitted) as empty for both count and events', async () => {
    const { client, received, errors, timers, begin } = setup();
    client.raw404 = true;
    await begin(A);
    assert.deepEqual([client.count('count'), errors.length], [1, 0]);
    assert.equal(client.count('events'), 0);
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(received), ['1']);
  });

  it('sends every request at background priority', async () => {
    const { client, begin } = setup();
    client.emit(A, 2);
    await begin(A);
    assert.ok(client.calls.length >= 2);
    assert.deepEqual(new Set(client.calls.map((c) => c.priority)), new Set(['background']));
  });

  it('a newly watched contract shows only the last `backlog` events', async () => {
    const { client, received, begin } = setup({ backlog: 3 });
    client.emit(A, 10);
    await begin(A);
    assert.deepEqual(values(received), ['8', '9', '10']);
    const none = setup({ backlog: 0, client });
    await none.begin(B);
    client.emit(B, 2);
    assert.deepEqual(none.received, []);
  });

  it('caps pages per poll and continues next time even though the count did not grow', async () => {
    const { client, watcher, received, timers, begin } = setup({ pageSize: 2, maxPagesPerPoll: 2 });
    client.emit(A, 7);
    await begin(A);
    assert.equal(received.length, 4);
    assert.equal(watcher.cursor(A)?.pending, true);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(received), ['1', '2', '3', '4', '5', '6', '7']);
    assert.equal(watcher.cursor(A)?.pending, false);
  });

  it('resets the cursor when the count went down while VS Code was closed (another network, a reset devnet)', async () => {
    const client = new FakeClient();
    const store = new MapStore();
    const timers = newTimers();
    const first = setup({ client, store, timers });
    client.emit(A, 5);
    await first.begin(A);
    first.watcher.dispose();
    client.logs.set(A, []);
    client.emit(A, 2, { value: 'new' });
    const second = setup({ client, store, timers });
    const resets: string[] = [];
    second.watcher.onCursorReset((r) => resets.push(r.reason));
    await second.begin(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.match(resets[0]!, /went down from 5 to 2/);
    client.emit(A, 1, { value: 'newer' });
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual(values(second.received), ['newer']);
  });

  it('slows down 4× while unfocused, or pauses when configured to', async () => {
    const slow = setup();
    slow.watcher.setFocused(false);
    assert.equal(slow.watcher.intervalMs, 4 * MIN_POLL_INTERVAL_MS);
    await slow.begin(A);
    await slow.timers.advance(MIN_POLL_INTERVAL_MS * 3);
    assert.equal(slow.client.count('count'), 1);
    slow.watcher.setFocused(true);
    await slow.timers.advance(0);
    assert.equal(slow.client.count('count'), 2, 'focus back: due again at the normal interval');

    const paused = setup({ whenUnfocused: 'pause' });
    paused.watcher.setFocused(false);
    await paused.begin(A);
    await paused.timers.advance(10 * MIN_POLL_INTERVAL_MS);
    assert.equal(paused.watcher.intervalMs, Infinity);
    assert.equal(paused.client.calls.length, 0);
  });

  it('runs as jobs of the scheduler, survives errors, and stops', async () => {
    const { client, watcher, received, errors, timers, begin } = setup();
    client.emit(A, 1);
    client.emit(B, 1);
    client.failNext.push({ kind: 'count', error: new Error('boom') });
    await begin(A, B);
    assert.equal(errors.length, 1);
    assert.equal(received.length, 1, 'B still polled after A failed');
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 3, 'A retried after its backoff and caught up');
    const before = client.calls.length;
    watcher.stop();
    await timers.advance(10 * MIN_POLL_INTERVAL_MS);
    assert.equal(client.calls.length, before);
    assert.equal(timers.timers.length, 0, 'no timer left behind');
  });

  it('unwatch with forget drops the stored cursor', async () => {
    const { client, store, watcher, begin } = setup();
    client.emit(A, 1);
    await begin(A);
    assert.ok(store.data.has(cursorKey(A)));
    await watcher.unwatch(A, { forget: true });
    assert.equal(store.data.has(cursorKey(A)), false);
    assert.deepEqual(watcher.watched, []);
    assert.throws(() => watcher.watch('nope'), /not a valid address/);
  });

  it('an unreadable stored cursor is reported and replaced', async () => {
    const { client, store, watcher, received, timers, begin } = setup();
    store.data.set(cursorKey(A), JSON.stringify({ nextStart: -1 }));
    const resets: string[] = [];
    watcher.onCursorReset((r) => resets.push(r.reason));
    client.emit(A, 2);
    await begin(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(resets.length, 1);
    assert.equal(received.length, 2);
  });
});

/** Free plan, 50 % (the default share). */
const FREE = { monthlyLimit: 100_000, share: 0.5 };

describe('event watcher: through the background scheduler', () => {
  it('every poll is a job of the scheduler, also with an explicit interval: there is no second loop', async () => {
    const timers = newTimers();
    const client = new FakeClient();
    // The scheduler everything using this client shares (the watcher finds the same one).
    const scheduler = sharedScheduler(client, () => new BackgroundScheduler({ timers }));
    const runs: RunRecord[] = [];
    scheduler.onDidRun((r) => runs.push(r));
    const { begin } = setup({ client, timers, intervalMs: 30_000 });
    await begin(A, B);
    await timers.advance(5 * 60_000);
    const polls = client.count('count') + client.count('events');
    assert.equal(
      runs.filter((r) => r.kind === 'contract').reduce((n, r) => n + r.requests, 0),
      polls,
    );
    assert.ok(runs.length >= 20, `${runs.length} runs`);
    assert.ok(runs.every((r) => r.intervalMs === 30_000));
    scheduler.dispose();
  });

  it('an explicit interval is a minimum: the budget can still make it longer', async () => {
    const { watcher, begin } = setup({ budget: FREE, intervalMs: 30_000 });
    await begin(A);
    assert.equal(watcher.intervalMs, 30_000, 'one contract fits the budget at 30 s');
    const many = setup({ budget: FREE, intervalMs: 30_000 });
    const addresses = Array.from({ length: 20 }, (_, i) =>
      addressFromContractId(i.toString(16).padStart(64, '0')),
    );
    await many.begin(...addresses);
    assert.ok(many.watcher.intervalMs > 5 * 60_000, `${many.watcher.intervalMs}`);
    assert.match(many.watcher.explanation(), /within 50 % of 100000 requests\/month/);
  });

  it('busy contracts stay within the pace, at background priority', async () => {
    const { client, timers, watcher, begin } = setup({ budget: FREE });
    await begin(A, B);
    const perHour: number[] = [];
    for (let h = 0; h < 3; h++) {
      const before = client.calls.length;
      const allowed = watcher['scheduler'].plan().hourlyShare;
      for (let m = 0; m < 60; m++) {
        client.emit(A); // busy: something new on every poll
        client.emit(B);
        await timers.advance(60_000);
      }
      perHour.push(client.calls.length - before);
      assert.ok(perHour[h]! <= allowed, `hour ${h + 1}: ${perHour[h]} > ${allowed}`);
    }
    assert.ok(
      client.calls.every((c) => c.priority === 'background'),
      'polls never compete with user actions',
    );
  });

  it('a failing contract backs off through the scheduler and the others keep their turn', async () => {
    const { client, timers, watcher, begin } = setup({ budget: FREE });
    const errors: WatchError[] = [];
    watcher.onError((e) => errors.push(e));
    const failA = client.getContractEventCount.bind(client);
    client.getContractEventCount = async (address, options) => {
      if (address === A) throw new Error('boom');
      return failA(address, options);
    };
    await begin(A, B);
    await timers.advance(30 * 60_000);
    assert.ok(errors.length >= 3);
    assert.ok(errors.every((e) => e.address === A));
    assert.ok(errors[2]!.retryInMs > 1.5 * errors[1]!.retryInMs, 'backoff grows');
    assert.ok(client.calls.filter((c) => c.address === B).length >= 10, 'B is not held up by A');
  });

  it('pollSoon: a contract the user just changed is polled at the 16 s floor until its result is in', async () => {
    const { client, timers, watcher, received } = setup({ budget: FREE });
    const others = Array.from({ length: 20 }, (_, i) =>
      addressFromContractId(i.toString(16).padStart(64, '0')),
    );
    for (const a of [A, ...others]) watcher.watch(a);
    watcher.start();
    await timers.advance(60 * 60_000);
    assert.ok(watcher.intervalMs > 5 * 60_000, `${watcher.intervalMs}`);
    const polled = () => client.calls.filter((c) => c.address === A).length;
    const before = polled();
    watcher.pollSoon(A);
    // Polled at once (its floor has long passed); the transaction is not indexed yet, at the next poll it is.
    await timers.advance(0);
    assert.equal(polled(), before + 1);
    client.emit(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 1, 'the event is delivered at the floor, not a planned interval later');

    // Nothing ever comes: at the floor URGENT_POLLS times, then its turn again (here, unfocused, a
    // slowed turn: nothing else can run it early).
    watcher.setFocused(false);
    await timers.advance(60 * 60_000);
    watcher.pollSoon(A);
    const start = polled();
    await timers.advance((URGENT_POLLS + 2) * MIN_POLL_INTERVAL_MS);
    assert.equal(polled() - start, URGENT_POLLS);
  });

  it('contracts shown in a focused window are polled first; unfocused, nobody looks', async () => {
    const { timers, watcher } = setup({ budget: FREE });
    const others = Array.from({ length: 9 }, (_, i) =>
      addressFromContractId(i.toString(16).padStart(64, '0')),
    );
    for (const a of [A, ...others]) watcher.watch(a);
    watcher.start();
    await timers.advance(30 * 60_000);
    const equal = watcher.intervalOf(A)!;
    assert.equal(watcher.intervalOf(others[0]!), equal);
    watcher.setVisible([A]);
    assert.ok(watcher.intervalOf(A)! < equal / 3, `${watcher.intervalOf(A)} vs ${equal}`);
    assert.ok(watcher.intervalOf(others[0]!)! > equal);
    watcher.setFocused(false);
    assert.equal(watcher.intervalOf(A), watcher.intervalOf(others[0]!));
    watcher.setFocused(true);
    watcher.setVisible([]);
    assert.equal(watcher.intervalOf(A), watcher.intervalOf(others[0]!));
  });
});
