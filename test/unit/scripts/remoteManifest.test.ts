import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  extensionKind?: string[];
  capabilities?: { virtualWorkspaces?: boolean | { supported: unknown; description?: string } };
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('package.json: Remote and virtual workspaces', () => {
  it('runs where the workspace is (SSH, WSL, containers): its requests, files and devnet are there', () => {
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });

  it('declares virtual workspaces as limited, saying what does not work there', () => {
    const declared = manifest.capabilities?.virtualWorkspaces;
    assert.ok(declared && typeof declared === 'object', 'virtualWorkspaces is declared with a description');
    assert.equal(declared.supported, 'limited');
    assert.match(declared.description ?? '', /deployments file/);
  });

  it('reads workspace files only through VS Code: node:fs is used by the deployments writer (disk only) and for local files', () => {
    // A new node:fs reader of workspace files would not work in a virtual workspace, and the declaration
    // above would no longer be true. The deployments writer refuses a folder that is not on disk
    // (src/contracts/deploymentsWriter.ts); the others read the machine's own files, not the workspace's,
    // and the standalone debug adapter is a process of its own, outside VS Code, that reads the files its
    // DAP client names.
    const usingNodeFs = sourceFiles(path.join(ROOT, 'src'))
      .filter((file) =>
        /from 'node:fs(\/promises)?'|require\('(node:)?fs'\)/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .sort();
    assert.deepEqual(usingNodeFs, [
      'src/core/artifacts/deploymentsFile.ts',
      'src/debugAdapter.ts',
      'src/platform/devSecrets.ts',
      'src/platform/network.ts',
    ]);
  });
});
