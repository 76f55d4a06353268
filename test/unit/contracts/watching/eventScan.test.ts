/**
 * The scan (issue 32): one read of `/blockflow/blocks-with-events` a round serves every watched contract,
 * and nothing is missed or repeated: a block that arrives late, a fork's re-included transaction, Debug
 * gaps in the counters, a contract added mid-window, a reload between two rounds, a gateway without the
 * endpoint. The endpoint's shape is the node's `BlocksAndEventsPerTimeStampRange` (node-openapi.json).
 */
import assert from 'node:assert/strict';
import type { BlocksAndEvents, ContractEvent } from '../../../../src/core/gateway/schemas';
import { addressFromContractId } from '../../../../src/core/protocol';
import {
  CLOCK_TOLERANCE_MS,
  EventScan,
  MAX_CATCH_UP_MS,
  SCAN_LOOKAHEAD_MS,
  SCAN_OVERLAP_MS,
} from '../../../../src/core/contracts/watching/eventScan';
import { EventWatcher, MIN_POLL_INTERVAL_MS } from '../../../../src/core/contracts/watching/eventWatcher';
import { SAFETY_NET_INTERVAL_MS } from '../../../../src/core/contracts/watching/scanJob';
import {
  eventKey,
  type CursorStore,
  type WatcherBudget,
} from '../../../../src/core/contracts/watching/watcherTypes';
import { FakeTimers } from '../../../helpers/fakeTimers';
import { BackgroundScheduler } from '../../../../src/core/scheduling/backgroundScheduler';
import { ScanChain } from './scanChain';
import type { ScanBlock } from '../../../../src/core/contracts/watching/eventScan';
import { readBlocksWithEventsRange, type ReadPart } from '../../../../src/core/gateway/blocksRange';
import { GatewayHttpError, ResponseTooLargeError } from '../../../../src/core/gateway/errors';

const T0 = Date.UTC(2025, 5, 2, 9, 0, 0);
const contracts = (n: number) =>
  Array.from({ length: n }, (_, i) => addressFromContractId((i + 1).toString(16).padStart(64, '0')));
const [A, B] = contracts(2) as [string, string];

