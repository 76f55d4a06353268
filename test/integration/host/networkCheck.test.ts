import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import { CommandIds } from '../../../src/constants';
import { extensionApi, readLogs, removeProfile, startSandboxProfile } from './sandboxFixture';
import { until } from '../../helpers/until';

const PROFILE = 'Mismatch test';

describe('the network check on connect', () => {
  let api: AlephiumGatewayApi;
  let sandbox: Sandbox;

  before(async () => {
    api = await extensionApi();
    // The sandbox is a devnet (network id 4); the profile says testnet (id 1).
    sandbox = await startSandboxProfile({ name: PROFILE, plan: 'pro', network: 'testnet' });
  });

  after(async () => {
    await removeProfile(PROFILE);
    await sandbox?.close();
  });

  it('says a testnet profile on a devnet node at once: the Node view and one log line', async () => {
    await vscode.commands.executeCommand(CommandIds.setApiKey, { key: sandbox.apiKeys.pro });
    const mismatch = await until('the Node view to name the mismatch', () => api.networkMismatch());
    assert.match(
      mismatch,
      /network is testnet \(network id 1\), but the node is on a devnet \(network id 4\)/,
    );
    await api.refreshNode();
    const lines = (await readLogs(api.logUri))
      .split('\n')
      .filter((l) => l.includes(`Profile "${PROFILE}": Network mismatch`));
    assert.equal(lines.length, 1, lines.join('\n'));
  });
});
