import { strict as assert } from 'node:assert';
import { GatewayClient } from '../../../src/core/gateway';
import type { NodeStatus } from '../../../src/core/workflows/nodeStatus';
import { NodeStatusModel, type Schedule } from '../../../src/core/workflows/nodeStatusModel';
import { newSandbox, sandboxProfile } from '../../sandbox/helpers';
import type { Sandbox } from '../../sandbox/server';

/** A schedule driven by hand: `runDue()` fires what is pending, as the next timer tick would. */
function manualSchedule(): { schedule: Schedule; pending: { ms: number; run: () => void }[] } {
  const pending: { ms: number; run: () => void }[] = [];
  const schedule: Schedule = (run, ms) => {
    const entry = { ms, run };
    pending.push(entry);
    return { dispose: () => void pending.splice(pending.indexOf(entry) >>> 0, 1) };
  };
  return { schedule, pending };
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

/** Polls `condition` every 20 ms for at most 5 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 5_000) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
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
    const { schedule, pending } = manualSchedule();
    const model = new NodeStatusModel({ schedule, refreshMs: 60_000, recheckMs: 10_000 });
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
    assert.equal(model.current?.heights.length, 16);
    assert.deepEqual(
      pending.map((p) => p.ms),
      [60_000],
      'once synced, the next probe waits refreshMs',
    );
    model.dispose();
  });

  it('sends a probe on every refresh, even while one hangs, and shows the newest answer', async () => {
    const model = new NodeStatusModel({ schedule: manualSchedule().schedule });
    model.setClient(client);
    // The first probe hangs (a slow node); a refresh after it must not queue behind it.
    sb.faults.add({ path: '/infos/self-clique', kind: 'delay', delayMs: 4_000, count: 1 });
    const before = selfCliqueRequests();
    const first = model.refresh();
    await until(() => selfCliqueRequests() === before + 1);
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
    const model = new NodeStatusModel({ schedule: manualSchedule().schedule });
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
    const { schedule, pending } = manualSchedule();
    const model = new NodeStatusModel({ schedule });
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
});
