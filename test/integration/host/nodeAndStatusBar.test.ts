import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import { CommandIds } from '../../../src/constants';
import { extensionApi, readLogs, removeProfile, startSandboxProfile } from './sandboxFixture';
import { until } from '../../helpers/until';

describe('Node view and status bar against the sandbox gateway', () => {
  let api: AlephiumGatewayApi;
  let sandbox: Sandbox;

  before(async () => {
    api = await extensionApi();
    sandbox = await startSandboxProfile({ name: 'Node test', plan: 'free' });
  });

  after(async () => {
    await removeProfile('Node test');
    await sandbox?.close();
  });

  it('checks a new API key with one request and reports success', async () => {
    const result = await vscode.commands.executeCommand<{ ok: boolean; message: string }>(
      CommandIds.setApiKey,
      {
        key: sandbox.apiKeys.free,
      },
    );
    assert.equal(result.ok, true, result.message);
    assert.match(result.message, /node v4\.6\.0/);
  });

  it('shows sync state, version, chain params and the heights of all 16 chains', async () => {
    sandbox.mine();
    await api.refreshNode();
    const status = api.nodeStatus();
    assert.ok(status);
    assert.equal(status.sync, 'synced');
    assert.equal(status.version, 'v4.6.0');
    assert.equal(status.groups, 4);
    assert.equal(status.heights.length, 16);
    for (const h of status.heights)
      assert.ok(typeof h.height === 'number' && h.height >= 1, JSON.stringify(h));
  });

  it('shows the headroom the gateway reported in the status bar, as remaining/limit', async () => {
    const text = await until('a headroom in the status bar', () => {
      const t = api.statusBarText();
      return /\d+\/5 req\/s/.test(t) ? t : undefined;
    });
    const [, remaining] = /(\d+)\/5 req\/s/.exec(text) ?? [];
    // Below 5 right after requests; 5/5 once the one-second window has reset (the item decays by itself).
    assert.ok(Number(remaining) >= 0 && Number(remaining) <= 5, text);
  });

  it('turns to "syncing" during a 503 and back to "synced" by itself', async function () {
    this.timeout(60_000);
    // Every chain-info answers 503 and self-clique reports unsynced until the fault is cleared.
    sandbox.faults.add({ path: '/blockflow/chain-info', kind: '503' });
    const refreshing = api.refreshNode();
    await until('the node view to say syncing', () =>
      api.nodeStatus()?.sync === 'syncing' ? true : undefined,
    );
    sandbox.faults.clear();
    await refreshing;
    await until(
      'the node view to say synced again',
      () => (api.nodeStatus()?.sync === 'synced' ? true : undefined),
      40_000,
    );
    assert.equal(api.nodeStatus()?.heights.length, 16);
  });

  it('after a monthly-quota 429 and the quota restored, the next command works without a reload; meanwhile both views say so', async function () {
    this.timeout(60_000);
    const rec = sandbox.limiter.get(sandbox.apiKeys.free)!;
    const used = rec.monthlyUsed;
    const address = sandbox.accounts[0]!.address;
    rec.monthlyUsed = rec.perMonth;
    try {
      await api.refreshNode();
      assert.equal(api.nodeStatus()?.sync, 'quota', 'the Node view names the used-up month');
      const text = await until('the status bar to say the quota is used up', () =>
        /quota used up until \d{4}-\d\d-01/.test(api.statusBarText()) ? api.statusBarText() : undefined,
      );
      assert.match(text, /^\$\(error\)/);
    } finally {
      rec.monthlyUsed = used;
    }
    // The quota is back: the next command is sent and answered (the old lock refused it without asking
    // until Developer: Reload Window), and the views follow.
    const before = sandbox.requests.length;
    const info = await vscode.commands.executeCommand<{ balance?: string }>(CommandIds.addressInfo, {
      address,
      show: 'none',
    });
    assert.ok(info.balance, 'the command was answered');
    assert.ok(sandbox.requests.length > before, 'the command reached the gateway');
    await until('the status bar to leave "quota used up"', () =>
      api.statusBarText().includes('quota used up') ? undefined : true,
    );
    await api.refreshNode();
    assert.equal(api.nodeStatus()?.sync, 'synced');

    // Once more, and this time Set API Key with the same key, answered by the gateway, lifts the lock.
    rec.monthlyUsed = rec.perMonth;
    await api.refreshNode();
    assert.equal(api.nodeStatus()?.sync, 'quota');
    rec.monthlyUsed = used;
    const result = await vscode.commands.executeCommand<{ ok: boolean; message: string }>(
      CommandIds.setApiKey,
      { key: sandbox.apiKeys.free },
    );
    assert.equal(result.ok, true, result.message);
    await until('the status bar to leave "quota used up" after Set API Key', () =>
      api.statusBarText().includes('quota used up') ? undefined : true,
    );
    await api.refreshNode();
    assert.equal(api.nodeStatus()?.sync, 'synced');
  });

  it('keeps the working key when a new one is rejected (401)', async () => {
    const result = await vscode.commands.executeCommand<{ ok: boolean; message: string }>(
      CommandIds.setApiKey,
      {
        key: sandbox.apiKeys.revoked,
      },
    );
    assert.equal(result.ok, false);
    assert.match(result.message, /rejected this API key.*previous key is kept/);
    await api.refreshNode();
    assert.equal(api.nodeStatus()?.sync, 'synced', 'the node is still read with the working key');
  });

  it('does not send the key to another origin when the profile is pointed elsewhere', async () => {
    const section = vscode.workspace.getConfiguration('alephium');
    const inspected = section.inspect<{ name: string; baseUrl: string }[]>('profiles');
    const target =
      inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
    const before = (inspected?.workspaceValue ?? inspected?.globalValue ?? []).map((p) => ({ ...p }));
    // Same server, another origin string: what a cloned repository's settings could do to a keyed profile.
    const moved = before.map((p) =>
      p.name === 'Node test' ? { ...p, baseUrl: p.baseUrl.replace('127.0.0.1', 'localhost') } : p,
    );
    const seen = sandbox.requests.length;
    await section.update('profiles', moved, target);
    try {
      // Nothing is sent there: for that origin, the profile has no API key (it used to say "unauthorized").
      await until('the node view to say the key is not usable there', async () => {
        await api.refreshNode();
        return api.nodeStatus()?.sync === 'noKey' ? true : undefined;
      });
      const sent = sandbox.requests
        .slice(seen)
        .filter((r) => JSON.stringify(r.headers).includes(sandbox.apiKeys.free));
      assert.equal(sent.length, 0, 'the key reached the other origin');
    } finally {
      await section.update('profiles', before, target);
    }
    await until('the node view to be synced again at the original origin', async () => {
      await api.refreshNode();
      return api.nodeStatus()?.sync === 'synced' ? true : undefined;
    });
  });

  it('says plainly when the stored key is rejected (401), in the status bar and the node view', async () => {
    // The gateway revokes the key in use.
    const res = await fetch(`${sandbox.baseUrl}/__sandbox/keys/${sandbox.apiKeys.free}/usage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'revoked' }),
    });
    assert.equal(res.status, 200);
    await api.refreshNode();
    await until('the status bar to report the rejected key', () =>
      api.statusBarText().includes('API key rejected') ? true : undefined,
    );
    await api.refreshNode();
    assert.equal(api.nodeStatus()?.sync, 'unauthorized');
  });

  it('never writes the API key into the log or the settings', async () => {
    api.log.info(`probe: request failed with Authorization: Bearer ${sandbox.apiKeys.free}`);
    const settings = JSON.stringify(vscode.workspace.getConfiguration('alephium'));
    const log = await readLogs(api.logUri);
    assert.ok(log.includes('probe: request failed'), 'the log file was not found or not written');
    for (const key of [sandbox.apiKeys.free, sandbox.apiKeys.revoked]) {
      assert.ok(!settings.includes(key), 'an API key is in the settings');
      assert.ok(!log.includes(key), 'an API key is in the log');
    }
  });
});
