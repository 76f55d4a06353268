import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactRegistry } from '../../../../src/core/artifacts';
import {
  fetchEventsFrom,
  fetchLatestEvents,
  type GatewayClient,
  type ContractEvent,
} from '../../../../src/core/gateway';
import { silentLogger } from '../../../../src/core/util/log';
import { makeWatched } from '../../../../src/core/contracts/watching/watchList';
import { WatchedContractsModel } from '../../../../src/core/contracts/watching/watchedContractsModel';
import { control } from '../../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../../sandbox';
import { connectedSandbox } from '../../fixtures/connectedSandbox';

const ARTIFACTS = path.join(__dirname, '..', '..', '..', '..', 'sandbox', 'project', 'artifacts');
const registry = ArtifactRegistry.fromFiles(
  fs
    .readdirSync(ARTIFACTS)
    .map((f) => ({ path: `artifacts/${f}`, text: fs.readFileSync(path.join(ARTIFACTS, f), 'utf8') })),
);

/** Resolves once the model has changed and `test` holds (bounded). */
function changedUntil(model: WatchedContractsModel, test: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the model did not get there within 10 s')), 10_000);
    const sub = model.onDidChange(() => {
      if (!test()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

describe('watched contracts model (what the Watched Contracts view shows) against the sandbox', () => {
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;

  before(async () => {
    ({ sb, client, stop } = await connectedSandbox({ plan: 'pro' }));
  });
  after(() => stop());

  it('reads the state again when new events arrive, once, so State agrees with Events', async () => {
    const counter = sb.contracts.find((c) => c.name === 'Counter')!;
    const model = new WatchedContractsModel({
      log: silentLogger,
      client: () => client,
      registry: () => Promise.resolve(registry),
      network: () => 'devnet',
      pageSize: () => 10,
    });
    model.setList([makeWatched(counter.address, { artifactName: 'Counter' })]);
    await model.loadStates([counter.address]);
    await model.loadLatestEvents(counter.address);
    const countField = () => {
      const mut = model.stateOf(counter.address)?.state?.mutFields ?? [];
      return Number(mut[0]?.value);
    };
    const before = countField();
    const cursor = model.feed(counter.address).nextStart ?? 0;

    await control(sb, 'POST', '/events/trigger', { count: 2 });
    // What the watcher delivers: the new events, fetched from the feed's cursor.
    const fresh = await fetchEventsFrom(client, counter.address, cursor, { pageSize: 100 });
    const requestsBefore = sb.requests.length;
    const agreed = changedUntil(model, () => countField() === before + 2);
    model.addWatcherEvents(counter.address, fresh.events);
    await agreed;

    const getter = model.stateOf(counter.address)?.getters?.find((g) => g.name === 'get');
    assert.equal(getter?.value, String(before + 2), 'the getter was read again too');
    const newest = model.feed(counter.address).items()[0]!.event;
    assert.equal(newest.fields[1]?.value, String(before + 2), 'the newest event and the state agree');
    const reads = sb.requests.slice(requestsBefore).map((r) => r.path.replace(/\?.*$/, ''));
    assert.deepEqual(
      reads.map((p) =>
        p.endsWith('/state') ? 'state' : p.endsWith('/multicall-contract') ? 'multicall' : p,
      ),
      ['state', 'multicall'],
      'one state read and one getters multicall per growth, nothing else',
    );
    model.dispose();
  });
});

describe('watched contracts model: every figure is fresh or says its age', () => {
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;

  before(async () => {
    ({ sb, client, stop } = await connectedSandbox({ plan: 'pro' }));
  });
  after(() => stop());

  describe('freshness: ages, a look reads again what is old, and other views update the model', () => {
    const counter = () => sb.contracts.find((c) => c.name === 'Counter')!;
    let time = Date.UTC(2025, 4, 10);
    const model = () => {
      const m = new WatchedContractsModel({
        log: silentLogger,
        client: () => client,
        registry: () => Promise.resolve(registry),
        network: () => 'devnet',
        pageSize: () => 10,
        now: () => time,
      });
      m.setList([makeWatched(counter().address, { artifactName: 'Counter' })]);
      return m;
    };
    const stateReads = () => sb.requests.filter((r) => /\/contracts\/[^/]+\/state/.test(r.path)).length;

    it('keeps the time the state and the events were read, and a look reads again only what is old', async () => {
      const m = model();
      const a = counter().address;
      await m.loadStates([a]);
      await m.loadLatestEvents(a);
      assert.equal(m.stateOf(a)?.readAt, time);
      assert.equal(m.eventsCheckedAt(a), time);

      const reads = stateReads();
      time += 10_000;
      await m.looked(a, 'state');
      assert.equal(stateReads(), reads, 'fresh: looking costs nothing');

      // The chain moved without the watcher telling (a slow budget); minutes later the person looks.
      await control(sb, 'POST', '/events/trigger', { count: 1 });
      time += 5 * 60_000;
      await m.looked(a, 'state');
      assert.equal(stateReads(), reads + 1, 'an old State is read again when looked at');
      assert.equal(m.stateOf(a)?.readAt, time);
      const listed = m.feed(a).size;
      await m.looked(a, 'events');
      assert.equal(m.feed(a).size, listed + 1, 'an old Events list reads what it missed');
      assert.equal(m.eventsCheckedAt(a), time);
      m.dispose();
    });

    it('takes the count Show Latest Events read: the tree lists the same newest event', async () => {
      const m = model();
      const a = counter().address;
      await m.loadStates([a]);
      await m.loadLatestEvents(a);
      await control(sb, 'POST', '/events/trigger', { count: 4 });
      // Show Latest Events reads the chain directly; the tree had not been told yet (newCount 43 vs 47).
      const latest = await fetchLatestEvents(client, a, 5);
      const newestOf = (e: ContractEvent) => Number(e.fields[1]?.value);
      const shownNewest = newestOf(latest.events[latest.events.length - 1]!);
      assert.notEqual(newestOf(m.feed(a).items()[0]!.event), shownNewest);
      await m.noteEventCount(a, latest.count);
      assert.equal(newestOf(m.feed(a).items()[0]!.event), shownNewest);
      assert.equal(m.feed(a).count, latest.count);
      // and the State beside them is read again, so it agrees with both.
      const agrees = () => Number(m.stateOf(a)?.state?.mutFields[0]?.value) === shownNewest;
      if (!agrees()) await changedUntil(m, agrees);
      m.dispose();
    });

    it("reads for the listing (drift badges) at background priority, and for a look at the user's", async () => {
      const m = model();
      const a = counter().address;
      const seen: string[] = [];
      const sub = client.onRequest((r) => seen.push(`${r.endpoint}:${r.priority}`));
      await m.loadStates([a], false, 'background');
      assert.ok(seen.length >= 1 && seen.every((x) => x.endsWith(':background')), seen.join(', '));
      seen.length = 0;
      time += 5 * 60_000;
      await m.looked(a, 'state');
      sub.dispose();
      assert.ok(seen.length >= 2 && seen.every((x) => x.endsWith(':user')), seen.join(', '));
      m.dispose();
    });

    it('counts a watcher check as fresh Events, and not when the watcher saw more than the list holds', async () => {
      const m = model();
      const a = counter().address;
      await m.loadLatestEvents(a);
      const count = m.feed(a).count!;
      time += 3 * 60_000;
      m.watcherChecked(a, count + 2);
      assert.equal(m.eventsCheckedAt(a), time - 3 * 60_000, 'behind the watcher: not fresh');
      m.watcherChecked(a, count);
      assert.equal(m.eventsCheckedAt(a), time);
      m.dispose();
    });
  });
});
