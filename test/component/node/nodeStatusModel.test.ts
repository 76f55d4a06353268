import { strict as assert } from 'node:assert';
import { GatewayClient } from '../../../src/core/gateway';
import { NODE_SYNC_CHECK_MS, type NodeStatus } from '../../../src/core/node/nodeStatus';
import { NodeStatusModel } from '../../../src/core/node/nodeStatusModel';
import { BackgroundScheduler } from '../../../src/core/scheduling/backgroundScheduler';
import type { RunRecord } from '../../../src/core/scheduling/jobs';
import { newSandbox, sandboxProfile } from '../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../sandbox';
import type { Timers } from '../../../src/core/util/clock';
import { until } from '../../helpers/until';

/** Timers fired by hand: the test runs what is pending, as the next timer tick would. */
function manualTimers(now: () => number = Date.now): {
  timers: Timers;
  pending: { ms: number; run: () => void }[];
} {
  const pending: { ms: number; run: () => void }[] = [];
  const timers: Timers = {
    now,
    setTimeout: (run, ms) => {
      const entry = { ms, run };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (entry) => void pending.splice(pending.indexOf(entry as (typeof pending)[number]) >>> 0, 1),
  };
  return { timers, pending };
}

/** Resolves with the first status the model publishes that satisfies `test` (bounded). */
function nextStatus(model: NodeStatusModel, test: (s: NodeStatus | undefined) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no such status within 10 s')), 10_000);
    const sub = model.onDidChange((s) => {
      if (!test(s)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

describe('node status model (what the Node view shows) against the sandbox', () => {
  let sb: Sandbox;
  let key: string;
  let client: GatewayClient;

  before(async () => {
    ({ sb, key } = await newSandbox());
    sb.mine();
  });
  after(() => sb.close());
  beforeEach(() => {
    sb.faults.clear();
    client = new GatewayClient({ profile: sandboxProfile(sb, 'pro'), keyProvider: () => key });
  });
  afterEach(() => client.dispose());

  const selfCliqueRequests = () => sb.requests.filter((r) => r.path.endsWith('/infos/self-clique')).length;

  it('shows "syncing" at once on a 503 and comes back to "synced" by itself at the next check', async () => {
    const { timers, pending } = manualTimers();
    const model = new NodeStatusModel({ timers, refreshMs: 60_000, recheckMs: 10_000, scheduler: null });
    model.setClient(client);
    sb.faults.add({ path: '/infos/*', kind: '503' });
    const started = Date.now();
    model.setVisible(true);
    await nextStatus(model, (s) => s !== undefined);
    // The old probe waited up to 10 minutes for the node to sync before it answered anything.
    assert.equal(model.current?.sync, 'syncing');
    assert.ok(Date.now() - started < 5_000, 'the probe must not wait for the node to sync');
    assert.deepEqual(
      pending.map((p) => p.ms),
      [10_000],
      'while syncing, the next check comes after recheckMs',
    );

    sb.faults.clear();
    const synced = nextStatus(model, (s) => s?.sync === 'synced');
    pending[0]!.run();
    await synced;
    assert.equal(model.current?.heights.length, 0, 'no chain heights while the Chains node is closed');
    assert.deepEqual(
      pending.map((p) => p.ms),
      [60_000],
      'once synced, the next probe waits refreshMs',
    );
    model.dispose();
  });

  it('sends a probe on every refresh, even while one hangs, and shows the newest answer', async () => {
    const model = new NodeStatusModel({ timers: manualTimers().timers, scheduler: null });
    model.setClient(client);
    // The first probe hangs (a slow node); a refresh after it must not queue behind it.
    sb.faults.add({ path: '/infos/self-clique', kind: 'delay', delayMs: 4_000, count: 1 });
    const before = selfCliqueRequests();
    const first = model.refresh();
    await until('the next self-clique request', () => selfCliqueRequests() === before + 1, 5_000, 20);
    const started = Date.now();
    await model.refresh();
    assert.ok(Date.now() - started < 3_000, 'the second refresh must not wait for the hanging probe');
    assert.equal(model.current?.sync, 'synced');
    await model.refresh();
    await first;
    assert.equal(selfCliqueRequests() - before, 3, 'each refresh sends its own self-clique');
    assert.equal(model.current?.sync, 'synced', 'the abandoned probe must not overwrite a newer answer');
    model.dispose();
  });

  it('marks "syncing" when any other request meets a 503, without waiting for a probe', async () => {
    const model = new NodeStatusModel({ timers: manualTimers().timers, scheduler: null });
    model.setClient(client);
    await model.refresh();
    assert.equal(model.current?.sync, 'synced');
    sb.faults.add({ path: '/addresses/*', kind: '503', count: 1 });
    const syncing = nextStatus(model, (s) => s?.sync === 'syncing');
    const address = sb.accounts[0]!.address;
    const balance = client
      .getAddressBalance(address, { signal: AbortSignal.timeout(8_000) })
      .catch(() => undefined);
    await syncing;
    sb.faults.clear();
    await balance;
    model.dispose();
  });

  it('forgets the old status when the client changes, and probes the new one only while visible', async () => {
    const { timers, pending } = manualTimers();
    const model = new NodeStatusModel({ timers, scheduler: null });
    model.setClient(client);
    await model.refresh();
    assert.ok(model.current);
    const other = new GatewayClient({ profile: sandboxProfile(sb, 'pro'), keyProvider: () => key });
    const before = selfCliqueRequests();
    model.setClient(other);
    assert.equal(model.current, undefined);
    assert.equal(selfCliqueRequests(), before, 'hidden: no probe');
    assert.equal(pending.length, 0, 'hidden: nothing scheduled');
    model.dispose();
    other.dispose();
  });

  it('while synced, its checks are jobs of the background scheduler: one self-clique each, chain heights only while Chains is open', async () => {
    // Timers fired by hand; requests are real HTTP to the sandbox.
    const timers: { at: number; cb: () => void; id: number }[] = [];
    let seq = 0;
    let time = Date.UTC(2025, 4, 10);
    const manual: Timers = {
      now: () => time,
      setTimeout: (cb, ms) => {
        timers.push({ at: time + ms, cb, id: ++seq });
        return seq;
      },
      clearTimeout: (h) => void timers.splice(timers.findIndex((t) => t.id === h) >>> 0, 1),
    };
    const scheduler = new BackgroundScheduler({ timers: manual, budget: { monthlyLimit: 100_000 } });
    const runs: RunRecord[] = [];
    scheduler.onDidRun((r) => runs.push(r));
    const fireNext = async (): Promise<RunRecord> => {
      timers.sort((a, b) => a.at - b.at);
      const t = timers.shift();
      if (!t) throw new Error('nothing scheduled');
      time = Math.max(time, t.at);
      const before = runs.length;
      t.cb();
      await until('the next scheduler run', () => runs.length > before, 5_000, 20);
      return runs[runs.length - 1]!;
    };
    const chainInfo = () => sb.requests.filter((r) => r.path.includes('/blockflow/chain-info')).length;
    const model = new NodeStatusModel({ scheduler: () => scheduler, timers: manual });
    model.setClient(client);
    const first = nextStatus(model, (st) => st?.sync === 'synced');
    model.setVisible(true);
    await first;
    assert.equal(scheduler.size, 1, 'the self-clique check is a job');
    const cliques = selfCliqueRequests();
    const heightsBefore = chainInfo();
    const all = sb.requests.length;
    const run = await fireNext();
    assert.deepEqual([run.kind, run.requests], ['node', 1]);
    assert.equal(selfCliqueRequests(), cliques + 1);
    assert.equal(sb.requests.length, all + 1, 'a check is one request, nothing else');
    assert.equal(chainInfo(), heightsBefore, 'no heights while Chains is closed');
    assert.equal(run.intervalMs, NODE_SYNC_CHECK_MS, 'at the one interval the view says, never stretched');

    const heights = nextStatus(model, (st) => (st?.heights.length ?? 0) === 16);
    model.setChainsExpanded(true);
    await heights;
    assert.equal(chainInfo(), heightsBefore + 16, 'opening Chains reads them at once');
    assert.equal(scheduler.size, 2);
    // The self-clique may run ahead of its turn while the share has room; the heights come within a few runs.
    for (let i = 0; i < 10 && !runs.some((r) => r.kind === 'chains'); i++) await fireNext();
    assert.equal(runs.find((r) => r.kind === 'chains')?.requests, 16);
    assert.ok(runs.filter((r) => r.kind === 'node').every((r) => r.requests === 1));

    model.setChainsExpanded(false);
    assert.equal(scheduler.size, 1);
    model.setVisible(false);
    assert.equal(scheduler.size, 0, 'a hidden view costs nothing');
    model.dispose();
    scheduler.dispose();
  });

  it('reads again what is old when a person looks (window focus, the view shown), and nothing when it is fresh', async () => {
    let time = Date.UTC(2025, 4, 10);
    const model = new NodeStatusModel({
      timers: manualTimers(() => time).timers,
      scheduler: null,
      lookStaleMs: 30_000,
    });
    model.setClient(client);
    const first = nextStatus(model, (st) => st?.sync === 'synced');
    model.setVisible(true);
    await first;
    model.setChainsExpanded(true);
    await until('the heights of all 16 chains', () => model.current?.heights.length === 16, 5_000, 20);
    const heightsReadAt = model.current!.heightsAt;
    assert.equal(heightsReadAt, time, 'the heights carry the time they were read');
    const cliques = selfCliqueRequests();
    time += 10_000;
    model.looked();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(selfCliqueRequests(), cliques, 'fresh: a look costs nothing');

    // Minutes later (the budget checks rarely), the person comes back to the window.
    time += 5 * 60_000;
    const looked = nextStatus(model, (st) => st?.fetchedAt === time && st.heightsAt === time);
    model.looked();
    await looked;
    assert.equal(selfCliqueRequests(), cliques + 1, 'the look read the sync state again');
    model.dispose();
  });

  it('keeps the time the heights were read when a probe does not read them, so the row says their age', async () => {
    let time = Date.UTC(2025, 4, 10);
    const model = new NodeStatusModel({
      timers: manualTimers(() => time).timers,
      scheduler: null,
    });
    model.setClient(client);
    await model.refresh();
    const readAt = model.current!.heightsAt;
    assert.equal(readAt, time);
    time += 17 * 60_000;
    model.setVisible(true);
    await nextStatus(model, (st) => st?.fetchedAt === time);
    assert.equal(
      model.current!.heightsAt,
      readAt,
      'the Chains row is closed: its heights are as old as they are',
    );
    assert.equal(model.current!.heights.length, 16);
    model.dispose();
  });

  it('names a used-up quota at once and reads the node again as soon as the quota lock lifts', async () => {
    const used = 'sbx_node_model_quota';
    const rec = sb.limiter.get(used) ?? sb.limiter.add(used, 'pro');
    const quotaClient = new GatewayClient({ profile: sandboxProfile(sb, 'pro'), keyProvider: () => used });
    const model = new NodeStatusModel({ timers: manualTimers().timers, scheduler: null });
    model.setClient(quotaClient);
    await model.refresh();
    assert.equal(model.current?.sync, 'synced');
    rec.monthlyUsed = rec.perMonth;
    // Any request meeting the used-up month names it in the view (here a user's command).
    const named = nextStatus(model, (st) => st?.sync === 'quota');
    await quotaClient.getVersion({ fresh: true }).catch(() => undefined);
    await named;
    rec.monthlyUsed = 0;
    // The quota is back; the user's next command is answered, which lifts the lock: the view follows.
    const back = nextStatus(model, (st) => st?.sync === 'synced');
    model.setVisible(true);
    await quotaClient.getVersion({ fresh: true });
    await back;
    model.dispose();
    quotaClient.dispose();
  });

  it("sends a Refresh at the user's priority, so it is sent even while the quota lock holds", async () => {
    const used = 'sbx_node_model_refresh';
    const rec = sb.limiter.get(used) ?? sb.limiter.add(used, 'pro');
    const quotaClient = new GatewayClient({ profile: sandboxProfile(sb, 'pro'), keyProvider: () => used });
    const model = new NodeStatusModel({ timers: manualTimers().timers, scheduler: null });
    model.setClient(quotaClient);
    rec.monthlyUsed = rec.perMonth;
    await model.refresh();
    assert.equal(model.current?.sync, 'quota');
    rec.monthlyUsed = 0;
    // The old model probed at background priority, which the lock refused without asking the gateway.
    await model.refresh();
    assert.equal(model.current?.sync, 'synced');
    model.dispose();
    quotaClient.dispose();
  });
});
