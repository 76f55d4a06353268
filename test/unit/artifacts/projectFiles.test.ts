/**
 * A project whose `alephium.config.ts` names its own folders has its contracts found: the search pattern
 * the artifacts glue gives VS Code's findFiles comes from `projectFilesGlob` of the configs read, and is
 * matched here against a real folder by a small matcher of the glob subset that pattern uses (`**`,
 * `*` inside a segment, one top-level `{a,b}`).
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { projectFilesGlob, readProjectConfig } from '../../../src/core/artifacts/projectConfig';
import { FIXTURE_ROOT, VAULT } from './helpers';

function segmentMatches(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i === 0) {
      if (!name.startsWith(part)) return false;
      at = part.length;
    } else if (i === parts.length - 1) {
      return name.length - part.length >= at && name.endsWith(part);
    } else {
      const found = name.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
  }
  return true;
}

function segmentsMatch(pattern: readonly string[], path: readonly string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern as [string, ...string[]];
  if (head === '**') {
    for (let skip = 0; skip <= path.length; skip++) if (segmentsMatch(rest, path.slice(skip))) return true;
    return false;
  }
  return path.length > 0 && segmentMatches(head, path[0] as string) && segmentsMatch(rest, path.slice(1));
}

/** `**\/{a,b}` → does `path` (relative, `/`-separated) match `**\/a` or `**\/b`. */
function globMatches(glob: string, path: string): boolean {
  const open = glob.indexOf('{');
  const alternatives =
    open < 0
      ? [glob]
      : glob
          .slice(open + 1, -1)
          .split(',')
          .map((a) => glob.slice(0, open) + a);
  return alternatives.some((a) => segmentsMatch(a.split('/'), path.split('/')));
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** What WorkspaceArtifacts reads: every file the pattern matches, as (path, text). */
function registryOf(root: string, glob: string): ArtifactRegistry {
  const files = filesUnder(root)
    .filter((path) => globMatches(glob, path))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
  return ArtifactRegistry.fromFiles(files);
}

describe('a project with its own artifactDir and deploymentsDir', () => {
  let root: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'alephium-project-'));
    const project = join(root, 'app');
    mkdirSync(project);
    cpSync(join(FIXTURE_ROOT, 'artifacts'), join(project, 'build'), { recursive: true });
    cpSync(join(FIXTURE_ROOT, 'deployments'), join(project, 'deploy'), { recursive: true });
    writeFileSync(
      join(project, 'alephium.config.ts'),
      "import { Configuration } from '@alephium/cli'\n" +
        "const configuration: Configuration<unknown> = {\n  artifactDir: './build',\n  deploymentsDir: 'deploy',\n" +
        "  networks: { devnet: { nodeUrl: 'http://127.0.0.1:22973', privateKeys: [process.env.KEY] } }\n}\n" +
        'export default configuration\n',
    );
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('has its contracts and deployments found through the pattern of its config', () => {
    const config = readProjectConfig(readFileSync(join(root, 'app', 'alephium.config.ts'), 'utf8'));
    assert.deepEqual([config.artifactDir, config.deploymentsDir], ['build', 'deploy']);
    const registry = registryOf(root, projectFilesGlob([config]));
    assert.ok(registry.contracts.some((c) => c.name === 'Vault'));
    assert.ok(registry.deployments('devnet').length > 0);
    assert.equal(registry.matchAddress(VAULT, 'devnet')?.artifact?.name, 'Vault');
  });

  it('is not found by the CLI defaults alone (what was searched before the config was read)', () => {
    const registry = registryOf(root, projectFilesGlob([]));
    assert.equal(registry.contracts.length, 0);
    assert.equal(registry.deployments().length, 0);
  });

  it('matches with the small matcher as findFiles would (checked on the default layout)', () => {
    const glob = projectFilesGlob([]);
    assert.ok(globMatches(glob, 'artifacts/vault/Vault.ral.json'));
    assert.ok(globMatches(glob, 'a/b/deployments/.deployments.devnet.json'));
    assert.ok(!globMatches(glob, 'deployments/vault/Vault.ral.json'));
    assert.ok(!globMatches(glob, 'build/Vault.ral.json'));
  });
});