class MapStore implements CursorStore {
  readonly data = new Map<string, string>();
  get(key: string): unknown {
    const v = this.data.get(key);
    return v === undefined ? undefined : JSON.parse(v);
  }
  set(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}

function setup(
  options: {
    store?: MapStore;
    timers?: FakeTimers;
    chain?: ScanChain;
    maxPagesPerPoll?: number;
    budget?: WatcherBudget;
    scheduler?: BackgroundScheduler;
  } = {},
) {
  const timers = options.timers ?? new FakeTimers(T0, { settle, settleAtEnd: true });
  const chain = options.chain ?? new ScanChain(() => timers.now());
  const store = options.store ?? new MapStore();
  const watcher = new EventWatcher({
    client: chain,
    store,
    timers,
    backlog: 0,
    scan: true,
    ...(options.maxPagesPerPoll ? { maxPagesPerPoll: options.maxPagesPerPoll } : {}),
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
  });
  const received: ContractEvent[] = [];
  const ways: string[] = [];
  watcher.onEvents((e) => received.push(...e.events));
  watcher.onWayChanged((w) => ways.push(w.reason));
  const begin = async (addresses: readonly string[]) => {
    for (const a of addresses) watcher.watch(a);
    watcher.start();
    await timers.advance(0);
  };
  return { timers, chain, store, watcher, received, ways, begin };
}

const keys = (events: readonly ContractEvent[]) => events.map(eventKey);
const once = (events: readonly ContractEvent[]) => new Set(keys(events)).size === events.length;

describe('event scan: one read of the new blocks serves every contract', () => {
  it('with 10 contracts each round is one request, and every event reaches its contract within a round', async () => {
    const all = contracts(10);
    const { timers, chain, watcher, received, ways, begin } = setup();
    await begin(all);
    assert.equal(chain.count('count'), 10, 'each contract reads its count once: where its news starts');
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(watcher.intervalOf(all[0]!), MIN_POLL_INTERVAL_MS, 'the scan serves them at the floor');
    assert.match(ways.join('\n'), /scanning blocks: a scan 1 request\(s\) a round, polling 10 contract\(s\)/);
    const before = chain.calls.length;
    const rounds = 20;
    for (let r = 0; r < rounds; r++) {
      chain.mine([all[r % 10]!, all[(r + 3) % 10]!]);
      await timers.advance(MIN_POLL_INTERVAL_MS);
      assert.equal(received.length, 2 * (r + 1), `round ${r}: both events delivered within the round`);
    }
    assert.equal(chain.calls.length - before, rounds, 'one scan a round, no count poll beside it');
    assert.ok(once(received));
  });

  it('on a clock 4 min fast or 4 min slow, every event still reaches its contract within a round, once', async () => {
    for (const offMs of [4 * 60_000, -4 * 60_000]) {
      const timers = new FakeTimers(T0, { settle, settleAtEnd: true });
      const chain = new ScanChain(() => timers.now() - offMs);
      const { received, begin } = setup({ timers, chain });
      await begin([A, B]);
      await timers.advance(MIN_POLL_INTERVAL_MS);
      for (let r = 0; r < 10; r++) {
        chain.mine([r % 2 ? A : B], { chain: r });
        await timers.advance(MIN_POLL_INTERVAL_MS);
        assert.equal(received.length, r + 1, `clock off by ${offMs / 60_000} min, round ${r}`);
      }
      assert.ok(once(received));
    }
  });

  it('focus regained after a night speeds up the scan, not the safety nets: none comes due at once', async () => {
    const all = contracts(50);
    const { timers, chain, watcher, begin } = setup();
    await begin(all);
    watcher.setFocused(false);
    await timers.advance(10 * 60 * 60_000);
    const counts = chain.count('count');
    const scans = chain.count('scan');
    watcher.setFocused(true);
    await timers.advance(5 * 60_000);
    assert.equal(chain.count('count') - counts, 0, 'no safety-net poll in the first five minutes');
    assert.ok(
      chain.count('scan') - scans >= (5 * 60_000) / (1.25 * MIN_POLL_INTERVAL_MS) - 1,
      'the scan at its floor',
    );
  });

  it('a focused day on Free, then the window is left: the overdue safety nets wait for the pace, the scan keeps its own', async () => {
    // The session bench (bench/session.ts, 50 contracts, the Node view beside them): stretched to what the
    // scan leaves over while focused, the nets were all overdue when the window was left, and their burst
    // filled the sliding hour and held the scan to 1.39 × its interval.
    const all = contracts(50);
    const timers = new FakeTimers(T0, { settle, settleAtEnd: true });
    const scheduler = new BackgroundScheduler({ timers });
    const node = scheduler.add({
      kind: 'node',
      minIntervalMs: 40_000,
      fixedPace: true,
      run: () => Promise.resolve({ requests: 1 }),
    });
    const budget = { monthlyLimit: 100_000, share: 0.5 };
    const { chain, watcher, begin } = setup({ timers, scheduler, budget });
    const scannedAt: number[] = [];
    const read = chain.readBlocksWithEvents.bind(chain);
    chain.readBlocksWithEvents = (from, to, options) => {
      scannedAt.push(timers.now());
      return read(from, to, options);
    };
    await begin(all);
    await timers.advance(16 * 60 * 60_000);
    watcher.setFocused(false);
    const leftAt = timers.now();
    const counts = chain.count('count');
    await timers.advance(60 * 60_000);
    const interval = watcher.intervalOf(all[0]!)!;
    const after = [leftAt, ...scannedAt.filter((t) => t > leftAt)];
    const longest = Math.max(...after.slice(1).map((t, i) => t - after[i]!));
    assert.ok(chain.count('count') - counts >= 25, 'the overdue nets do run within the hour');
    assert.ok(
      longest <= 1.25 * interval,
      `a scan ${longest / 1000} s after the last (interval ${interval / 1000} s)`,
    );
    node.dispose();
    watcher.dispose();
  });

  it('a first scan dearer than one contract’s poll, then a second contract: the scan serves them (it never stalls)', async () => {
    const { timers, chain, watcher, received, ways } = setup();
    // As in `npm start`: the first window (the clock's tolerance both ways) is split on the gateway's span.
    chain.scanCosts = [3];
    watcher.watch(A);
    watcher.start();
    await timers.advance(0);
    await timers.advance(1_000);
    watcher.watch(B);
    await timers.advance(1_000);
    const scans = chain.count('scan');
    for (let i = 0; i < 4; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.ok(
      chain.count('scan') - scans >= 3,
      `${chain.count('scan') - scans} scans in 4 floors; ${ways.join(' / ')}`,
    );
    chain.mine([A, B]);
    await timers.advance(2 * MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 2, ways.join(' / '));
  });

  it('a block mined late (inside the overlap) is read by the next window, once', async () => {
    const { timers, chain, received, begin } = setup();
    await begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    chain.mine([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    // Its timestamp is in the window the last round already read: only the overlap finds it.
    chain.mine([A], { ageMs: SCAN_OVERLAP_MS / 2 });
    for (let i = 0; i < 5; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 2);
    assert.ok(once(received));
  });

  it('a block later than the overlap is found by the contract safety-net poll, once', async () => {
    const { timers, chain, received, begin } = setup();
    await begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    chain.mine([A], { ageMs: 10 * SCAN_OVERLAP_MS });
    for (let i = 0; i < 4; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 0, 'no window holds it any more');
    await timers.advance(SAFETY_NET_INTERVAL_MS);
    assert.equal(received.length, 1, 'the count grew: the safety net read it');
    chain.mine([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 2);
    assert.ok(once(received));
  });

  it('a transaction re-included after a fork is delivered once, and its safety-net page repeats nothing', async () => {
    const { timers, chain, received, begin } = setup();
    await begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    chain.mine([A], { chain: 3 });
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 1);
    chain.fork(3);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    await timers.advance(SAFETY_NET_INTERVAL_MS);
    assert.equal(received.length, 1, 'the sibling block holds the same event: not news');
  });

  it('Debug gaps in the counter: the scan delivers the visible events and the safety net moves past the gaps', async () => {
    const { timers, chain, watcher, received, begin } = setup();
    await begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    chain.mine([{ address: A, hidden: true }, A, { address: A, hidden: true }]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 1);
    await timers.advance(SAFETY_NET_INTERVAL_MS);
    assert.equal(watcher.cursor(A)?.nextStart, 3, 'the count poll followed nextStart over the gaps');
    assert.equal(received.length, 1);
  });

  it('a contract added mid-window gets what happens after its first count, once', async () => {
    const { timers, chain, watcher, received, begin } = setup();
    await begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    chain.mine([B]); // before B is watched: not news for it
    await timers.advance(MIN_POLL_INTERVAL_MS / 2);
    watcher.watch(B);
    await timers.advance(0);
    chain.mine([B]);
    for (let i = 0; i < 3; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    await timers.advance(SAFETY_NET_INTERVAL_MS);
    assert.deepEqual(
      received.map((e) => e.contractAddress),
      [B],
    );
  });

  it('a reload between two rounds repeats and misses nothing: the overlap block hashes are kept', async () => {
    const store = new MapStore();
    const timers = new FakeTimers(T0, { settle, settleAtEnd: true });
    const first = setup({ store, timers });
    await first.begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    first.chain.mine([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    first.watcher.dispose();
    first.chain.mine([A]);
    const second = setup({ store, timers, chain: first.chain });
    await second.begin([A]);
    for (let i = 0; i < 3; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(first.received.length, 1);
    assert.equal(second.received.length, 1, 'the first block is in the overlap but was handed over');
    assert.ok(once([...first.received, ...second.received]));
  });

  it('a long catch-up by pages after the scan handed over the newest event does not repeat it', async () => {
    const store = new MapStore();
    // Two pages a poll: the catch-up takes several polls, and the scan hands over the newest in between.
    const { timers, chain, received, begin } = setup({ store, maxPagesPerPoll: 2 });
    // 700 events since this contract's stored cursor (VS Code was closed): more than the 500 keys kept.
    for (let i = 0; i < 700; i++) chain.mine([A], { ageMs: 3 * 60 * 60_000 - i });
    await store.set(`alephium.eventCursor.${A}`, { nextStart: 0, lastCount: 0, seen: [], pending: false });
    await begin([A]);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    const newest = chain.mine([A]);
    for (let i = 0; i < 4; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    // The safety nets run at the unfocused pace (4× slower) while the scan serves, focused or not.
    for (let i = 0; i < 20; i++) await timers.advance(SAFETY_NET_INTERVAL_MS);
    assert.equal(received.filter((e) => e.txId === newest).length, 1);
    assert.ok(once(received), 'nothing twice');
    assert.equal(received.length, 701);
  });

  it('a gateway without blocks-with-events (404): each contract polls, as without a scan', async () => {
    const all = contracts(3);
    const { timers, chain, watcher, received, ways, begin } = setup();
    chain.scanNotServed = true;
    await begin(all);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(chain.count('scan'), 1, 'asked once, never again');
    assert.match(ways.at(-1) ?? '', /does not serve \/blockflow\/blocks-with-events \(404\)/);
    chain.mine([all[1]!]);
    const counts = chain.count('count');
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(chain.count('count') - counts, 3, 'one count poll per contract a round');
    assert.equal(chain.count('scan'), 1);
    assert.equal(received.length, 1);
    assert.equal(watcher.intervalOf(all[0]!), MIN_POLL_INTERVAL_MS);
  });

  it('a scan that fails hands that round to the contracts counts, and scans again after', async () => {
    const all = contracts(2);
    const { timers, chain, received, begin } = setup();
    await begin(all);
    await timers.advance(MIN_POLL_INTERVAL_MS);
    chain.mine([all[0]!]);
    chain.failScans.push(Object.assign(new Error('Internal'), { status: 500 }));
    const counts = chain.count('count');
    await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(chain.count('count') - counts, 2, 'the failed round became count polls');
    assert.equal(received.length, 1, 'and they delivered its news');
    chain.mine([all[1]!]);
    for (let i = 0; i < 3; i++) await timers.advance(MIN_POLL_INTERVAL_MS);
    assert.equal(received.length, 2);
    assert.ok(once(received));
  });
});

/**
 * A scan that reads through the client's range reader (the real split) over `part`, from a stored state
 * with the chain's time learnt (no lag); `windows` are the windows it asked for.
 */
async function rangeScan(part: ReadPart<BlocksAndEvents>) {
  const windows: Array<[number, number]> = [];
  const store = new MapStore();
  const scan = new EventScan({
    read: (from, to) => {
      windows.push([from, to]);
      return readBlocksWithEventsRange(from, to, part);
    },
    store,
    storeKey: 'scan',
  });
  await store.set('scan', { scannedTo: T0, deliverFrom: T0, lag: { ms: 0, at: T0 }, recent: [] });
  return { scan, windows };
}

describe('event scan: the windows', () => {
  const read = (chain: ScanChain) => (from: number, to: number) => chain.readBlocksWithEvents(from, to);

  it('the first window hands over nothing from before it, and a window overlaps the last by a minute', async () => {
    let now = T0;
    const chain = new ScanChain(() => now, false);
    chain.mine([A], { ageMs: 5_000 });
    const scan = new EventScan({ read: read(chain), store: new MapStore(), storeKey: 'scan' });
    const first = await scan.round(now, new Set([A]));
    assert.equal(
      first.fromTs,
      T0 - CLOCK_TOLERANCE_MS,
      'the first window looks back to find the chain’s time',
    );
    assert.equal(first.events.size, 0, 'before the first scan: not news');
    await first.commit();
    now += 16_000;
    chain.mine([A]);
    const second = await scan.round(now, new Set([A]));
    assert.equal(second.fromTs, T0 - 5_000 - SCAN_OVERLAP_MS, 'an overlap before the chain’s newest block');
    // The first block was read 5 s after its timestamp: the chain's time is learnt as 5 s behind this clock.
    assert.equal(second.toTs, now - 5_000 + SCAN_LOOKAHEAD_MS, 'to a little past the chain’s time now');
    assert.equal(second.events.get(A)?.length, 1);
  });

  it('after a long pause it jumps, and says from where, so the counts catch up', async () => {
    let now = T0;
    const chain = new ScanChain(() => now, false);
    const scan = new EventScan({ read: read(chain), store: new MapStore(), storeKey: 'scan' });
    chain.mine([A]);
    await (await scan.round(now, new Set([A]))).commit();
    now += MAX_CATCH_UP_MS;
    const round = await scan.round(now, new Set([A]));
    assert.equal(round.jumpedFrom, T0 - SCAN_OVERLAP_MS);
    assert.equal(round.fromTs, now - SCAN_OVERLAP_MS, "from the chain's time now, as learnt");
  });

  it('a clock that gives fractions of a millisecond reads whole-millisecond windows, and saves them', async () => {
    const store = new MapStore();
    const windows: number[] = [];
    const recording = () =>
      new EventScan({
        read: (from, to) => {
          windows.push(from, to);
          return Promise.resolve({ blocksAndEvents: [], requests: 1 });
        },
        store,
        storeKey: 'scan',
      });
    const scan = recording();
    await (await scan.round(T0 + 0.5, new Set([A]))).commit();
    await (await scan.round(T0 + 16_000.25, new Set([A]))).commit();
    assert.ok(windows.every(Number.isInteger), windows.join(', '));
    const saved = (store.get('scan') as { scannedTo: number }).scannedTo;
    assert.ok(Number.isInteger(saved));
    await recording().round(T0 + 32_000, new Set([A]));
    assert.equal(windows.at(-2), saved - SCAN_OVERLAP_MS, 'the saved state is read back, not started afresh');
  });

  it('where the chain shows no block, the windows move on with the local clock, the tolerance behind it', async () => {
    let now = T0;
    const scan = new EventScan({
      read: read(new ScanChain(() => now, false)),
      store: new MapStore(),
      storeKey: 'scan',
    });
    await (await scan.round(now, new Set([A]))).commit();
    now += 60 * 60_000;
    await (await scan.round(now, new Set([A]))).commit();
    const round = await scan.round(now + 16_000, new Set([A]));
    assert.equal(
      round.fromTs,
      now - CLOCK_TOLERANCE_MS - SCAN_OVERLAP_MS,
      'an hour of a quiet chain is not read again',
    );
    assert.equal(round.behind, false);
  });

  it('learns the chain’s time from a new block: where a first count of a contract starts, on a clock 4 min off', async () => {
    for (const offMs of [4 * 60_000, -4 * 60_000]) {
      let now = T0;
      const chain = new ScanChain(() => now - offMs);
      const scan = new EventScan({ read: read(chain), store: new MapStore(), storeKey: 'scan' });
      assert.equal(scan.chainTime(now), now, 'nothing learnt yet: the local clock');
      chain.mine([A]);
      await (await scan.round(now, new Set([A]))).commit();
      now += 16_000;
      assert.equal(scan.chainTime(now), now - offMs);
      await (await scan.round(now, new Set([A]))).commit();
      assert.equal(scan.chainTime(now), now - offMs, 'a block read before says nothing of the time now');
    }
  });

  it('a part the gateway refused is read again by the next round, from the newest block read', async () => {
    const now = T0 + 16_000;
    const store = new MapStore();
    let unread: number | undefined = T0 + 8_000;
    const windows: Array<[number, number]> = [];
    const block: ScanBlock = { block: { hash: 'b1', timestamp: T0 + 5_000 }, events: [] };
    const scan = new EventScan({
      read: (from, to) => {
        windows.push([from, to]);
        const u = unread;
        unread = undefined;
        return Promise.resolve({
          blocksAndEvents: u !== undefined ? [[block]] : [],
          requests: 1,
          ...(u !== undefined ? { unread: { fromTs: u } } : {}),
        });
      },
      store,
      storeKey: 'scan',
    });
    await store.set('scan', { scannedTo: T0, deliverFrom: T0, recent: [] });
    const first = await scan.round(now, new Set());
    assert.equal(first.behind, true);
    await first.commit();
    await (await scan.round(now, new Set())).commit();
    assert.deepEqual(windows[1], [T0 + 5_000 - SCAN_OVERLAP_MS, now + CLOCK_TOLERANCE_MS]);
  });

  it('a window longer than the gateway serves is split once; later windows fit the span it showed, one request each', async () => {
    // The sandbox's span (sandbox/chain: maxBlocksSpanMs, 10 min): a longer window answers 504, and the
    // client halves it (blocksRange.ts). A scan held for half an hour (a month's last share) must not pay
    // 1 + 2 + 4 requests for it, nor pass the share by what it did not expect.
    const spanMs = 10 * 60_000;
    const { scan, windows } = await rangeScan((from, to) =>
      to - from > spanMs
        ? Promise.reject(new GatewayHttpError('GET /blockflow/blocks-with-events', 504))
        : Promise.resolve({ blocksAndEvents: [] }),
    );
    let now = T0 + 15 * 60_000 - SCAN_OVERLAP_MS - SCAN_LOOKAHEAD_MS + 1;
    const split = await scan.round(now, new Set());
    assert.equal(split.requests, 3, 'a 15-min window: refused, then its two halves');
    await split.commit();
    now += 30 * 60_000;
    const costs: number[] = [];
    for (let r = 0; r < 10; r++) {
      const round = await scan.round(now, new Set());
      costs.push(round.requests);
      await round.commit();
      if (!round.behind) break;
    }
    assert.deepEqual(
      costs,
      [1, 1, 1, 1, 1],
      'half an hour in windows of the span shown, each answered whole',
    );
    for (const [from, to] of windows.slice(1)) assert.ok(to - from <= 7.5 * 60_000, `${from}..${to}`);
  });

  it('a split for size, or a window before the lag is learnt, is not cut to a span: nothing is held behind', async () => {
    // A dense moment of the chain (over the body cap) says nothing of the span a gateway serves; a cap
    // learnt from it once held every later round behind, each one then run at once, outside the budget.
    let dense = true;
    const { scan } = await rangeScan((from, to) =>
      dense && to - from > 60_000
        ? Promise.reject(new ResponseTooLargeError(undefined, 8 << 20))
        : Promise.resolve({ blocksAndEvents: [] }),
    );
    let now = T0 + 5 * 60_000;
    await (await scan.round(now, new Set())).commit();
    dense = false;
    now += 30 * 60_000;
    const later = await scan.round(now, new Set());
    assert.equal(later.requests, 1, 'half an hour read whole: no span was learnt from the size split');
    assert.equal(later.behind, false);
    // A span stored without a lag (a first window cut short never reaches its end to learn one).
    const fresh = new MapStore();
    await fresh.set('scan', { scannedTo: T0, recent: [], span: { ms: 5 * 60_000, at: T0 } });
    const first = await new EventScan({
      read: () => Promise.resolve({ blocksAndEvents: [], requests: 1 }),
      store: fresh,
      storeKey: 'scan',
    }).round(T0 + 60_000, new Set());
    assert.equal(first.behind, false, 'the whole first window is read: the lag can be learnt');
  });
});
