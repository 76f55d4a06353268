import { strict as assert } from 'node:assert';
import { buildDebugBytecode as sdkDebugBytecode } from '@alephium/web3';
import { ArtifactRegistry, type SourceFile } from '../../../src/core/artifacts';
import { blake2b256, bytesToHex, hexToBytes } from '../../../src/core/protocol';
import { clone, fixtureFiles, fixtureJson } from './helpers';

/** The fixture project with its .project.json entry for Vault replaced. */
function withVaultInfo(info: Record<string, unknown>): ArtifactRegistry {
  const project = clone(fixtureJson('artifacts/.project.json')) as { infos: Record<string, unknown> };
  project.infos.Vault = { sourceFile: 'vault/vault.ral', ...info };
  const files: SourceFile[] = fixtureFiles().map((f) =>
    f.path.endsWith('.project.json') ? { path: f.path, text: JSON.stringify(project) } : f,
  );
  return ArtifactRegistry.fromFiles(files);
}

const codeHash = (hex: string) => bytesToHex(blake2b256(hexToBytes(hex)));

describe('the debug build of an artifact (what a devnet deploy uses, as the CLI does)', () => {
  const release = (fixtureJson('artifacts/vault/Vault.ral.json') as { bytecode: string }).bytecode;
  // Keep the first 20 bytes, insert a Debug-like instruction, keep the rest: the compiler's shape.
  const patch = `=40+7e0207=${release.length - 40}`;
  const debug = sdkDebugBytecode(release, patch);

  it('is the release code with the patch applied, when it hashes to the compiler’s codeHashDebug', () => {
    const registry = withVaultInfo({ bytecodeDebugPatch: patch, codeHashDebug: codeHash(debug) });
    const vault = registry.byName('Vault')!;
    assert.deepEqual(registry.debugBuildOf(vault), { bytecode: debug, codeHash: codeHash(debug) });
    assert.equal(registry.byCodeHash(codeHash(debug)), vault, 'the debug hash still names the artifact');
  });

  it('is nothing when the patch is stale (it does not give codeHashDebug) or not the compiler’s', () => {
    const stale = withVaultInfo({ bytecodeDebugPatch: patch, codeHashDebug: codeHash(release) });
    assert.equal(stale.debugBuildOf(stale.byName('Vault')!), undefined);
    const broken = withVaultInfo({ bytecodeDebugPatch: '=99999', codeHashDebug: codeHash(debug) });
    assert.equal(broken.debugBuildOf(broken.byName('Vault')!), undefined);
  });

  it('is nothing without a patch in .project.json', () => {
    const registry = withVaultInfo({ codeHashDebug: codeHash(debug) });
    assert.equal(registry.debugBuildOf(registry.byName('Vault')!), undefined);
  });
});
