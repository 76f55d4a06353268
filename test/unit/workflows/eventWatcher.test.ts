import assert from 'node:assert/strict';
import type { RequestOptions } from '../../../src/core/gateway/client';
import type { ContractEvent, ContractEventsPage } from '../../../src/core/gateway/schemas';
import {
  BUDGET_MONTH_MS,
  EventWatcher,
  MIN_POLL_INTERVAL_MS,
  eventKey,
  type CursorStore,
  type EventWatcherOptions,
  type WatchError,
  type WatcherClient,
  type WatcherTimers,
} from '../../../src/core/workflows/eventWatcher';

const A = '29E9VSez1vizNkuXApftPc6dkT4tGrHbNKVfyHDannagG';
const B = 'w7vg5opWnKUh2zKYFHBqyTghAJQrag6V3rzRd9PuNKF7';
const T0 = Date.UTC(2025, 4, 10, 12, 0, 0);

/** Time that only moves when the test says so; timers fire in order on `advance`. */
class FakeTimers implements WatcherTimers {
  time = T0;
  private seq = 0;
  timers: { id: number; at: number; cb: () => void }[] = [];
  now(): number {
    return this.time;
  }
  setTimeout(cb: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.push({ id, at: this.time + ms, cb });
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
      await settle();
    }
    this.time = target;
    await settle();
  }
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

  async getContractEventCount(address: string, options?: RequestOptions): Promise<number> {
    this.calls.push({ kind: 'count', address, priority: options?.priority });
    this.maybeFail('count');
    const log = this.logs.get(address);
    if (!log?.length && this.raw404) throw Object.assign(new Error('404'), { status: 404 });
    return log?.length ?? 0;
  }

  async getContractEvents(
    address: string,
    page: { start: number; limit?: number },
    options?: RequestOptions,
  ): Promise<ContractEventsPage> {
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

class MapStore implements CursorStore {
  data = new Map<string, string>();
  writes = 0;
  get(key: string): unknown {
    const v = this.data.get(key);
    return v === undefined ? undefined : JSON.parse(v);
  }
  async set(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
  }
}

function setup(opts: Partial<EventWatcherOptions> = {}) {
  const client = (opts.client as FakeClient | undefined) ?? new FakeClient();
  const store = (opts.store as MapStore | undefined) ?? new MapStore();
  const timers = (opts.timers as FakeTimers | undefined) ?? new FakeTimers();
  const watcher = new EventWatcher({ backlog: 'all', ...opts, client, store, timers });
  const received: ContractEvent[] = [];
  const errors: WatchError[] = [];
  watcher.onEvents((e) => received.push(...e.events));
  watcher.onError((e) => errors.push(e));
  return { client, store, timers, watcher, received, errors };
}

const values = (events: readonly ContractEvent[]) => events.map((e) => e.fields[0]?.value);

describe('event watcher: polling rules', () => {
  it('never polls a contract faster than 16 s, even when configured lower', async () => {
    const { client, timers, watcher } = setup({ intervalMs: 1_000 });
    assert.equal(watcher.intervalMs, MIN_POLL_INTERVAL_MS);
    watcher.watch(A);
    await watcher.pollOnce();
    await watcher.pollOnce();
    assert.equal(client.count('count'), 1, 'second poll at the same instant must not reach the server');
    await timers.advance(MIN_POLL_INTERVAL_MS - 1);
    assert.deepEqual((await watcher.pollOnce()).polled, []);
    assert.equal(client.count('count'), 1);
    await timers.advance(1);
    assert.deepEqual((await watcher.pollOnce()).polled, [A]);
    assert.equal(client.count('count'), 2);
    watcher.setIntervalMs(60_000);
    assert.equal(watcher.intervalMs, 60_000);
  });

  it('fetches events only when the count grew', async () => {
    const { client, timers, watcher, received } = setup();
    client.emit(A, 2);
    watcher.watch(A);
    await watcher.pollOnce();
    assert.deepEqual(values(received), ['1', '2']);
    assert.equal(client.count('events'), 1);
    for (let i = 0; i < 3; i++) {
      await timers.advance(MIN_POLL_INTERVAL_MS);
      await watcher.pollOnce();
    }
    assert.equal(client.count('count'), 4);
    assert.equal(client.count('events'), 1, 'no growth, no fetch');
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await watcher.pollOnce();
    assert.equal(client.count('events'), 2);
    assert.deepEqual(values(received), ['1', '2', '3']);
  });

  it('pages with nextStart across gaps (hidden Debug slots), never start + limit', async () => {
    const { client, watcher, received } = setup({ pageSize: 2 });
    // Slots: e1 D e2 D D e3 e4 D e5  (D = hidden debug)
    client.emit(A, 1);
    client.emit(A, 1, { hidden: true });
    client.emit(A, 1);
    client.emit(A, 2, { hidden: true });
    client.emit(A, 2);
    client.emit(A, 1, { hidden: true });
    client.emit(A, 1);
    watcher.watch(A);
    await watcher.pollOnce();
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
    const timers = new FakeTimers();
    const first = setup({ client, store, timers, pageSize: 3 });
    client.emit(A, 4);
    first.watcher.watch(A);
    await first.watcher.pollOnce();
    assert.deepEqual(values(first.received), ['1', '2', '3', '4']);
    first.watcher.dispose();

    // While the editor is closed, more events arrive.
    client.emit(A, 2, { hidden: true });
    client.emit(A, 3);
    await timers.advance(60_000);
    const second = setup({ client, store, timers, pageSize: 3 });
    second.watcher.watch(A);
    await second.watcher.pollOnce();
    assert.deepEqual(values(second.received), ['7', '8', '9']);
    const all = [...first.received, ...second.received].map(eventKey);
    assert.equal(new Set(all).size, all.length);
  });

  it('persists the cursor after every page, so a failure mid-way resumes without repeats', async () => {
    const { client, store, timers, watcher, received, errors } = setup({ pageSize: 2 });
    client.emit(A, 5);
    client.failNext.push({ kind: 'events', error: new Error('HTTP 500') });
    watcher.watch(A);
    // First poll: the first page fails; nothing is emitted, the loop survives.
    const r1 = await watcher.pollOnce();
    assert.deepEqual(r1.failed, [A]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.failures, 1);
    assert.equal(errors[0]!.retryInMs, MIN_POLL_INTERVAL_MS);

    await timers.advance(MIN_POLL_INTERVAL_MS);
    // Second poll: page 1 succeeds, page 2 fails.
    const firstPage = client.getContractEvents.bind(client);
    let pages = 0;
    client.getContractEvents = async (...args) => {
      if (++pages === 2) throw new Error('connection reset');
      return firstPage(...args);
    };
    await watcher.pollOnce();
    assert.deepEqual(values(received), ['1', '2']);
    assert.equal(JSON.parse(store.data.get(`alephium.eventCursor.${A}`)!).nextStart, 2);
    assert.equal(errors[1]!.failures, 2);
    assert.equal(errors[1]!.retryInMs, 2 * MIN_POLL_INTERVAL_MS, 'backoff doubles');

    client.getContractEvents = firstPage;
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.deepEqual((await watcher.pollOnce()).polled, [], 'still backing off');
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await watcher.pollOnce();
    assert.deepEqual(values(received), ['1', '2', '3', '4', '5']);
    assert.equal(watcher.cursor(A)?.lastCount, 5);
  });

  it('dedupes by (txId, eventIndex, fields) when a page is read again', async () => {
    const { client, store, watcher, received, timers } = setup();
    client.emit(A, 3);
    watcher.watch(A);
    await watcher.pollOnce();
    // Simulate a crash after emitting but before the cursor was saved: roll nextStart back.
    const key = `alephium.eventCursor.${A}`;
    const saved = JSON.parse(store.data.get(key)!);
    await store.set(key, { ...saved, nextStart: 1, lastCount: 1 });
    const again = setup({ client, store, timers });
    again.watcher.watch(A);
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await again.watcher.pollOnce();
    assert.deepEqual(values(again.received), ['4'], 'events 2 and 3 were already seen');
    assert.equal(received.length, 3);
  });

  it('two identical emits inside one page are both delivered', async () => {
    const { client, watcher, received } = setup();
    const tx = 'c'.repeat(64);
    client.emit(A, 2, { txId: tx, value: '5' });
    watcher.watch(A);
    await watcher.pollOnce();
    assert.equal(received.length, 2);
  });

  it('treats 404 (never emitted) as empty for both count and events', async () => {
    const { client, watcher, received, errors, timers } = setup();
    client.raw404 = true;
    watcher.watch(A);
    const r = await watcher.pollOnce();
    assert.deepEqual([r.polled, r.failed, errors.length], [[A], [], 0]);
    assert.equal(client.count('events'), 0);
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await watcher.pollOnce();
    assert.deepEqual(values(received), ['1']);
  });

  it('sends every request at background priority', async () => {
    const { client, watcher } = setup();
    client.emit(A, 2);
    watcher.watch(A);
    await watcher.pollOnce();
    assert.ok(client.calls.length >= 2);
    assert.deepEqual(new Set(client.calls.map((c) => c.priority)), new Set(['background']));
  });

  it('a newly watched contract shows only the last `backlog` events', async () => {
    const { client, watcher, received } = setup({ backlog: 3 });
    client.emit(A, 10);
    watcher.watch(A);
    await watcher.pollOnce();
    assert.deepEqual(values(received), ['8', '9', '10']);
    const none = setup({ backlog: 0, client });
    none.watcher.watch(A);
    await none.watcher.pollOnce();
    assert.deepEqual(none.received, []);
  });

  it('caps pages per poll and continues next time even though the count did not grow', async () => {
    const { client, watcher, received, timers } = setup({ pageSize: 2, maxPagesPerPoll: 2 });
    client.emit(A, 7);
    watcher.watch(A);
    await watcher.pollOnce();
    assert.equal(received.length, 4);
    assert.equal(watcher.cursor(A)?.pending, true);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await watcher.pollOnce();
    assert.deepEqual(values(received), ['1', '2', '3', '4', '5', '6', '7']);
    assert.equal(watcher.cursor(A)?.pending, false);
  });

  it('resets the cursor when the count goes down (another network or a reset devnet)', async () => {
    const { client, watcher, received, timers } = setup();
    const resets: string[] = [];
    watcher.onCursorReset((r) => resets.push(r.reason));
    client.emit(A, 5);
    watcher.watch(A);
    await watcher.pollOnce();
    client.logs.set(A, []);
    client.emit(A, 2, { value: 'new' });
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await watcher.pollOnce();
    assert.match(resets[0]!, /went down from 5 to 2/);
    client.emit(A, 1, { value: 'newer' });
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await watcher.pollOnce();
    assert.deepEqual(values(received).slice(5), ['newer']);
  });

  it('slows down 4× while unfocused, or pauses when configured to', async () => {
    const slow = setup();
    slow.watcher.setFocused(false);
    assert.equal(slow.watcher.intervalMs, 4 * MIN_POLL_INTERVAL_MS);
    slow.watcher.watch(A);
    await slow.watcher.pollOnce();
    await slow.timers.advance(MIN_POLL_INTERVAL_MS * 3);
    await slow.watcher.pollOnce();
    assert.equal(slow.client.count('count'), 1);
    slow.watcher.setFocused(true);
    await slow.watcher.pollOnce();
    assert.equal(slow.client.count('count'), 2, 'focus back: due again at the normal interval');

    const paused = setup({ whenUnfocused: 'pause' });
    paused.watcher.watch(A);
    paused.watcher.setFocused(false);
    assert.equal((await paused.watcher.pollOnce()).skipped, 'paused');
    assert.equal(paused.client.calls.length, 0);
  });

  it('runs on its own timer, survives errors, and stops', async () => {
    const { client, watcher, received, errors, timers } = setup();
    client.emit(A, 1);
    client.emit(B, 1);
    client.failNext.push({ kind: 'count', error: new Error('boom') });
    watcher.watch(A);
    watcher.watch(B);
    watcher.start();
    await timers.advance(0);
    assert.equal(errors.length, 1);
    assert.equal(received.length, 1, 'B still polled after A failed');
    client.emit(A, 1);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 3, 'A retried after its backoff and caught up');
    const before = client.calls.length;
    watcher.stop();
    await timers.advance(10 * MIN_POLL_INTERVAL_MS);
    assert.equal(client.calls.length, before);
    assert.equal(timers.timers.length, 0);
  });

  it('unwatch with forget drops the stored cursor', async () => {
    const { client, store, watcher } = setup();
    client.emit(A, 1);
    watcher.watch(A);
    await watcher.pollOnce();
    assert.ok(store.data.has(`alephium.eventCursor.${A}`));
    await watcher.unwatch(A, { forget: true });
    assert.equal(store.data.has(`alephium.eventCursor.${A}`), false);
    assert.deepEqual(watcher.watched, []);
    assert.throws(() => watcher.watch('nope'), /not a valid address/);
  });

  it('an unreadable stored cursor is reported and replaced', async () => {
    const { client, store, watcher, received } = setup();
    store.data.set(`alephium.eventCursor.${A}`, JSON.stringify({ nextStart: -1 }));
    const resets: string[] = [];
    watcher.onCursorReset((r) => resets.push(r.reason));
    client.emit(A, 2);
    watcher.watch(A);
    await watcher.pollOnce();
    assert.equal(resets.length, 1);
    assert.equal(received.length, 2);
  });
});

