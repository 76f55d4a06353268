import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WorkspaceArtifacts } from '../../../src/contracts/workspaceArtifacts';
import { WorkspaceProjects } from '../../../src/platform/workspaceProjects';
import type { Logger } from '../../../src/core/util/log';

/** The hand-written fixture project (test/fixtures/artifacts/project), from the bundled test's folder. */
const FIXTURE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'artifacts', 'project');
const VAULT = '29E9VSez1vizNkuXApftPc6dkT4tGrHbNKVfyHDannagG';
const PROJECT = 'custom-dirs-project';

describe('a project with its own artifactDir and deploymentsDir (alephium.config.ts)', () => {
  let folder: vscode.WorkspaceFolder;
  const warnings: string[] = [];
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
  };

  before(async () => {
    folder = vscode.workspace.workspaceFolders![0]!;
    const write = (rel: string, text: string) =>
      vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(folder.uri, PROJECT, rel),
        new TextEncoder().encode(text),
      );
    const copyDir = async (from: string, to: string) => {
      for (const e of fs.readdirSync(from, { recursive: true, withFileTypes: true })) {
        if (!e.isFile()) continue;
        const full = path.join(e.parentPath, e.name);
        await write(
          path.posix.join(to, path.relative(from, full).split(path.sep).join('/')),
          fs.readFileSync(full, 'utf8'),
        );
      }
    };
    await copyDir(path.join(FIXTURE, 'artifacts'), 'build');
    await copyDir(path.join(FIXTURE, 'deployments'), 'deploy');
    await write(
      'alephium.config.ts',
      "const configuration = {\n  artifactDir: './build',\n  deploymentsDir: 'deploy',\n  sourceDir: 'src/{a,b}',\n}\nexport default configuration\n",
    );
  });

  after(async () => {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, PROJECT), { recursive: true });
  });

  it('has its contracts and deployments found, and its deploymentsDir names where Deploy writes', async () => {
    const projects = new WorkspaceProjects(log);
    const artifacts = new WorkspaceArtifacts(log, projects);
    try {
      const registry = await artifacts.registry();
      assert.ok(
        registry.contracts.some((c) => c.name === 'Vault'),
        'Vault found under build/',
      );
      assert.equal(registry.matchAddress(VAULT, 'devnet')?.artifact?.name, 'Vault');
      const vault = registry.contracts.find((c) => c.name === 'Vault')!;
      const project = await artifacts.projectOf(folder, artifacts.uriOf(vault.file)!);
      assert.equal(project?.root.fsPath, vscode.Uri.joinPath(folder.uri, PROJECT).fsPath);
      assert.equal(project?.config.deploymentsDir, 'deploy');
      // A folder with glob syntax is refused, said once in the log, and the default kept.
      assert.equal(project?.config.sourceDir, 'contracts');
      assert.equal(warnings.filter((w) => w.includes('sourceDir "src/{a,b}" is not used')).length, 1);
    } finally {
      artifacts.dispose();
      projects.dispose();
    }
  });
});
