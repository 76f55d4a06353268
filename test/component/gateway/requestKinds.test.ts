/**
 * Every background caller labels its requests, so the ledger can say what the month went to: the event
 * watcher and state re-reads as watched contracts, the Node view's checks as the Node view, transaction
 * polls as tracking. Requests go through the real client to the sandbox; the client's own request
 * records say how each was counted.
 */
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { GatewayClient, type RequestOptions, type RequestRecord } from '../../../src/core/gateway';
import type { TxStatus } from '../../../src/core/gateway/schemas';
import { silentLogger } from '../../../src/core/util/log';
import type { BackgroundScheduler } from '../../../src/core/scheduling/backgroundScheduler';
import type { JobOptions } from '../../../src/core/scheduling/jobs';
import { EventWatcher } from '../../../src/core/contracts/watching/eventWatcher';
import type { CursorStore } from '../../../src/core/contracts/watching/watcherTypes';
import { fetchNodeStatus } from '../../../src/core/node/nodeStatus';
import { NodeStatusModel } from '../../../src/core/node/nodeStatusModel';
import { TxTracker } from '../../../src/core/transactions/txTracker';
import { makeWatched } from '../../../src/core/contracts/watching/watchList';
import { WatchedContractsModel } from '../../../src/core/contracts/watching/watchedContractsModel';
import { control, newSandbox, sandboxProfile } from '../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../sandbox';
import { FakeClock } from '../../unit/gateway/helpers';

const ARTIFACTS = path.join(__dirname, '..', '..', '..', 'sandbox', 'project', 'artifacts');
const registry = ArtifactRegistry.fromFiles(
  fs
    .readdirSync(ARTIFACTS)
    .map((f) => ({ path: `artifacts/${f}`, text: fs.readFileSync(path.join(ARTIFACTS, f), 'utf8') })),
);

/** A scheduler that only collects jobs, so a test runs them by hand. */
function collectingScheduler(): { scheduler: BackgroundScheduler; jobs: JobOptions[] } {
  const jobs: JobOptions[] = [];
  const scheduler = {
    add(job: JobOptions) {
      jobs.push(job);
      return { kind: job.kind, dispose: () => void jobs.splice(jobs.indexOf(job) >>> 0, 1) };
    },
  } as unknown as BackgroundScheduler;
  return { scheduler, jobs };
}

describe('request ledger: the background callers label their requests', () => {
  let sb: Sandbox;
  let key: string;
  let client: GatewayClient;
  let records: RequestRecord[];
  const kinds = () => [...new Set(records.map((r) => r.kind))].sort();

  before(async () => {
    ({ sb, key } = await newSandbox());
    sb.mine();
  });
  after(() => sb.close());
  beforeEach(() => {
    client = new GatewayClient({ profile: sandboxProfile(sb, 'pro'), keyProvider: () => key });
    records = [];
    client.onRequest((r) => records.push(r));
  });
  afterEach(() => client.dispose());

  it('the event watcher: counts and pages are watched contracts', async () => {
    const counter = sb.contracts.find((c) => c.name === 'Counter')!.address;
    const data = new Map<string, unknown>();
    const store: CursorStore = { get: (k) => data.get(k), set: (k, v) => void data.set(k, v) };
    await control(sb, 'POST', '/events/trigger', { contract: 'Counter', count: 2 });
    // The scheduler's own timers: a contract never seen before is read at once.
    const watcher = new EventWatcher({ client, store, backlog: 'all', pageSize: 5 });
    watcher.watch(counter);
    watcher.start();
    for (let i = 0; i < 200 && records.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    watcher.dispose();
    assert.ok(records.length >= 2, `a count and a page at least, got ${records.length}`);
    assert.deepEqual(kinds(), ['contracts']);
  });

  it("a state re-read after new events (state and getters) is watched contracts; opening one is the user's", async () => {
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
    assert.ok(model.stateOf(counter.address)?.getters?.length, 'Counter has getters (a multicall)');
    assert.deepEqual(kinds(), ['actions'], 'expanding a contract is what the user did');
    records = [];
    await model.loadStates([counter.address], true);
    assert.ok(
      records.some((r) => r.endpoint.includes('multicall')),
      'the getters are read again with the state',
    );
    assert.deepEqual(kinds(), ['contracts']);
    model.dispose();
  });

  it("the Node view: its probe and scheduled checks are the Node view's", async () => {
    await fetchNodeStatus(client, Date.now);
    assert.ok(records.length >= 4 + 16, 'self-clique, version, params, hashrate and 16 heights');
    assert.deepEqual(kinds(), ['node']);

    records = [];
    const { scheduler, jobs } = collectingScheduler();
    const model = new NodeStatusModel({ scheduler: () => scheduler });
    model.setClient(client);
    const shown = new Promise<void>((resolve) => {
      const sub = model.onDidChange((s) => {
        if (s?.sync === 'synced') {
          sub.dispose();
          resolve();
        }
      });
    });
    model.setVisible(true);
    await shown;
    model.setChainsExpanded(true);
    // Opening Chains reads the heights at once (the user's), then schedules them.
    for (let waited = 0; !jobs.some((j) => j.kind === 'chains'); waited += 20) {
      if (waited > 5_000) throw new Error('the chain heights were not scheduled within 5 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const signal = new AbortController().signal;
    setMaxListeners(64, signal); // 16 chain heights listen on it at once, as in the model's own probe
    for (const job of [...jobs]) await (job as { run(s: AbortSignal): Promise<unknown> }).run(signal);
    const scheduled = records.filter((r) => r.priority === 'background');
    assert.ok(
      scheduled.some((r) => r.endpoint.includes('self-clique')) &&
        scheduled.some((r) => r.endpoint.includes('chain-info')),
      'the scheduled self-clique and heights ran',
    );
    assert.deepEqual([...new Set(scheduled.map((r) => r.kind))], ['node']);
    model.dispose();
  });

  it('transaction tracking: status polls and the details read are tracking', async () => {
    const clock = new FakeClock();
    const seen: (RequestOptions | undefined)[] = [];
    const confirmed: TxStatus = {
      type: 'Confirmed',
      blockHash: 'cd'.repeat(32),
      txIndex: 0,
      chainConfirmations: 1,
      fromGroupConfirmations: 1,
      toGroupConfirmations: 1,
    };
    const tracker = new TxTracker({
      clock,
      client: {
        getTxStatus: (_txId, _groups, options) => {
          seen.push(options);
          return Promise.resolve(seen.length === 1 ? { type: 'MemPooled' } : confirmed);
        },
        getTxDetails: (_txId, _groups, options) => {
          seen.push(options);
          return Promise.resolve({ scriptExecutionOk: true });
        },
      },
    });
    await clock.run(tracker.track({ txId: 'ab'.repeat(32), hasScript: true }));
    assert.ok(seen.length >= 3, 'two status polls and the details read');
    assert.deepEqual([...new Set(seen.map((o) => `${o?.priority}/${o?.purpose}`))], ['background/tracking']);
  });
});
