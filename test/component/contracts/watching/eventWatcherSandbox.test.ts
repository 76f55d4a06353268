/**
 * The watcher against the real sandbox gateway over HTTP, through the real GatewayClient: events are
 * triggered with the sandbox control API, decoded with the sandbox project's artifacts, and the sandbox's
 * request log proves what was asked. Time is the watcher's injected clock, so nothing sleeps.
 */
import assert from 'node:assert/strict';
import { ArtifactRegistry, decodeEvent, formatEventSummary } from '../../../../src/core/artifacts';
import { GatewayClient } from '../../../../src/core/gateway';
import type { ContractEvent } from '../../../../src/core/gateway/schemas';
import { BackgroundScheduler } from '../../../../src/core/scheduling/backgroundScheduler';
import { EventWatcher, MIN_POLL_INTERVAL_MS } from '../../../../src/core/contracts/watching/eventWatcher';
import type { CursorStore } from '../../../../src/core/contracts/watching/watcherTypes';
import { control, newSandbox, sandboxProfile } from '../../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../../sandbox';
import { sandboxArtifactFiles } from '../../../unit/artifacts/helpers';
import type { Timers } from '../../../../src/core/util/clock';
import { FakeTimers } from '../../../helpers/fakeTimers';

describe('event watcher against the sandbox gateway', () => {
  let sb: Sandbox;
  let key: string;
  let counter: string;
  const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());

  before(async () => {
    ({ sb, key } = await newSandbox());
    counter = sb.contracts.find((c) => c.name === 'Counter')!.address;
  });
  after(() => sb.close());

  function client(): GatewayClient {
    return new GatewayClient({
      profile: sandboxProfile(sb, 'enterprise', { perSecond: 1000, perMonth: 1_000_000 }),
      keyProvider: () => key,
    });
  }

  const eventRequests = (kind: 'count' | 'page') =>
    sb.requests.filter(
      (r) =>
        r.path.includes(`/events/contract/${counter}`) &&
        (kind === 'count' ? r.path.includes('/current-count') : !r.path.includes('/current-count')),
    ).length;

  it('delivers triggered events once, asks once when nothing is new, and resumes after a restart', async () => {
    await control(sb, 'DELETE', '/requests');
    const data = new Map<string, unknown>();
    const store: CursorStore = {
      get: (k) => data.get(k),
      set: (k, v) => void data.set(k, JSON.parse(JSON.stringify(v))),
    };
    // Timers that fire only when the test moves the clock (the requests themselves are real HTTP).
    const timers: FakeTimers & Timers = new FakeTimers(Date.UTC(2025, 5, 1));
    const scheduler = new BackgroundScheduler({ timers });
    const seen: ContractEvent[] = [];
    let polls = 0;
    const make = () => {
      // The count and page path (eventScanSandbox.test.ts is the scan's).
      const w = new EventWatcher({
        client: client(),
        store,
        timers,
        scheduler,
        backlog: 'all',
        pageSize: 2,
        scan: false,
      });
      w.onEvents((e) => seen.push(...e.events));
      w.onPolled(() => polls++);
      w.watch(counter);
      return w;
    };
    /** Until the poll that is running now has finished (real HTTP: wait for its report, bounded). */
    const settled = async () => {
      const target = polls + 1;
      for (let i = 0; i < 500 && polls < target; i++) await new Promise((r) => setTimeout(r, 5));
    };

    const first = make();
    // Each increment also emits a hidden Debug event: the counter has gaps, and a page of 2 must
    // follow nextStart to get them all.
    await control(sb, 'POST', '/events/trigger', { contract: 'Counter', count: 3 });
    first.start();
    await timers.advance(0, settled);
    const afterFirst = seen.length;
    assert.ok(afterFirst >= 3, `expected at least the 3 triggered events, got ${afterFirst}`);

    const before = eventRequests('page') + eventRequests('count');
    await timers.advance(MIN_POLL_INTERVAL_MS, settled);
    // Nothing new: one request told it, whichever way the contract learned to poll.
    assert.equal(eventRequests('page') + eventRequests('count'), before + 1);
    first.dispose();

    await control(sb, 'POST', '/events/trigger', { contract: 'Counter', count: 2 });
    const second = make();
    second.start();
    await timers.advance(MIN_POLL_INTERVAL_MS, settled);
    assert.equal(seen.length, afterFirst + 2, 'exactly the two new events after the restart');
    const keys = seen.map((e) => `${e.txId}:${e.eventIndex}:${JSON.stringify(e.fields)}`);
    assert.equal(new Set(keys).size, keys.length, 'no event delivered twice');
    assert.equal(second.cursor(counter)?.lastCount, await client().getContractEventCount(counter));

    // The events decode with the sandbox project's artifact, in order.
    const artifact = registry.byName('Counter');
    const last = seen
      .slice(-2)
      .map((e) => formatEventSummary(decodeEvent(e, artifact), { maxValueLength: 100 }));
    for (const s of last) assert.match(s, /^Incremented\(by=\w+, newCount=\d+\)$/);
    const counts = seen.slice(-2).map((e) => Number(e.fields[1]?.value));
    assert.equal(counts[1], (counts[0] as number) + 1);
    second.dispose();
    scheduler.dispose();
  });
});