describe('event watcher: polls go through the background scheduler with a budget', () => {
  it('slows down when every poll finds new events, so busy contracts stay within the share', async () => {
    const { client, timers, watcher } = setup({ budget: { monthlyLimit: 100_000, share: 0.5 } });
    watcher.watch(A);
    watcher.start();
    const before = watcher.intervalMs;
    // A count plus the first guess of 0.25 page, at 90 % of 69.4 requests/h.
    assert.equal(before, 72_000);
    for (let i = 0; i < 40; i++) {
      client.emit(A); // busy: something new on every poll
      await timers.advance(watcher.intervalMs);
    }
    // Every poll cost a count and a page: the learned cost approaches 2, the interval 2 × 57.6 s.
    assert.ok(watcher.intervalMs > before * 1.5, `${watcher.intervalMs} vs ${before}`);
    const spent = client.count('count') + client.count('events');
    const elapsedShare = (timers.now() - T0) / BUDGET_MONTH_MS;
    assert.ok(spent <= 50_000 * elapsedShare + 2, `spent ${spent} against ${50_000 * elapsedShare}`);
    assert.ok(
      client.calls.every((c) => c.priority === 'background'),
      'polls never compete with user actions',
    );
    watcher.dispose();
  });

  it('speeds back up when contracts go quiet; unfocused polls 4 × slower, paused not at all', async () => {
    const { client, timers, watcher } = setup({ budget: { monthlyLimit: 100_000, share: 0.5 } });
    watcher.watch(A);
    watcher.start();
    await timers.advance(60 * 60_000);
    assert.ok(watcher.intervalMs < 60_000, `${watcher.intervalMs}`);
    const quiet = watcher.intervalMs;
    watcher.setFocused(false);
    assert.equal(watcher.intervalMs, quiet * 4);
    const n = client.calls.length;
    await watcher.unwatch(A);
    await timers.advance(60 * 60_000);
    assert.equal(client.calls.length, n, 'an unwatched contract is not polled');
    watcher.dispose();
  });

  it('a failing contract backs off through the scheduler and the others keep their turn', async () => {
    const { client, timers, watcher } = setup({ budget: { monthlyLimit: 100_000, share: 0.5 } });
    const errors: WatchError[] = [];
    watcher.onError((e) => errors.push(e));
    watcher.watch(A);
    watcher.watch(B);
    watcher.start();
    // A's polls fail (B is polled while A's failures are queued only for A's turns).
    const failA = client.getContractEventCount.bind(client);
    client.getContractEventCount = async (address, options) => {
      if (address === A) throw new Error('boom');
      return failA(address, options);
    };
    await timers.advance(30 * 60_000);
    assert.ok(errors.length >= 3);
    assert.ok(errors.every((e) => e.address === A));
    assert.ok(errors[2]!.retryInMs > 1.5 * errors[1]!.retryInMs, 'backoff grows');
    assert.ok(client.calls.filter((c) => c.address === B).length >= 10, 'B is not held up by A');
    watcher.dispose();
  });

  it('pollSoon: after the user changed a contract its events come at the 16 s floor, not a planned interval later', async () => {
    const { client, timers, watcher, received } = setup({ budget: { monthlyLimit: 100_000, share: 0.5 } });
    for (const a of [A, B]) watcher.watch(a);
    watcher.start();
    await timers.advance(60 * 60_000);
    assert.ok(watcher.intervalMs > 60_000, `${watcher.intervalMs}`);
    const before = received.length;
    client.emit(A);
    watcher.pollSoon(A);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, before + 1, 'the new event is delivered within the floor');
    watcher.dispose();
  });
});
