// Where Add Profile writes: a profile names a personal key's URL and slug, so it goes to the user's own
// settings, also in a folder whose .vscode/settings.json already defines profiles (as `npm start`'s
// does). The folder's profiles are still offered beside the user's, and removing one removes it from
// the place that holds it.
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/constants';
import { extensionApi } from './sandboxFixture';

const TEAM = { name: 'Team devnet', kind: 'node', baseUrl: 'http://127.0.0.1:9', network: 'devnet' };
const MINE = 'My loopback node';

function run<T = unknown>(id: string, args?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(id, args));
}

function names(values: unknown): string[] {
  return Array.isArray(values) ? values.map((p: { name?: unknown }) => String(p.name)) : [];
}

describe('Add Profile writes to user settings by default', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('alephium');
  const target = vscode.ConfigurationTarget.Workspace;
  let before: { profiles: unknown; active: unknown; userActive: unknown };

  beforeEach(async () => {
    await extensionApi();
    before = {
      profiles: config().inspect('profiles')?.workspaceValue,
      active: config().inspect('activeProfile')?.workspaceValue,
      userActive: config().inspect('activeProfile')?.globalValue,
    };
  });

  afterEach(async () => {
    const inspected = config().inspect('profiles');
    if (names(inspected?.globalValue).includes(MINE) || names(inspected?.workspaceValue).includes(MINE))
      await run(CommandIds.removeProfile, { name: MINE }).catch(() => undefined);
    await config().update('profiles', before.profiles, target);
    await config().update('activeProfile', before.active, target);
    await config().update('activeProfile', before.userActive, vscode.ConfigurationTarget.Global);
  });

  it("keeps a new profile out of the folder's settings even when the folder defines profiles", async () => {
    await config().update('profiles', [TEAM], target);
    await run(CommandIds.addProfile, {
      name: MINE,
      kind: 'node',
      baseUrl: 'http://127.0.0.1:9',
      network: 'devnet',
    });
    const inspected = config().inspect('profiles');
    assert.ok(names(inspected?.globalValue).includes(MINE), JSON.stringify(inspected?.globalValue));
    assert.deepEqual(names(inspected?.workspaceValue), [TEAM.name], 'the folder keeps only its own profile');

    // Both are offered: switching to either by name finds it.
    assert.equal(await run<string>(CommandIds.switchProfile, { name: TEAM.name }), TEAM.name);
    assert.equal(await run<string>(CommandIds.switchProfile, { name: MINE }), MINE);

    await run(CommandIds.removeProfile, { name: MINE });
    assert.ok(!names(config().inspect('profiles')?.globalValue).includes(MINE), 'removed from user settings');
    assert.deepEqual(names(config().inspect('profiles')?.workspaceValue), [TEAM.name]);
  });
});
