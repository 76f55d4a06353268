// Keys and profiles driven by command arguments, in the extension's own test run (ExtensionMode.Test):
// the one mode where arguments may act for the user without a modal (core/signing/confirmPolicy.ts
// `argumentsActForUser`, unit-tested for every mode). A modal here would never be answered and the test
// would time out, so each passing call also shows that test runs keep working without one. Whatever the
// mode, the rules about what a profile may be hold: checked here through the real commands.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addressFromPublicKey } from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import { CommandIds } from '../../../src/constants';
import { extensionApi } from './sandboxFixture';
import { until } from '../../helpers/until';

const KEY_A = '11'.repeat(32);
const KEY_B = '22'.repeat(32);
const addressOf = (key: string) => addressFromPublicKey(publicKeyFromPrivateKey(key));

/** executeCommand as a real Promise (assert.rejects wants one). */
function run<T = unknown>(id: string, args?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(id, args));
}

function profileNames(): string[] {
  const raw = vscode.workspace.getConfiguration('alephium').get<{ name?: unknown }[]>('profiles') ?? [];
  return raw.map((p) => String(p.name));
}

/** Every line the extension has logged so far (its output channel's files). */
function logText(logUri: vscode.Uri): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(logUri.fsPath);
  return texts.join('\n');
}

describe('Keys and profiles by command arguments (test run), and what a profile may be', function () {
  this.timeout(60_000);

  before(async () => {
    await extensionApi();
  });

  after(async () => {
    await run(CommandIds.forgetSignerKey, { confirm: true }).catch(() => undefined);
    for (const name of ['Args loopback node'])
      if (profileNames().includes(name)) await run(CommandIds.removeProfile, { name }).catch(() => undefined);
  });

  it('imports, replaces (naming the replaced address), shows and forgets the signer key by argument', async () => {
    const first = await run<{ address: string; replaced?: string }>(CommandIds.importSignerKey, {
      privateKey: KEY_A,
    });
    assert.equal(first.address, addressOf(KEY_A));
    const second = await run<{ address: string; replaced?: string }>(CommandIds.importSignerKey, {
      privateKey: KEY_B,
    });
    assert.equal(second.address, addressOf(KEY_B));
    // What a modal names in a user's VS Code is what the caller learns here: the key that was replaced.
    assert.equal(second.replaced, addressOf(KEY_A));
    const shown = await run<{ address: string } | undefined>(CommandIds.showSignerAddress);
    assert.equal(shown?.address, addressOf(KEY_B));
    await run(CommandIds.forgetSignerKey, { confirm: true });
    assert.equal(await run(CommandIds.showSignerAddress), undefined);
  });

  it('adds and removes a profile by argument, and refuses the values no profile may have', async () => {
    const base = { kind: 'node', baseUrl: 'http://127.0.0.1:9', network: 'devnet' };
    const refused: [Record<string, unknown>, RegExp][] = [
      // The network names the deployments file: `..` would write outside deployments/.
      [{ ...base, name: 'Args traversal', network: '../../outside' }, /Network: must be a plain name/],
      // The key travels in a header: plain http only to this machine.
      [{ ...base, name: 'Args plain http', baseUrl: 'http://gateway.example:22973' }, /must use https/],
      [
        {
          ...base,
          name: 'Args plain http gateway',
          kind: 'gateway',
          slug: 's',
          plan: 'free',
          baseUrl: 'http://10.1.2.3',
        },
        /must use https/,
      ],
      // A user name or password in the URL would be logged and shown.
      [
        { ...base, name: 'Args userinfo', baseUrl: 'https://user:secret@gateway.example' },
        /user name or password/,
      ],
    ];
    for (const [args, message] of refused) {
      await assert.rejects(run(CommandIds.addProfile, args), message, JSON.stringify(args));
      assert.ok(!profileNames().includes(args.name as string), `${String(args.name)} was added`);
    }
    await run(CommandIds.addProfile, { ...base, name: 'Args loopback node' });
    assert.ok(profileNames().includes('Args loopback node'));
    await run(CommandIds.removeProfile, { name: 'Args loopback node' });
    assert.ok(!profileNames().includes('Args loopback node'));
  });

  it('says why a profile of the settings is not used instead of "no profile" (a bad network name)', async () => {
    const config = vscode.workspace.getConfiguration('alephium');
    const target = vscode.ConfigurationTarget.Workspace;
    const before = {
      profiles: config.inspect('profiles')?.workspaceValue,
      active: config.inspect('activeProfile')?.workspaceValue,
    };
    try {
      await config.update(
        'profiles',
        [{ name: 'Bad network', kind: 'node', baseUrl: 'http://127.0.0.1:9', network: '../../outside' }],
        target,
      );
      await config.update('activeProfile', 'Bad network', target);
      const error = await until('the connection to name the unusable profile', async () => {
        try {
          await run(CommandIds.addressInfo, { address: addressOf(KEY_A), show: 'none' });
          return undefined;
        } catch (e) {
          return /Bad network/.test(String(e)) ? String(e) : undefined;
        }
      });
      assert.match(
        error,
        /Profile "Bad network" in the settings is not used: its network must be a plain name/,
      );
    } finally {
      await config.update('profiles', before.profiles, target);
      await config.update('activeProfile', before.active, target);
    }
  });

  it('skips an artifact file over 2 MB with a log line', async () => {
    const api = await extensionApi();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const huge = vscode.Uri.joinPath(folder, 'artifacts', 'Huge.ral.json');
    // Valid JSON, 3 MB: a workspace could ship thousands of those, each read whole on every change.
    const text = JSON.stringify({ version: 'v3', name: 'Huge', padding: 'x'.repeat(3 * 1024 * 1024) });
    await vscode.workspace.fs.writeFile(huge, new TextEncoder().encode(text));
    try {
      await until(
        'the skipped artifact in the log',
        () =>
          /Artifacts: skipped \S*artifacts\/Huge\.ral\.json: 3\.0 MB/.test(logText(api.logUri)) || undefined,
        20_000,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${logText(api.logUri).slice(-3000)}`);
      });
    } finally {
      await vscode.workspace.fs.delete(huge);
    }
  });
});
