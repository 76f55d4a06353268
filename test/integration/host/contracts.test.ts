import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import type { CallSummary } from '../../../src/core/contracts/call';
import type { WatchedContract } from '../../../src/core/contracts/watching/watchList';
import { CommandIds } from '../../../src/constants';
import { extensionApi, removeProfile, startSandboxProfile, writeSandboxProject } from './sandboxFixture';
import { until } from '../../helpers/until';

const PROFILE = 'Contracts test';

interface TriggerResult {
  txIds: string[];
  events: { blockHash: string; contractAddress: string; eventIndex: number }[];
}

async function control<T>(sandbox: Sandbox, route: string, body: unknown = {}): Promise<T> {
  const res = await fetch(`${sandbox.baseUrl}/__sandbox${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** executeCommand as a real Promise (assert.rejects wants one, VS Code returns a Thenable). */
async function run<T = unknown>(id: string, args?: unknown): Promise<T> {
  return vscode.commands.executeCommand<T>(id, args);
}

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('alephium')
    .update(key, value, vscode.ConfigurationTarget.Workspace);
}

describe('Watched contracts against the sandbox gateway', function () {
  this.timeout(60_000);
  let api: AlephiumGatewayApi;
  let sandbox: Sandbox;
  let counter: string;
  let faucet: string;

  const snapshotOf = async (address: string) => {
    const all = await api.contractsSnapshot();
    const found = all.find((c) => c.address === address);
    assert.ok(found, `${address} is not in the view: ${JSON.stringify(all.map((c) => c.label))}`);
    return found;
  };
  const newCounts = (rows: { label: string; description: string }[]) =>
    rows
      .filter((r) => r.label === 'Incremented')
      .map((r) => Number(/newCount=(\d+)/.exec(r.description)?.[1]));

  before(async () => {
    api = await extensionApi();
    // The host's window may not have focus in a headless browser; the default would slow polling 4x.
    await setSetting('watch.whenUnfocused', 'continue');
    await setSetting('events.pageSize', 3);
    sandbox = await startSandboxProfile({ name: PROFILE, plan: 'pro' });
    await vscode.commands.executeCommand(CommandIds.setApiKey, { key: sandbox.apiKeys.pro });
    counter = sandbox.contracts.find((c) => c.name === 'Counter')!.address;
    faucet = sandbox.contracts.find((c) => c.name === 'TokenFaucet')!.address;

    // The workspace of the host suite is a fresh temp folder: give it the sandbox project's artifacts
    // and a deployments file, as the Alephium CLI would have written them.
    await writeSandboxProject(
      sandbox,
      sandbox.contracts.map((c) => c.name),
    );
  });

  after(async () => {
    for (const address of [counter, faucet])
      await vscode.commands.executeCommand(CommandIds.unwatchContract, { address }).then(
        () => undefined,
        () => undefined,
      );
    await removeProfile(PROFILE);
    await setSetting('watch.whenUnfocused', undefined);
    await setSetting('events.pageSize', undefined);
    await setSetting('cache.mutableSeconds', undefined);
    await sandbox?.close();
  });

  it('watches a contract picked from the deployments file, named and matched to its artifact', async () => {
    // The file watcher picks up the files just written; retry (bounded) until the deployment is known.
    const watched = await until('the deployments file to be discovered', async () =>
      run<WatchedContract>(CommandIds.watchContract, { deployment: 'Counter' }),
    );
    assert.equal(watched.address, counter);
    const c = await until('the state to be read', async () => {
      const s = await snapshotOf(counter);
      return s.description.includes('✓') ? s : undefined;
    });
    assert.equal(c.label, 'Counter');
    assert.match(c.description, /group \d · ✓/);
    // The genesis Counter runs the debug build .project.json records, as a CLI deploy on a devnet does.
    assert.match(c.tooltip, /matches the debug build of Counter/);
    assert.equal(c.contextValue, 'alephium.contract');
  });

  it('shows the state with fields named from fieldsSig and getters read through multicall', async () => {
    const c = await snapshotOf(counter);
    const labels = c.state.map((r) => r.label);
    assert.ok(labels.includes('owner'), labels.join(', '));
    assert.ok(labels.includes('count'), labels.join(', '));
    assert.ok(labels.includes('get()'), labels.join(', '));
    const count = c.state.find((r) => r.label === 'count')!.description;
    assert.equal(c.state.find((r) => r.label === 'get()')!.description, count);
    assert.ok(sandbox.requests.some((r) => r.path.includes('/contracts/multicall-contract')));
  });

  it('shows events decoded by name, newest first, and new ones after a refresh', async () => {
    await control<TriggerResult>(sandbox, '/events/trigger', { count: 2 });
    await vscode.commands.executeCommand(CommandIds.refreshContracts);
    let c = await snapshotOf(counter);
    const before = newCounts(c.events);
    assert.ok(before.length >= 2, JSON.stringify(c.events));
    assert.deepEqual(
      before,
      [...before].sort((a, b) => b - a),
      'newest first',
    );
    assert.match(c.events[0]!.description, /^by=\S+, newCount=\d+$/);

    await control<TriggerResult>(sandbox, '/events/trigger', { count: 1 });
    // The background watcher may have shown it already (then the refresh finds nothing new).
    const result = await vscode.commands.executeCommand<{ newEvents: number }>(CommandIds.refreshContracts);
    assert.ok(result.newEvents <= 1);
    c = await snapshotOf(counter);
    assert.equal(newCounts(c.events)[0], before[0]! + 1);
  });

  it('delivers each event exactly once across watcher rebuilds (what a reload does)', async () => {
    // Rebuilding the watcher from the cursors persisted in workspaceState is what happens on a reload;
    // changing a connection setting triggers exactly that path, without reloading the test host.
    const reload = async (seconds: number) => {
      await setSetting('cache.mutableSeconds', seconds);
    };
    const a = await control<TriggerResult>(sandbox, '/events/trigger', { count: 2 });
    await reload(11);
    const hasAll = (txIds: string[]) => () => {
      const delivered = api.contractEventsDelivered();
      return txIds.every((t) => delivered.some((d) => d.txId === t && d.address === counter))
        ? true
        : undefined;
    };
    await until('events emitted before the reload to be delivered after it', hasAll(a.txIds), 30_000);
    const b = await control<TriggerResult>(sandbox, '/events/trigger', { count: 1 });
    await reload(12);
    await until('events emitted after the reload to be delivered', hasAll(b.txIds), 30_000);
    const delivered = api.contractEventsDelivered().filter((d) => d.address === counter);
    const keys = delivered.map((d) => d.key);
    assert.equal(new Set(keys).size, keys.length, `an event was delivered twice: ${keys.join('\n')}`);
    for (const t of [...a.txIds, ...b.txIds])
      assert.equal(delivered.filter((d) => d.txId === t && d.eventIndex === 0).length, 1, t);
    // The watch list is per workspace and profile: it survived the rebuilds.
    assert.equal((await snapshotOf(counter)).label, 'Counter');
  });

  it('pages older events with "Load more…" (nextStart inside each window)', async () => {
    // The list read when the Counter had no event yet holds its whole history since (the watch rebuilds
    // above keep it): nothing older to load. Watched afresh, its Events start from the latest window of
    // 3 offsets, as a newly watched contract's do.
    await vscode.commands.executeCommand(CommandIds.unwatchContract, { address: counter });
    await vscode.commands.executeCommand(CommandIds.watchContract, { deployment: 'Counter' });
    let c = await snapshotOf(counter);
    const shown = c.events.filter((e) => e.contextValue === 'alephium.event').length;
    assert.ok(
      c.events.some((e) => e.label === 'Load more…'),
      JSON.stringify(c.events),
    );
    const added = await vscode.commands.executeCommand<number>(CommandIds.loadMoreEvents, {
      address: counter,
    });
    assert.ok(added > 0);
    c = await snapshotOf(counter);
    const counts = newCounts(c.events);
    assert.equal(c.events.filter((e) => e.contextValue === 'alephium.event').length, shown + added);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
      'still newest first',
    );
    assert.equal(new Set(counts).size, counts.length, 'no event twice');
  });

  it('shows the latest N events through current-count, decoded', async () => {
    const result = await vscode.commands.executeCommand<{
      count: number;
      events: { name: string; fields: Record<string, unknown> }[];
    }>(CommandIds.showLatestEvents, { address: counter, n: 2, show: 'none' });
    assert.equal(result.events.length, 2);
    assert.ok(result.events.every((e) => e.name === 'Incremented' && 'newCount' in e.fields));
    assert.ok(Number(result.events[0]!.fields.newCount) > Number(result.events[1]!.fields.newCount));
  });

  it('decodes the events of a transaction and of a block, system Debug events included', async () => {
    const t = await control<TriggerResult>(sandbox, '/events/trigger', { count: 1 });
    const byTx = await vscode.commands.executeCommand<{ name: string; fields: Record<string, unknown> }[]>(
      CommandIds.eventsByTxId,
      { txId: t.txIds[0], show: 'none' },
    );
    const names = byTx.map((e) => e.name);
    assert.ok(names.includes('Incremented'), names.join(', '));
    assert.ok(names.includes('Debug'), names.join(', '));
    const debug = byTx.find((e) => e.name === 'Debug')!;
    assert.equal(typeof debug.fields.message, 'string');
    const byBlock = await vscode.commands.executeCommand<{ name: string; txId: string }[]>(
      CommandIds.eventsByBlockHash,
      { blockHash: t.events[0]!.blockHash, show: 'none' },
    );
    assert.ok(byBlock.some((e) => e.name === 'Incremented' && e.txId === t.txIds[0]));
  });

  it('opens the events of a transaction in a read-only document, as Show Latest Events does, naming its tx', async () => {
    const t = await control<TriggerResult>(sandbox, '/events/trigger', { count: 1 });
    const txId = t.txIds[0]!;
    // No `show`: what a person gets from the palette (a quick pick here would wait for a pick, forever).
    await run(CommandIds.eventsByTxId, { txId });
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'alephium-result');
    assert.ok(doc.getText().includes(`Incremented (eventIndex 0) in tx \`${txId}\``), doc.getText());
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('What Changed on an event: the counter before and after its block, from the argument an event row gives', async () => {
    await control(sandbox, '/events/trigger', { count: 1 });
    const t = await control<TriggerResult>(sandbox, '/events/trigger', { count: 1 });
    const event = t.events.find((e) => e.contractAddress === counter && e.eventIndex === 0)!;
    const row = {
      address: counter,
      txId: t.txIds[0],
      blockHash: event.blockHash,
      eventIndex: 0,
      show: 'none',
    };
    const result = await run<{
      historyHonoured: boolean;
      requests: number;
      fields: { name: string; before: string; after: string; changed: boolean }[];
    }>(CommandIds.eventWhatChanged, row);
    assert.equal(result.historyHonoured, true);
    const count = result.fields.find((f) => f.name === 'count')!;
    assert.equal(BigInt(count.after) - BigInt(count.before), 1n, JSON.stringify(count));
    const get = result.fields.find((f) => f.name === 'get()')!;
    assert.deepEqual([get.before, get.after], [count.before, count.after]);
    const again = await run<{ requests: number }>(CommandIds.eventWhatChanged, row);
    assert.equal(again.requests, 0);
  });

  it('calls a method: returns named by the artifact, gas, events decoded, debug messages', async () => {
    const get = await vscode.commands.executeCommand<CallSummary>(CommandIds.callContractMethod, {
      address: counter,
      method: 'get',
      args: [],
      show: 'none',
    });
    assert.equal(get.returns[0]!.name, 'result');
    assert.equal(get.returns[0]!.type, 'U256');
    assert.ok(get.gasUsed > 0);
    const inc = await run<CallSummary>(CommandIds.callContractMethod, {
      address: counter,
      method: 'incrementBy',
      args: ['5'],
      show: 'none',
    });
    const newCount = inc.events
      .find((e) => e.name === 'Incremented')
      ?.fields.find((f) => f.name === 'newCount');
    const before = get.returns[0]!.value;
    assert.ok(typeof before === 'string', 'a U256 decodes as its decimal text');
    assert.equal(newCount?.value, (BigInt(before) + 5n).toString());
    // increment() emits a Debug message, which call-contract returns as debugMessages.
    const one = await run<CallSummary>(CommandIds.callContractMethod, {
      address: counter,
      method: 'increment',
      args: [],
      show: 'none',
    });
    assert.ok(one.debugMessages.length > 0, JSON.stringify(one));
    assert.match(one.debugMessages[0]!.message, /count is now/);
  });

  it('refuses bad arguments by name and shows the node error text of a failing call', async () => {
    await assert.rejects(
      run(CommandIds.callContractMethod, {
        address: counter,
        method: 'incrementBy',
        args: ['-1'],
        show: 'none',
      }),
      /step/,
    );
    await assert.rejects(
      run(CommandIds.callContractMethod, {
        address: counter,
        method: 'incrementBy',
        args: ['1000'],
        show: 'none',
      }),
      // Named from the artifact, with the node's own text kept after it.
      /incrementBy\(1000\) \(simulate\) failed — .*ErrorCodes\.StepTooLarge = 1 · node: .*Assertion Failed in Contract @ \w+, Error Code: 1/,
    );
  });

  it('warns about code drift when the chosen artifact does not match the deployed code', async () => {
    await vscode.commands.executeCommand(CommandIds.watchContract, { address: faucet, artifact: 'Counter' });
    const c = await until('the drift badge', async () => {
      const s = await snapshotOf(faucet);
      return s.description.includes('drift') ? s : undefined;
    });
    assert.equal(c.contextValue, 'alephium.contract.drift');
    assert.match(c.tooltip, /differs from artifact Counter/);
    assert.match(c.tooltip, /matches TokenFaucet instead/);
    assert.ok(
      c.state.some((r) => r.label.startsWith('⚠')),
      JSON.stringify(c.state),
    );
    await vscode.commands.executeCommand(CommandIds.unwatchContract, { address: faucet });
    assert.ok(!(await api.contractsSnapshot()).some((s) => s.address === faucet));
  });

  it('validates addresses before watching', async () => {
    await assert.rejects(
      run(CommandIds.watchContract, { address: sandbox.accounts[0]!.address }),
      /contract address/,
    );
    await assert.rejects(run(CommandIds.watchContract, { address: 'not-an-address' }), /valid/);
  });

  it('watches a contract given by its contract id, under its address', async () => {
    const faucet = sandbox.contracts.find((c) => c.name === 'TokenFaucet')!;
    const entry = await run<{ address: string }>(CommandIds.watchContract, { address: faucet.contractId });
    try {
      assert.equal(entry.address, faucet.address);
    } finally {
      await run(CommandIds.unwatchContract, { address: faucet.address });
    }
  });

  it('Address Info: validity, group and balance with tokens', async () => {
    const info = await vscode.commands.executeCommand<{
      valid: boolean;
      group: number;
      gatewayGroup: number;
      balance: {
        alph: string;
        tokens: { id: string; amount: string; symbol?: string; decimalAmount?: string; source?: string }[];
      };
    }>(CommandIds.addressInfo, { address: sandbox.accounts[0]!.address, show: 'none' });
    assert.equal(info.valid, true);
    assert.equal(info.group, info.gatewayGroup);
    assert.ok(info.balance.tokens.length >= 1);
    // The TokenFaucet token is named by its own contract (a devnet has no token list), beside its raw amount.
    const faucetId = sandbox.contracts.find((c) => c.name === 'TokenFaucet')!.contractId;
    const faucetToken = info.balance.tokens.find((t) => t.id === faucetId);
    assert.equal(faucetToken?.symbol, 'SBX', JSON.stringify(info.balance.tokens));
    assert.equal(faucetToken?.source, 'contract');
    assert.ok(faucetToken?.amount !== undefined && /^\d+$/.test(faucetToken.amount));
    const bad = await vscode.commands.executeCommand<{ valid: boolean }>(CommandIds.addressInfo, {
      address: '1notvalid',
      show: 'none',
    });
    assert.equal(bad.valid, false);
  });

  it('Blocks in Time Range: an hour is split on 504 by the client and listed newest first', async () => {
    sandbox.mine();
    const before = sandbox.requests.length;
    const result = await vscode.commands.executeCommand<{ blocks: { timestamp: number }[] }>(
      CommandIds.blocksInTimeRange,
      { range: 'last1h', show: 'none' },
    );
    assert.ok(result.blocks.length > 0);
    const ts = result.blocks.map((b) => b.timestamp);
    assert.deepEqual(
      ts,
      [...ts].sort((x, y) => y - x),
    );
    const blockRequests = sandbox.requests.slice(before).filter((r) => r.path.includes('/blockflow/blocks'));
    assert.ok(
      blockRequests.some((r) => r.status === 504),
      'the sandbox answered 504 at least once',
    );
  });
});
