import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEPLOYMENTS_DIAGNOSTIC_SOURCE, WorkspaceArtifacts } from '../../../src/contracts/workspaceArtifacts';
import { WorkspaceProjects } from '../../../src/platform/workspaceProjects';
import type { Logger } from '../../../src/core/util/log';

/** The hand-written fixture project (test/fixtures/artifacts/project), from the bundled test's folder. */
const FIXTURE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'artifacts', 'project');
const PROJECT = 'bad-deployments-entry-project';
const BAD_KEY = 'Vault two';

describe('a deployments entry with an invalid key', () => {
  let folder: vscode.WorkspaceFolder;
  let deploymentsUri: vscode.Uri;
  let keyLine: number;
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };

  before(async () => {
    folder = vscode.workspace.workspaceFolders![0]!;
    const write = (rel: string, text: string) =>
      vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(folder.uri, PROJECT, rel),
        new TextEncoder().encode(text),
      );
    const testnet = JSON.parse(
      fs.readFileSync(path.join(FIXTURE, 'deployments', '.deployments.testnet.json'), 'utf8'),
    ) as { contracts: Record<string, unknown> };
    const vault = testnet.contracts.Vault;
    testnet.contracts = { Vault: vault, [BAD_KEY]: vault, 'Vault:2': vault };
    const text = JSON.stringify(testnet, null, 2);
    keyLine = text.split('\n').findIndex((l) => l.includes(JSON.stringify(BAD_KEY)));
    await write('deploy/.deployments.testnet.json', text);
    await write(
      'alephium.config.ts',
      "const configuration = {\n  deploymentsDir: 'deploy',\n}\nexport default configuration\n",
    );
    deploymentsUri = vscode.Uri.joinPath(folder.uri, PROJECT, 'deploy', '.deployments.testnet.json');
  });

  after(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, PROJECT), { recursive: true });
  });

  it("keeps the file's other entries and puts the bad one in the Problems view at its key", async () => {
    const projects = new WorkspaceProjects(log);
    const artifacts = new WorkspaceArtifacts(log, projects);
    try {
      const registry = await artifacts.registry();
      const names = registry
        .deployments('testnet')
        .filter((d) => d.name.startsWith('Vault'))
        .map((d) => d.name);
      assert.ok(names.includes('Vault') && names.includes('Vault:2'), names.join(', '));
      const mine = vscode.languages
        .getDiagnostics(deploymentsUri)
        .filter((d) => d.source === DEPLOYMENTS_DIAGNOSTIC_SOURCE);
      assert.ok(mine.length >= 1, 'a Problems entry on the deployments file');
      assert.ok(
        mine.every((d) => d.range.start.line === keyLine),
        `at line ${keyLine + 1}`,
      );
      assert.match(mine[0]!.message, /is not a deployment key/);
      assert.equal(mine[0]!.severity, vscode.DiagnosticSeverity.Warning);
    } finally {
      artifacts.dispose();
      projects.dispose();
    }
  });
});
