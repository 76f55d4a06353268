import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DEPLOYMENTS_FILE_READ_LIMIT,
  DeploymentsFileError,
  deploymentsFileName,
  projectRootOf,
  resolveDeploymentsTarget,
  updateDeploymentsFile,
} from '../../../src/core/artifacts/deploymentsFile';

/** A merge like addDeployment's: the file's entries, plus one more (so "keeps every entry" is checkable). */
function addEntry(name: string) {
  return (existing: string | undefined) => {
    const contracts =
      existing === undefined || existing.trim() === ''
        ? {}
        : (JSON.parse(existing) as { contracts: Record<string, unknown> }).contracts;
    const text = `${JSON.stringify({ deployerAddress: 'me', contracts: { ...contracts, [name]: { at: name } } }, null, 2)}\n`;
    return { text, name };
  };
}

function readJson(file: string): { contracts: Record<string, unknown> } {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as { contracts: Record<string, unknown> };
}

describe('the deployments file is written only where it belongs (core/artifacts/deploymentsFile)', () => {
  let root: string;
  let workspace: string;
  let outside: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deployments-file-')));
    workspace = path.join(root, 'workspace');
    outside = path.join(root, 'outside');
    fs.mkdirSync(workspace);
    fs.mkdirSync(outside);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const listOutside = () => fs.readdirSync(outside, { recursive: true }).map(String).sort();

  it('writes deployments/.deployments.<network>.json in the folder, creating the directory, and says where', async () => {
    const written = await updateDeploymentsFile(workspace, 'devnet', addEntry('Counter'));
    assert.equal(written.shown, 'deployments/.deployments.devnet.json');
    assert.equal(written.name, 'Counter');
    const file = path.join(workspace, 'deployments', '.deployments.devnet.json');
    assert.equal(written.file, file);
    assert.deepEqual(Object.keys(readJson(file).contracts), ['Counter']);
    // Nothing else is left behind (no temporary file).
    assert.deepEqual(fs.readdirSync(path.join(workspace, 'deployments')), ['.deployments.devnet.json']);
  });

  it('refuses a network name that could leave the folder, before touching the disk', async () => {
    for (const network of [
      '..',
      '../../outside/x',
      'a/b',
      'a\\b',
      '.hidden',
      '',
      'dev.net',
      'x'.repeat(33),
    ]) {
      await assert.rejects(
        updateDeploymentsFile(workspace, network, addEntry('Counter')),
        DeploymentsFileError,
      );
      assert.throws(() => deploymentsFileName(network), DeploymentsFileError, network);
    }
    assert.deepEqual(listOutside(), []);
    assert.equal(fs.existsSync(path.join(workspace, 'deployments')), false);
    assert.equal(deploymentsFileName('testnet'), '.deployments.testnet.json');
  });

  it('refuses a deployments directory that is a symbolic link (a cloned repository can ship one)', async () => {
    fs.symlinkSync(outside, path.join(workspace, 'deployments'), 'dir');
    await assert.rejects(updateDeploymentsFile(workspace, 'devnet', addEntry('Counter')), /symbolic link/);
    assert.deepEqual(listOutside(), []);
  });

  it('refuses a deployments file that is a symbolic link, and leaves its target alone', async () => {
    const target = path.join(outside, '.bashrc');
    fs.writeFileSync(target, 'export PATH=/usr/bin\n');
    fs.mkdirSync(path.join(workspace, 'deployments'));
    const link = path.join(workspace, 'deployments', '.deployments.devnet.json');
    fs.symlinkSync(target, link);
    await assert.rejects(updateDeploymentsFile(workspace, 'devnet', addEntry('Counter')), /symbolic link/);
    assert.equal(fs.readFileSync(target, 'utf8'), 'export PATH=/usr/bin\n');
    assert.ok(fs.lstatSync(link).isSymbolicLink());
    // A dangling link (its target does not exist yet) is not created through either.
    fs.rmSync(target);
    await assert.rejects(updateDeploymentsFile(workspace, 'devnet', addEntry('Counter')), /symbolic link/);
    assert.deepEqual(listOutside(), []);
  });

  it('refuses a project folder whose real path leaves the workspace folder', async () => {
    fs.mkdirSync(path.join(outside, 'project'));
    fs.symlinkSync(path.join(outside, 'project'), path.join(workspace, 'project'), 'dir');
    await assert.rejects(
      updateDeploymentsFile(workspace, 'devnet', addEntry('Counter'), path.join(workspace, 'project')),
      /not inside the workspace folder/,
    );
    assert.deepEqual(listOutside(), ['project']);
  });

  it('works inside a workspace that is itself reached through a link (real paths on both sides)', async () => {
    const alias = path.join(root, 'alias');
    fs.symlinkSync(workspace, alias, 'dir');
    const written = await updateDeploymentsFile(alias, 'devnet', addEntry('Counter'));
    assert.equal(written.file, path.join(workspace, 'deployments', '.deployments.devnet.json'));
  });

  it('keeps every entry already there (the merge sees the file as it is)', async () => {
    fs.mkdirSync(path.join(workspace, 'deployments'));
    const file = path.join(workspace, 'deployments', '.deployments.devnet.json');
    fs.writeFileSync(file, JSON.stringify({ deployerAddress: 'me', contracts: { FromCli: { at: 'cli' } } }));
    await updateDeploymentsFile(workspace, 'devnet', addEntry('Counter'));
    assert.deepEqual(Object.keys(readJson(file).contracts).sort(), ['Counter', 'FromCli']);
  });

  it('serializes writes to one file: concurrent deploys all end up in it', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `C${i}`);
    // Each merge yields to the event loop first, so unserialized writers would all read the same old file.
    const slowAdd = (name: string) => async (existing: string | undefined) => {
      await new Promise((resolve) => setImmediate(resolve));
      return addEntry(name)(existing);
    };
    await Promise.all(names.map((n) => updateDeploymentsFile(workspace, 'devnet', slowAdd(n))));
    const file = path.join(workspace, 'deployments', '.deployments.devnet.json');
    assert.deepEqual(Object.keys(readJson(file).contracts).sort(), [...names].sort());
  });

  it('replaces the file atomically: a failing merge leaves the old file whole and no temporary file', async () => {
    fs.mkdirSync(path.join(workspace, 'deployments'));
    const file = path.join(workspace, 'deployments', '.deployments.devnet.json');
    const before = JSON.stringify({ deployerAddress: 'me', contracts: { Kept: {} } });
    fs.writeFileSync(file, before);
    await assert.rejects(
      updateDeploymentsFile(workspace, 'devnet', () => {
        throw new Error('merge failed');
      }),
      /merge failed/,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    assert.deepEqual(fs.readdirSync(path.join(workspace, 'deployments')), ['.deployments.devnet.json']);
    // And the next write still goes through (the queue did not stall on the failure).
    await updateDeploymentsFile(workspace, 'devnet', addEntry('Counter'));
    assert.deepEqual(Object.keys(readJson(file).contracts).sort(), ['Counter', 'Kept']);
  });

  it('reports an existing file that is not JSON without quoting it, and leaves it as it is', async () => {
    fs.mkdirSync(path.join(workspace, 'deployments'));
    const file = path.join(workspace, 'deployments', '.deployments.devnet.json');
    const secretish = 'export API_KEY=sk-live-0123456789abcdef';
    fs.writeFileSync(file, secretish);
    await assert.rejects(updateDeploymentsFile(workspace, 'devnet', addEntry('Counter')), (error: Error) => {
      assert.match(
        error.message,
        /deployments\/\.deployments\.devnet\.json is not valid JSON; it was left as it is/,
      );
      assert.ok(!error.message.includes('export'), error.message);
      assert.ok(!error.message.includes('sk-live'), error.message);
      return true;
    });
    assert.equal(fs.readFileSync(file, 'utf8'), secretish);
  });

  it('refuses a deployments path that is a directory, and a file past the read limit', async () => {
    fs.mkdirSync(path.join(workspace, 'deployments', '.deployments.devnet.json'), { recursive: true });
    await assert.rejects(
      updateDeploymentsFile(workspace, 'devnet', addEntry('Counter')),
      /not a regular file/,
    );
    fs.rmSync(path.join(workspace, 'deployments'), { recursive: true });
    fs.mkdirSync(path.join(workspace, 'deployments'));
    const big = path.join(workspace, 'deployments', '.deployments.testnet.json');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, DEPLOYMENTS_FILE_READ_LIMIT + 1);
    await assert.rejects(updateDeploymentsFile(workspace, 'testnet', addEntry('Counter')), /larger than/);
    assert.equal(fs.statSync(big).size, DEPLOYMENTS_FILE_READ_LIMIT + 1);
  });

  it('finds the project of an artifact: the parent of its artifacts directory, inside the folder', () => {
    const ws = path.resolve('/ws');
    assert.equal(projectRootOf(ws, path.join(ws, 'artifacts', 'Counter.ral.json')), ws);
    assert.equal(projectRootOf(ws, path.join(ws, 'artifacts', 'sub', 'Counter.ral.json')), ws);
    assert.equal(
      projectRootOf(ws, path.join(ws, 'packages', 'token', 'artifacts', 'Token.ral.json')),
      path.join(ws, 'packages', 'token'),
    );
    // Not under an artifacts directory, or not in the folder at all: the folder itself.
    assert.equal(projectRootOf(ws, path.join(ws, 'build', 'Counter.ral.json')), ws);
    assert.equal(projectRootOf(ws, path.resolve('/elsewhere/artifacts/Counter.ral.json')), ws);
    assert.equal(projectRootOf(ws, undefined), ws);
  });

  it("writes into a nested project's own deployments directory", async () => {
    const project = path.join(workspace, 'packages', 'token');
    fs.mkdirSync(path.join(project, 'artifacts'), { recursive: true });
    const written = await updateDeploymentsFile(workspace, 'testnet', addEntry('Token'), project);
    assert.equal(written.shown, 'packages/token/deployments/.deployments.testnet.json');
    assert.ok(fs.existsSync(path.join(project, 'deployments', '.deployments.testnet.json')));
  });

  it("writes into the project's deploymentsDir of alephium.config.*, creating each folder of it", async () => {
    const written = await updateDeploymentsFile(
      workspace,
      'devnet',
      addEntry('Counter'),
      workspace,
      './deploy/files/',
    );
    assert.equal(written.shown, 'deploy/files/.deployments.devnet.json');
    assert.deepEqual(
      Object.keys(readJson(path.join(workspace, 'deploy', 'files', '.deployments.devnet.json')).contracts),
      ['Counter'],
    );
    assert.equal(fs.existsSync(path.join(workspace, 'deployments')), false);
  });

  it('refuses a deploymentsDir that climbs out or is a link, before writing anything', async () => {
    await assert.rejects(
      updateDeploymentsFile(workspace, 'devnet', addEntry('Counter'), workspace, '../outside'),
      /deploymentsDir "..\/outside" is not used: it leaves/,
    );
    fs.mkdirSync(path.join(workspace, 'deploy'));
    fs.symlinkSync(outside, path.join(workspace, 'deploy', 'files'));
    await assert.rejects(
      updateDeploymentsFile(workspace, 'devnet', addEntry('Counter'), workspace, 'deploy/files'),
      /deploy\/files is a symbolic link/,
    );
    assert.deepEqual(listOutside(), []);
  });

  it('resolves the target without creating the file', async () => {
    const target = await resolveDeploymentsTarget(workspace, 'mainnet');
    assert.equal(target.shown, 'deployments/.deployments.mainnet.json');
    assert.equal(fs.existsSync(target.file), false);
  });
});
