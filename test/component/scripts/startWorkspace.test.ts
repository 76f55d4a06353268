import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareStartWorkspace, START_PROFILE } from '../../../scripts/startSandbox.mjs';
import { ArtifactRegistry, type SourceFile } from '../../../src/core/artifacts';
import { startSandbox, type Sandbox } from '../../../sandbox';

function readTree(dir: string, root = dir, out: SourceFile[] = []): SourceFile[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) readTree(full, root, out);
    else
      out.push({
        path: path.relative(root, full).split(path.sep).join('/'),
        text: fs.readFileSync(full, 'utf8'),
      });
  }
  return out;
}

describe("npm start's workspace (scripts/startSandbox.mjs)", () => {
  let sandbox: Sandbox;
  let dir: string;
  let workspace: string;
  let secretsFile: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0, blockTimeMs: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-ws-'));
    ({ workspace, secretsFile } = prepareStartWorkspace(sandbox, dir));
  });
  after(async () => {
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists every sandbox contract in a devnet deployments file that resolves to the workspace's artifacts", async () => {
    const registry = ArtifactRegistry.fromFiles(readTree(workspace));
    assert.deepEqual(registry.problems, []);
    assert.equal(registry.deploymentFiles.length, 1);
    assert.equal(registry.deploymentFiles[0]?.file, 'deployments/.deployments.devnet.json');
    const deployed = registry.deployments('devnet');
    assert.deepEqual(deployed.map((d) => d.address).sort(), sandbox.contracts.map((c) => c.address).sort());
    for (const c of sandbox.contracts) {
      const match = registry.matchAddress(c.address, 'devnet');
      assert.equal(match?.artifact?.name, c.name, `${c.name} resolves to its artifact`);
      // The code the sandbox serves for the contract is the code the artifact describes (no drift shown).
      const response = await fetch(`${sandbox.apiUrl}/contracts/${c.address}/state`, {
        headers: { Authorization: `Bearer ${sandbox.apiKeys.pro}` },
      });
      assert.equal(response.status, 200);
      const state = (await response.json()) as { codeHash: string };
      assert.equal(registry.checkDrift(match?.artifact, state.codeHash).status, 'match', c.name);
    }
  });

  it('points the workspace at the sandbox as a devnet gateway profile and hands over test keys only', () => {
    const settings = JSON.parse(
      fs.readFileSync(path.join(workspace, '.vscode', 'settings.json'), 'utf8'),
    ) as { 'alephium.profiles': Record<string, unknown>[]; 'alephium.activeProfile': string };
    assert.equal(settings['alephium.activeProfile'], START_PROFILE);
    assert.deepEqual(settings['alephium.profiles'], [
      {
        name: START_PROFILE,
        kind: 'gateway',
        baseUrl: sandbox.baseUrl,
        slug: sandbox.slug,
        network: 'devnet',
        plan: 'free',
      },
    ]);
    // No key is written into the settings: they travel in the session's 0600 secrets file only.
    const settingsText = fs.readFileSync(path.join(workspace, '.vscode', 'settings.json'), 'utf8');
    assert.ok(!settingsText.includes(sandbox.apiKeys.free));
    assert.ok(!settingsText.includes(sandbox.accounts[0]!.privateKey));
    assert.equal(fs.statSync(secretsFile).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(fs.readFileSync(secretsFile, 'utf8')), {
      profile: START_PROFILE,
      apiKey: sandbox.apiKeys.free,
      signerPrivateKey: sandbox.accounts[0]!.privateKey,
    });
  });
});
