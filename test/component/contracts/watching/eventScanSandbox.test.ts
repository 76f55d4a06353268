/**
 * The scan (issue 32) against the real sandbox gateway over HTTP, through the real GatewayClient, with
 * the sandbox and the watcher on one virtual clock: a block that arrives late (`/mine {ageMs}`), a tip
 * abandoned for a sibling holding the same transaction (`/fork`), Debug gaps in the counter, a contract
 * watched mid-window, and a gateway that does not forward `/blockflow/blocks-with-events` (a 404 fault).
 * Each event must be delivered once; the sandbox's request log says what was asked.
 */
import assert from 'node:assert/strict';
import { GatewayClient } from '../../../../src/core/gateway';
import type { ContractEvent } from '../../../../src/core/gateway/schemas';
import { BackgroundScheduler } from '../../../../src/core/scheduling/backgroundScheduler';
import { EventWatcher, MIN_POLL_INTERVAL_MS } from '../../../../src/core/contracts/watching/eventWatcher';
import { SAFETY_NET_INTERVAL_MS } from '../../../../src/core/contracts/watching/scanJob';
import { eventKey, type CursorStore } from '../../../../src/core/contracts/watching/watcherTypes';
import { control, newSandbox, sandboxProfile } from '../../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../../sandbox';
import type { Timers } from '../../../../src/core/util/clock';
import { FakeTimers } from '../../../helpers/fakeTimers';

const T0 = Date.UTC(2025, 6, 1, 9, 0, 0);

describe('event scan against the sandbox gateway', () => {
  let sb: Sandbox;
  let key: string;
  const timers: FakeTimers & Timers = new FakeTimers(T0);

  before(async () => {
    ({ sb, key } = await newSandbox({ clock: { now: () => timers.now() } }));
  });
  after(() => sb.close());

  /** A fresh watcher of `addresses` on its own scheduler and store; requests are counted from here. */
  async function watching(addresses: readonly string[]) {
    await control(sb, 'DELETE', '/requests');
    const client = new GatewayClient({
      profile: sandboxProfile(sb, 'enterprise', { perSecond: 1000, perMonth: 1_000_000 }),
      keyProvider: () => key,
    });
    const data = new Map<string, unknown>();
    const store: CursorStore = {
      get: (k) => data.get(k),
      set: (k, v) => void data.set(k, JSON.parse(JSON.stringify(v ?? null))),
    };
    const scheduler = new BackgroundScheduler({ timers });
    const watcher = new EventWatcher({ client, store, timers, scheduler, backlog: 0, scan: true });
    const received: ContractEvent[] = [];
    let checks = 0;
    watcher.onEvents((e) => received.push(...e.events));
    watcher.onPolled(() => checks++);
    for (const a of addresses) watcher.watch(a);
    watcher.start();
    /** Until the run now going has reported (real HTTP: bounded). */
    const settled = async () => {
      const target = checks + 1;
      for (let i = 0; i < 200 && checks < target; i++) await new Promise((r) => setTimeout(r, 5));
    };
    const rounds = async (n: number, ms = MIN_POLL_INTERVAL_MS) => {
      for (let i = 0; i < n; i++) await timers.advance(ms, settled);
    };
    await timers.advance(0, settled);
    const asked = (path: string) => sb.requests.filter((r) => r.path.includes(path)).length;
    const stop = () => {
      watcher.dispose();
      scheduler.dispose();
      client.dispose();
    };
    return { watcher, received, rounds, asked, stop };
  }

  const counter = () => sb.contracts.find((c) => c.name === 'Counter')!.address;
  const deployCounter = async () =>
    (await control<{ address: string }>(sb, 'POST', '/contracts/deploy', { name: 'Counter' })).address;
  const trigger = (contract: string, body: Record<string, unknown> = {}) =>
    control<{ txIds: string[] }>(sb, 'POST', '/events/trigger', { contract, count: 1, ...body });
  const once = (events: readonly ContractEvent[]) => new Set(events.map(eventKey)).size === events.length;

  it('one scan a round serves two contracts: their events arrive once, with no count poll beside it', async () => {
    const [a, b] = [counter(), await deployCounter()];
    const w = await watching([a, b]);
    await w.rounds(1);
    const counts = w.asked('/current-count');
    for (let i = 0; i < 3; i++) {
      await trigger(i % 2 ? a : b);
      await w.rounds(1);
    }
    // Each increment emits a visible Incremented and a hidden Debug event (a gap in the counter).
    assert.equal(w.received.length, 3);
    assert.ok(once(w.received));
    assert.equal(w.asked('/current-count'), counts, 'the scan served them: no count poll');
    assert.ok(w.asked('/blockflow/blocks-with-events') >= 4);
    w.stop();
  });

  it('a block mined late, inside a window already read, is delivered once', async () => {
    const w = await watching([counter()]);
    await w.rounds(4);
    // A block is timed after its parent: the clock moves on before the late one is mined.
    await trigger(counter(), { mine: false });
    await control(sb, 'POST', '/mine', { ageMs: 20_000 });
    await w.rounds(5);
    assert.equal(w.received.length, 1);
    await w.rounds(1, SAFETY_NET_INTERVAL_MS);
    assert.equal(w.received.length, 1, 'the safety net repeats nothing');
    w.stop();
  });

  it('a transaction re-included after a fork is delivered once, and the sibling only is listed', async () => {
    const w = await watching([counter()]);
    await w.rounds(1);
    await trigger(counter());
    await w.rounds(1);
    assert.equal(w.received.length, 1);
    const blockHash = w.received[0]!.blockHash;
    const block = (await (
      await fetch(`${sb.apiUrl}/blockflow/blocks/${blockHash}`, {
        headers: { Authorization: `Bearer ${key}` },
      })
    ).json()) as { chainFrom: number; chainTo: number };
    await timers.advance(1_000);
    await control(sb, 'POST', '/fork', { chainFrom: block.chainFrom, chainTo: block.chainTo });
    await w.rounds(4);
    await w.rounds(1, SAFETY_NET_INTERVAL_MS);
    assert.equal(w.received.length, 1);
    w.stop();
  });

  it('a contract watched mid-window gets what is emitted after it, once', async () => {
    const [a, b] = [counter(), await deployCounter()];
    const w = await watching([a]);
    await w.rounds(1);
    await trigger(b); // before it is watched: not news for it
    await timers.advance(MIN_POLL_INTERVAL_MS / 2);
    w.watcher.watch(b);
    await w.rounds(1, 0);
    await trigger(b);
    await w.rounds(3);
    await w.rounds(1, SAFETY_NET_INTERVAL_MS);
    assert.deepEqual(
      w.received.map((e) => e.contractAddress),
      [b],
    );
    w.stop();
  });

  it('a gateway without blocks-with-events: asked once, then each contract polls its count', async () => {
    const [a, b] = [counter(), await deployCounter()];
    await control(sb, 'POST', '/faults', {
      path: '/blockflow/blocks-with-events',
      kind: 'status',
      status: 404,
      detail: 'Not Found',
    });
    try {
      const w = await watching([a, b]);
      await w.rounds(1);
      await trigger(a);
      const counts = w.asked('/current-count');
      await w.rounds(2);
      assert.equal(w.asked('/blockflow/blocks-with-events'), 1);
      assert.ok(w.asked('/current-count') >= counts + 2, 'the counts are polled again');
      assert.equal(w.received.length, 1);
      w.stop();
    } finally {
      await control(sb, 'DELETE', '/faults');
    }
  });
});
