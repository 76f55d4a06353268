// Issue 27, point 8: one clock for the Node view. While it is visible, a node that starts syncing shows
// within 45 s whatever the budget's pacing, and any request that meets a 503 says "syncing" at once.
import { strict as assert } from 'node:assert';
import {
  NODE_SYNC_CHECK_MS,
  NODE_SYNCING_SHOWN_WITHIN_MS,
  syncTooltip,
} from '../../../src/core/node/nodeStatus';
import { NodeStatusModel } from '../../../src/core/node/nodeStatusModel';
import { BackgroundScheduler } from '../../../src/core/scheduling/backgroundScheduler';
import { clientScheduler } from '../../../src/core/scheduling/clientScheduler';
import type { Timers } from '../../../src/core/util/clock';
import { FakeClock, harness, json, SELF_CLIQUE_SYNCED, type FakeTransport } from '../gateway/helpers';

/** The model's and the scheduler's one-shot timers on the fake clock. */
function timersOn(clock: FakeClock): Timers {
  return {
    now: () => clock.now(),
    setTimeout: (run, ms) => {
      const handle = new AbortController();
      clock.sleep(ms, handle.signal).then(run, () => undefined);
      return handle;
    },
    clearTimeout: (handle) => (handle as AbortController).abort(),
  };
}

/** A node whose sync state the test turns; 503 on the chain's endpoints while it syncs. */
function fakeNode(transport: FakeTransport): { synced: boolean } {
  const node = { synced: true };
  transport.on('/infos/self-clique', () => json(200, { ...SELF_CLIQUE_SYNCED, synced: node.synced }));
  transport.on('/infos/version', json(200, { version: 'v3.5.0' }));
  transport.on('/infos/chain-params', json(200, { networkId: 1, groups: 4 }));
  transport.on('/infos/current-hashrate', json(200, { hashrate: '100 MH/s' }));
  transport.on(/^\/blockflow\/chain-info/, () =>
    node.synced ? json(200, { currentHeight: 7 }) : json(503, { detail: 'Unsynced clique' }),
  );
  return node;
}

describe('the Node view has one clock (issue 27)', () => {
  it('says the interval it keeps, and keeps it inside what it promises', () => {
    assert.ok(NODE_SYNC_CHECK_MS < NODE_SYNCING_SHOWN_WITHIN_MS);
    assert.ok(NODE_SYNCING_SHOWN_WITHIN_MS <= 45_000);
    assert.match(syncTooltip(undefined), new RegExp(`every ${NODE_SYNC_CHECK_MS / 1000} s`));
    assert.match(syncTooltip({ sync: 'syncing', problem: 'a 503', heights: [], fetchedAt: 0 }), /^a 503/);
  });

  it('a 503 met by any request flips the model to "syncing" at once, also after a sync wait gave up', async () => {
    const { client, transport, clock } = harness({ retry: { maxSyncWaitMs: 30_000 } });
    const node = fakeNode(transport);
    const model = new NodeStatusModel({ timers: timersOn(clock), scheduler: null, recheckMs: 10_000 });
    model.setClient(client);
    model.setVisible(true);
    await clock.advance(0);
    assert.equal(model.current?.sync, 'synced');

    // The node syncs for longer than a request waits: the waiting read gives up with its 503.
    node.synced = false;
    const gaveUp = client.getChainInfo(0, 1, { priority: 'background' }).then(
      () => 'answered',
      () => 'gave up',
    );
    // "At once": within the 2 s the Free plan's pacing may hold the request, long before any check of the view.
    await clock.advance(2_000);
    assert.equal(model.current?.sync, 'syncing', 'the first 503 shows at once');
    await clock.advance(40_000);
    assert.equal(await gaveUp, 'gave up');
    // Synced again: the view's own re-check says so by itself.
    node.synced = true;
    await clock.advance(10_000);
    assert.equal(model.current?.sync, 'synced', 'it clears by itself');

    // Syncing again, and the next to meet it is not the view's check but any other request.
    node.synced = false;
    const cliquesBefore = transport.count('/infos/self-clique');
    void client.getChainInfo(0, 2, { priority: 'background' }).catch(() => undefined);
    await clock.advance(2_000);
    assert.equal(model.current?.sync, 'syncing', 'a 503 from another request shows at once, every time');
    assert.equal(transport.count('/infos/self-clique'), cliquesBefore, 'without waiting for a check');
    node.synced = true;
    await clock.advance(10_000);
    assert.equal(model.current?.sync, 'synced');
    model.dispose();
    client.dispose();
  });

  it('while visible on a Free key, the self-clique checks stay within the interval under the scheduler pacing', async () => {
    const clock = new FakeClock(Date.UTC(2025, 4, 10, 9, 0, 0));
    const timers = timersOn(clock);
    const { client, transport } = harness({ clock });
    fakeNode(transport);
    const scheduler = clientScheduler(client, timers);
    assert.ok(scheduler instanceof BackgroundScheduler);
    // Busy visible contracts compete for the same Free share (3 requests a poll, the spec's 16 s floor).
    const contracts = [1, 2, 3, 4].map((i) =>
      scheduler.add({
        kind: 'contract',
        label: `contract ${i}`,
        expectedCost: 3,
        run: async () => {
          await Promise.all([1, 2, 3].map(() => client.getChainInfo(0, i, { priority: 'background' })));
          return { requests: 3 };
        },
      }),
    );
    const model = new NodeStatusModel({ timers, scheduler: () => scheduler });
    model.setClient(client);
    model.setVisible(true);
    await clock.advance(0);
    assert.equal(model.current?.sync, 'synced');
    const start = clock.now();
    await clock.advance(3600_000);
    const checks = transport.requests.filter((r) => r.path === '/infos/self-clique' && r.at > start);
    const gaps = checks.slice(1).map((r, i) => r.at - checks[i]!.at);
    const contractPolls = transport.requests.filter((r) => r.path.startsWith('/blockflow/chain-info')).length;
    assert.ok(scheduler.plan().budgetBound, 'the budget really paces the jobs here');
    assert.ok(contractPolls > 0, 'the contracts still poll');
    assert.ok(gaps.length > 80, `${gaps.length + 1} checks in an hour`);
    assert.ok(
      Math.max(...gaps) <= NODE_SYNC_CHECK_MS,
      `the longest gap between two checks was ${Math.max(...gaps)} ms`,
    );
    const nodeKind = scheduler.plan().kinds.find((k) => k.kind === 'node');
    assert.equal(nodeKind?.intervalMs, NODE_SYNC_CHECK_MS, "the status bar's tooltip says the same interval");
    contracts.forEach((c) => c.dispose());
    model.dispose();
    scheduler.dispose();
    client.dispose();
  });
});
